// The scenario step language's substitutions, as internal/scenario defines
// them (internal/scenario/lang_test.go has the same cases).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { substitute } from '../src/scenario.js';

test('substitute', () => {
  const vars = { run: 'run_1', suite: 'node' };
  const cases = [
    ['{"runId": "${run}", "r": "scn-${suite}"}', '{"runId": "run_1", "r": "scn-node"}'],
    ['${repeat:x:3}${repeat:ab:2}', 'xxxabab'],
    ['${missing} ${repeat:x:n}', '${missing} ${repeat:x:n}'],
    ['{"d": "${list:9:3}", "e": "${list:x:0}"}', '{"d": ["9","9","9"], "e": []}'],
    ['{"d": "a${list:9:3}"}', '{"d": "a${list:9:3}"}'],
  ];
  for (const [input, want] of cases) assert.equal(substitute(input, vars), want, input);
});
