"""The committed stubs import cleanly and are what generate.sh produces."""

import filecmp
import os
import shutil
import subprocess
import tempfile
import unittest

import support

GEN = os.path.join(support.PY_DIR, "gen")
GENERATE = os.path.join(support.PY_DIR, "generate.sh")


def tree(root):
    out = set()
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        for f in files:
            if not f.endswith(".pyc"):
                out.add(os.path.relpath(os.path.join(d, f), root))
    return out


class GeneratedTest(unittest.TestCase):
    def test_imports(self):
        import google.protobuf  # noqa: F401 (the system's, next to ours)
        from google.rpc import code_pb2, error_details_pb2, status_pb2  # noqa: F401
        from google.api import annotations_pb2, http_pb2  # noqa: F401 (the runsvc protos' HTTP rules)
        from runsvc.v1 import (bus_pb2_grpc, delegation_pb2_grpc, memory_pb2_grpc,  # noqa: F401
                               run_pb2_grpc, spec_pb2_grpc, tool_pb2_grpc)
        self.assertTrue(status_pb2.__file__.startswith(GEN), status_pb2.__file__)
        self.assertFalse(os.path.exists(os.path.join(GEN, "google", "__init__.py")),
                         "gen/google/__init__.py would shadow the system's google.protobuf")

    def test_fresh(self):
        missing = [t for t, p in (("protoc", shutil.which("protoc")),
                                  ("grpc_python_plugin", shutil.which("grpc_python_plugin"))) if not p]
        if missing:
            msg = (f"{' and '.join(missing)} not installed (apt-get install protobuf-compiler "
                   f"protobuf-compiler-grpc): cannot check that gen/ is fresh")
            if support.require_all():
                self.fail(msg + " (RUNSVC_REQUIRE_ALL=1)")
            self.skipTest(msg)
        with tempfile.TemporaryDirectory() as out:
            r = subprocess.run(["sh", GENERATE, out], capture_output=True, text=True, timeout=120)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            want, got = tree(out), tree(GEN)
            self.assertEqual(got, want, "gen/ has other files than generate.sh produces: run clients/python/generate.sh")
            stale = [f for f in sorted(want) if not filecmp.cmp(os.path.join(out, f), os.path.join(GEN, f), shallow=False)]
            self.assertEqual(stale, [], "gen/ is stale: run clients/python/generate.sh")


if __name__ == "__main__":
    unittest.main()
