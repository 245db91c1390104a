// The Node worker from the source tree; see worker-suite.js.

import * as lib from '../src/index.js';
import { startServer } from '../src/testing/server.js';
import { workerSuite } from './worker-suite.js';

workerSuite(lib, () => startServer());
