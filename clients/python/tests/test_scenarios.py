"""Runs testdata/scenarios.json against a real runsvc through the Python
stubs: every scenario is a subTest checking code, reason, domain, metadata
keys, retryability and, for RPC errors, the pushback trailer.

The channel has grpcio's default options. With RUNSVC_TARGET=host:port the
scenarios run against that server (python_test.go puts nginx and HAProxy
in front of one) instead of one started here. A scenario that names a
server setting runs on the server RUNSVC_SCENARIO_SERVERS gives for it
(the Go tests that run this suite start one per setting); without that
variable such scenarios are skipped, or fail under RUNSVC_REQUIRE_ALL=1."""

import concurrent.futures
import os
import unittest
import uuid

import grpc

import support
from runsvc_client.scenario import SERVERS_ENV, Runner, ScenarioFile, servers_from_env


class ScenarioTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        addr = os.environ.get("RUNSVC_TARGET")
        if not addr:
            addr = support.start_server(cls).addr
        cls.channel = grpc.insecure_channel(addr)
        cls.addClassCleanup(cls.channel.close)
        cls.file = ScenarioFile.load(support.SCENARIOS)
        suite = "py-" + uuid.uuid4().hex[:12]
        cls.runner = Runner(cls.channel, suite=suite)
        cls.runner.setup(cls.file)
        cls.runners = {"": cls.runner}
        for name, started in (servers_from_env() or {}).items():
            ch = grpc.insecure_channel(started["addr"])
            cls.addClassCleanup(ch.close)
            cls.runners[name] = Runner(ch, suite=suite, variables=started.get("vars"))
        # The scenarios are independent: run them all at once (like the Go
        # runner's parallel subtests), then report each as its own subTest.
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(cls.file.scenarios) or 1) as ex:
            futures = [(s, ex.submit(cls.runners[s.server].run, s) if s.server in cls.runners else None)
                       for s in cls.file.scenarios]
            cls.results = []
            for s, f in futures:
                if f is None:
                    cls.results.append((s, None, None))
                    continue
                try:
                    cls.results.append((s, f.result(), None))
                except Exception as e:  # reported by the scenario's subTest
                    cls.results.append((s, None, e))

    def test_scenarios(self):
        self.assertTrue(self.results, "the scenarios file has no scenarios")
        for s, outcome, err in self.results:
            with self.subTest(s.name):
                if outcome is None and err is None:
                    msg = f"server setting {s.server!r} has no server: {SERVERS_ENV} does not name it"
                    if support.require_all() or servers_from_env() is not None:
                        self.fail(msg)
                    self.skipTest("skipped: " + msg + " (run through go test ./clients/python)")
                if err is not None:
                    problems = [f"could not run: {type(err).__name__}: {err}"]
                else:
                    problems = [f"{s.reason}: {p}" for p in s.problems(outcome)]
                if problems:
                    self.fail("\n".join(problems) + self._got(outcome))

    def test_every_server_setting_has_a_server(self):
        servers = servers_from_env()
        if servers is None:
            if support.require_all():
                self.fail(f"RUNSVC_REQUIRE_ALL=1 but {SERVERS_ENV} is not set")
            self.skipTest(f"skipped: {SERVERS_ENV} not set (run through go test ./clients/python)")
        self.assertEqual(sorted(servers), sorted(self.file.servers))

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
