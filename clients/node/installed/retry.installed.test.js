// The retry suite through the INSTALLED package (see node_install_test.go).

import * as lib from '@runsvc/client';
import { retrySuite } from './retry-suite.js';

retrySuite(lib);
