"""The built-in mail catcher for development: an SMTP server on loopback that
writes every mail it receives into a folder, shown by the /dev/mail pages."""
from __future__ import annotations

import argparse
import signal
import socket
import threading
import uuid
from pathlib import Path

from aiosmtpd.controller import Controller


class FolderHandler:
    def __init__(self, folder: Path):
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)

    async def handle_DATA(self, server, session, envelope):
        name = f"{uuid.uuid4().hex}.eml"
        tmp = self.folder / f".{name}.tmp"
        tmp.write_bytes(envelope.original_content or envelope.content)
        # Renamed into place so the web page never reads half a mail.
        tmp.rename(self.folder / name)
        return "250 Message accepted"


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def start(folder: Path, port: int | None = None) -> Controller:
    """A running catcher on 127.0.0.1; ``controller.port`` tells where."""
    controller = Controller(FolderHandler(Path(folder)), hostname="127.0.0.1",
                            port=port or free_port())
    controller.start()
    return controller


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
