"""A real HTTP receiver for notices: it keeps every request (method, path,
headers, body) and answers as a chat server would (a Matrix homeserver's
login, join and send; anything else 200 and "{}"), or as told: 500, or
hanging until the client gives up."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Request:
    method: str
    path: str
    headers: dict
    body: bytes

    def json(self):
        return json.loads(self.body)


@dataclass
class Receiver:
    server: ThreadingHTTPServer
    requests: list = field(default_factory=list)
    mode: str = "ok"  # ok, fail (500), hang (answers after HANG seconds)
    hang: float = 3.0
    delay: float = 0.0  # every answer this late (a kill lands mid-drain)

    @property
    def base(self) -> str:
        return f"127.0.0.1:{self.server.server_port}"

    def paths(self, prefix: str = "") -> list[Request]:
        return [r for r in self.requests if r.path.startswith(prefix)]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


MATRIX = {
    "/login": {"access_token": "tok", "user_id": "@pbem:localhost", "home_server": "localhost"},
    "/join": {"room_id": "!room:localhost"},
    "/directory/room": {"room_id": "!room:localhost"},
    "/send/": {"event_id": "$event"},
}


def start_receiver() -> Receiver:
    receiver: Receiver

    class Handler(BaseHTTPRequestHandler):
        def _answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            receiver.requests.append(Request(self.command, self.path, dict(self.headers), body))
            time.sleep(receiver.hang if receiver.mode == "hang" else receiver.delay)
            status = 500 if receiver.mode == "fail" else 200
            answer = next((v for k, v in MATRIX.items() if k in self.path), {})
            data = json.dumps(answer if status == 200 else {"error": "down"}).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # the client gave up waiting: nobody reads the answer

        do_GET = do_POST = do_PUT = _answer

        def log_message(self, *args):  # quiet test output
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    receiver = Receiver(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return receiver
