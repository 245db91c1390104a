#!/usr/bin/env python3
"""A runsvc tool worker in Python serving two tools:

- ``py_upper``: returns the upper-cased "text" argument;
- ``py_fail``: always fails with {message: "boom", retryable: true}.

    /usr/bin/python3 clients/python/examples/worker.py --target 127.0.0.1:50051

It reconnects when the stream drops (e.g. runsvc restarts) and stops on
SIGTERM or Ctrl-C.
"""

import argparse
import logging
import os
import signal
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from runsvc_client.worker import Tool, ToolError, Worker  # noqa: E402


def py_upper(args, call):
    """Upper-cases args["text"]."""
    return str(args.get("text", "")).upper()


def py_fail(args, call):
    """Fails, retryably: the model sees the error and may try again."""
    raise ToolError("boom", retryable=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--target", default=os.environ.get("RUNSVC_TARGET", "127.0.0.1:50051"),
                   help="runsvc's address (env RUNSVC_TARGET)")
    p.add_argument("--name", default=None, help="worker name for runsvc's logs")
    args = p.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    w = Worker(args.target, [
        Tool("py_upper", py_upper, 'Upper-cases the "text" argument.',
             {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        Tool("py_fail", py_fail, "Always fails, retryably."),
    ], name=args.name)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=w.stop, daemon=True).start())
    try:
        w.serve_forever()
    except KeyboardInterrupt:
        w.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
