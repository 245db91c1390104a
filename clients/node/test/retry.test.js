// withRetry from the source tree; see retry-suite.js.

import * as lib from '../src/index.js';
import { retrySuite } from './retry-suite.js';

retrySuite(lib);
