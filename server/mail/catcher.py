"""The built-in mail catcher for development: an SMTP server on loopback that
writes every mail it receives into a folder, shown by the /dev/mail pages
(catcher_pages.py).  Run by processes/catcher.py; tests start it in-process."""

from __future__ import annotations

import socket
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
    controller = Controller(
        FolderHandler(Path(folder)), hostname="127.0.0.1", port=port or free_port()
    )
    controller.start()
    return controller
