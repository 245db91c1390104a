// The worker suite through the INSTALLED package (see node_install_test.go).

import path from 'node:path';
import * as lib from '@runsvc/client';
import { startServer } from '@runsvc/client/testing';
import { workerSuite } from './worker-suite.js';

workerSuite(lib, () => startServer({ policyFile: path.join(process.env.RUNSVC_REPO_ROOT, 'testdata', 'policy.json') }));
