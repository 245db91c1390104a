"""Shared fixtures of the Python suite: the runsvc binary and servers.

RUNSVC_BIN names the binary; without it, one is built once per process with
`go build -o <tmp>/runsvc ./cmd/runsvc` from the repo root. Servers listen
on 127.0.0.1 only, on a free port, with a fresh data directory, and are
killed when the test class ends (also on failure) or the process exits.
"""

import atexit
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

PY_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(os.path.dirname(PY_DIR))
if PY_DIR not in sys.path:
    sys.path.insert(0, PY_DIR)

import grpc  # noqa: E402

import runsvc_client  # noqa: E402,F401 (puts the generated stubs on sys.path)

SCENARIOS = os.path.join(REPO, "testdata", "scenarios.json")
POLICY = os.path.join(REPO, "testdata", "policy.json")


def require_all() -> bool:
    """RUNSVC_REQUIRE_ALL=1 turns skips for missing tools into failures."""
    return os.environ.get("RUNSVC_REQUIRE_ALL") == "1"


_build_lock = threading.Lock()
_built = None


def runsvc_binary() -> str:
    """The runsvc binary: $RUNSVC_BIN, or one built once from the repo."""
    global _built
    env = os.environ.get("RUNSVC_BIN")
    if env:
        if not os.access(env, os.X_OK):
            raise RuntimeError(f"RUNSVC_BIN={env} is not an executable")
        return env
    with _build_lock:
        if _built is None:
            d = tempfile.mkdtemp(prefix="runsvc-pybin-")
            atexit.register(shutil.rmtree, d, True)
            out = os.path.join(d, "runsvc")
            go = shutil.which("go") or "/usr/local/go/bin/go"
            r = subprocess.run([go, "build", "-o", out, "./cmd/runsvc"], cwd=REPO,
                               capture_output=True, text=True, timeout=600)
            if r.returncode != 0:
                raise RuntimeError(f"go build ./cmd/runsvc failed:\n{r.stdout}{r.stderr}")
            _built = out
        return _built


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def health_serving(addr: str, timeout: float = 1.0) -> bool:
    """Asks grpc.health.v1.Health/Check for the server ("") by hand: the
    request is empty and SERVING is field 1 = 1, so no stubs are needed."""
    with grpc.insecure_channel(addr) as ch:
        check = ch.unary_unary("/grpc.health.v1.Health/Check",
                               request_serializer=lambda b: b, response_deserializer=lambda b: b)
        try:
            return check(b"", timeout=timeout) == b"\x08\x01"
        except grpc.RpcError:
            return False


class Server:
    """A runsvc serve subprocess on 127.0.0.1."""

    def __init__(self, binary=None, env=None):
        self.binary = binary or runsvc_binary()
        self.env = env or {}
        """Added to the server's environment, e.g. {"RUNSVC_LEASE_TTL": "1s"}."""
        self.dir = tempfile.mkdtemp(prefix="runsvc-py-")
        self.data = os.path.join(self.dir, "data")
        self.port = free_port()
        self.addr = f"127.0.0.1:{self.port}"
        self.log_path = os.path.join(self.dir, "server.log")
        self.proc = None
        atexit.register(self.stop)

    def start(self, timeout: float = 30.0) -> "Server":
        """Starts the server and waits until it answers the health check."""
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--listen", self.addr, "--data", self.data,
             "--policy-file", POLICY, "--log-format", "text"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=self.dir,
            env={**os.environ, **self.env})
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"runsvc exited with {self.proc.returncode}:\n{self.log_tail()}")
            if health_serving(self.addr, 0.5):
                return self
            time.sleep(0.05)
        raise RuntimeError(f"runsvc did not become healthy on {self.addr} in {timeout}s:\n{self.log_tail()}")

    def kill(self, graceful: bool = True) -> None:
        """Stops the process (SIGTERM, then SIGKILL after 3 s; at once when
        not graceful), keeping the data."""
        p, self.proc = self.proc, None
        if p is None or p.poll() is not None:
            return
        if graceful:
            p.terminate()
            try:
                p.wait(3)
                return
            except subprocess.TimeoutExpired:
                pass
        p.kill()
        p.wait(5)

    def stop(self) -> None:
        """Kills the server and removes its data."""
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    def log_tail(self, n: int = 40) -> str:
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as f:
                return "".join(f.readlines()[-n:])
        except OSError:
            return "(no log)"


def start_server(test_class) -> Server:
    """Starts a server for a TestCase class and registers its cleanup."""
    s = Server()
    test_class.addClassCleanup(s.stop)
    return s.start()
