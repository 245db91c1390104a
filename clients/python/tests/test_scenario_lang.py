"""The scenario step language's helpers, as internal/testing/scenario defines them."""

import unittest

import support  # noqa: F401 (paths)
from runsvc_client.scenario import go_sprint, lookup, matches, parse_duration, substitute


class StepLanguageTest(unittest.TestCase):
    def test_substitute(self):
        v = {"run": "run_1", "suite": "py"}
        self.assertEqual(substitute('{"runId": "${run}", "r": "scn-${suite}"}', v), '{"runId": "run_1", "r": "scn-py"}')
        self.assertEqual(substitute("${repeat:x:3}${repeat:ab:2}", v), "xxxabab")
        self.assertEqual(substitute("${missing} ${repeat:x:n}", v), "${missing} ${repeat:x:n}")
        self.assertEqual(substitute('{"d": "${list:9:3}", "e": "${list:x:0}"}', v), '{"d": ["9","9","9"], "e": []}')
        self.assertEqual(substitute('{"d": "a${list:9:3}"}', v), '{"d": "a${list:9:3}"}')

    def test_parse_duration(self):
        for text, want in (("1.2s", 1.2), ("500ms", 0.5), ("1m30s", 90.0), ("0", 0.0), ("2h", 7200.0), (".5s", 0.5)):
            self.assertAlmostEqual(parse_duration(text), want, msg=text)
        for bad in ("", "1", "s", "1x"):
            with self.assertRaises(ValueError, msg=bad):
                parse_duration(bad)

    def test_lookup_and_until(self):
        resp = {"run": {"runId": "r", "state": "RUN_STATE_COMPLETED", "turn": 2.0, "done": True}}
        self.assertEqual(lookup(resp, "run.runId"), "r")
        self.assertIsNone(lookup(resp, "run.runId.deeper"))
        self.assertIsNone(lookup(None, "run"))
        self.assertTrue(matches(resp, {"run.state": "RUN_STATE_COMPLETED", "run.turn": "2", "run.done": "true"}))
        self.assertFalse(matches(resp, {"run.state": "RUN_STATE_FAILED"}))
        self.assertTrue(matches(resp, {"run.missing": "<nil>"}))
        self.assertTrue(matches(resp, None))
        self.assertEqual(go_sprint(1.5), "1.5")


if __name__ == "__main__":
    unittest.main()
