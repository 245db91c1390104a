"""Runs testdata/scenarios.json against a real runsvc through the Python
stubs: every scenario is a subTest checking code, reason, domain, metadata
keys, retryability and, for RPC errors, the pushback trailer.

The channel has grpcio's default options. With RUNSVC_TARGET=host:port the
scenarios run against that server (python_test.go puts nginx and HAProxy
in front of one) instead of one started here."""

import concurrent.futures
import os
import unittest
import uuid

import grpc

import support
from runsvc_client.scenario import Runner, ScenarioFile


class ScenarioTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        addr = os.environ.get("RUNSVC_TARGET")
        if not addr:
            addr = support.start_server(cls).addr
        cls.channel = grpc.insecure_channel(addr)
        cls.addClassCleanup(cls.channel.close)
        cls.file = ScenarioFile.load(support.SCENARIOS)
        cls.runner = Runner(cls.channel, suite="py-" + uuid.uuid4().hex[:12])
        cls.runner.setup(cls.file)
        # The scenarios are independent: run them all at once (like the Go
        # runner's parallel subtests), then report each as its own subTest.
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(cls.file.scenarios) or 1) as ex:
            futures = [(s, ex.submit(cls.runner.run, s)) for s in cls.file.scenarios]
            cls.results = []
            for s, f in futures:
                try:
                    cls.results.append((s, f.result(), None))
                except Exception as e:  # reported by the scenario's subTest
                    cls.results.append((s, None, e))

    def test_scenarios(self):
        self.assertTrue(self.results, "the scenarios file has no scenarios")
        for s, outcome, err in self.results:
            with self.subTest(s.name):
                if err is not None:
                    problems = [f"could not run: {type(err).__name__}: {err}"]
                else:
                    problems = [f"{s.reason}: {p}" for p in s.problems(outcome)]
                if problems:
                    self.fail("\n".join(problems) + self._got(outcome))

    def test_scenario_names_are_unique(self):
        names = [s.name for s in self.file.scenarios]
        self.assertEqual(len(names), len(set(names)))

    @staticmethod
    def _got(outcome):
        if outcome is None or outcome.status is None:
            return ""
        c = outcome.classification
        return (f"\ngot: {c.code} reason={c.reason!r} domain={c.domain!r} metadata={c.metadata} "
                f"retryable={c.retryable} retry_delay={c.retry_delay} pushback={outcome.pushback!r} "
                f"message={c.message!r}")


if __name__ == "__main__":
    unittest.main()
