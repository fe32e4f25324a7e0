"""The development mail catcher as a process:
``python -m server.processes.catcher --dir FOLDER --port PORT``."""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path

from server.mail.catcher import start


def main() -> None:
    parser = argparse.ArgumentParser(description="pbem's development mail catcher")
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    controller = start(Path(args.dir), args.port)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    done.wait()
    controller.stop()


if __name__ == "__main__":
    main()
