"""A TCP proxy in front of PostgreSQL that can cut a connection right after
the server has received a COMMIT: the commit goes through, its answer is
lost, the way a network failure does it."""

from __future__ import annotations

import select
import socket
import threading


class CommitCutter:
    """Forwards 127.0.0.1:``port`` to PostgreSQL.  ``arm()``: the next
    client message that carries a COMMIT is forwarded, the server's answer
    is awaited (the commit is done) and thrown away, and the connection is
    cut.  ``cuts`` counts the commits cut so."""

    def __init__(self, upstream: tuple[str, int]):
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.armed = threading.Event()
        self.cuts = 0
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def arm(self) -> None:
        self.armed.set()

    def close(self) -> None:
        self.stopped = True
        self.listener.close()

    def _accept(self) -> None:
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            threading.Thread(target=self._pipe, args=(client, server), daemon=True).start()

    def _pipe(self, client: socket.socket, server: socket.socket) -> None:
        try:
            while True:
                ready, _, _ = select.select([client, server], [], [], 30)
                if not ready:
                    return
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if sock is client:
                        server.sendall(data)
                        if self.armed.is_set() and b"COMMIT" in data.upper():
                            self.armed.clear()
                            server.recv(65536)  # the server's answer: committed
                            self.cuts += 1
                            return
                    else:
                        client.sendall(data)
        except OSError:
            return
        finally:
            for sock in (client, server):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # the other side closed it already
                sock.close()
