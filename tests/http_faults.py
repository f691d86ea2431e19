"""A local HTTP API that acts and then fails, for the keyed-write tests.

``POST /<mode>/...`` with an ``Idempotency-Key`` header charges (the API does
*not* deduplicate by key, so every effect is counted) and then answers as
``mode`` says; ``GET /charges/<key>`` is the reconcile lookup's read (200 with
the charge, 404 when there is none). With ``plan=`` the server picks the mode
of each request itself, from a seeded random plan, whatever the path says.

Modes (``*-after``: the charge happens first; ``*-before``: it does not):

=================== ============================================================
ok                  charge, 200 with ``{"id": ...}``
reset-after         charge, then reset the connection (RST) without an answer
close-after         charge, then close the connection without an answer
500/502/503/504     charge, then that status (503 without Retry-After)
slow-after          charge, then answer after ``slow_s`` (longer than the
                    client's read timeout)
503-retry-before    no charge, 503 with ``Retry-After: 0`` (proof nothing ran)
429-before          no charge, 429 with ``Retry-After: 0``
=================== ============================================================
"""

from __future__ import annotations

import json
import random
import socket
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

AFTER = ["reset-after", "close-after", "500", "502", "503", "504", "slow-after"]
BEFORE = ["503-retry-before", "429-before"]


class FaultyAPI:
    """The server, its effects (key -> charge ids) and its plan; ``with FaultyAPI() as api: api.url``."""

    def __init__(self, plan: dict[str, float] | None = None, seed: int = 0, slow_s: float = 0.6) -> None:
        self.charges: dict[str, list[str]] = {}
        self.requests: dict[str, int] = {}
        self.lock = threading.Lock()
        self.plan = plan
        self.rng = random.Random(seed)
        self.slow_s = slow_s
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def answer(self, status: int, body: object, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except OSError:  # the client gave up (its read timeout)
                    pass

            def do_GET(self) -> None:  # noqa: N802
                key = self.path.rsplit("/", 1)[-1]
                with api.lock:
                    done = list(api.charges.get(key, ()))
                if done:
                    self.answer(200, {"id": done[0]})
                else:
                    self.answer(404, {"error": "no such charge"})

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                key = self.headers.get("Idempotency-Key") or "?"
                mode = api.choose(self.path.strip("/").split("/")[0])
                if mode in BEFORE:
                    if mode == "429-before":
                        self.answer(429, {"error": "slow down"}, {"Retry-After": "0"})
                    else:
                        self.answer(503, {"error": "down"}, {"Retry-After": "0"})
                    return
                with api.lock:
                    charge = f"ch_{key}_{len(api.charges.get(key, ())) + 1}"
                    api.charges.setdefault(key, []).append(charge)
                if mode == "reset-after":
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.connection.close()
                    self.close_connection = True
                elif mode == "close-after":
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                elif mode.isdigit():
                    self.answer(int(mode), {"error": mode})
                else:
                    if mode == "slow-after":
                        time.sleep(api.slow_s)
                    self.answer(200, {"id": charge})

            do_PUT = do_POST  # botocore's put_object  # noqa: N815

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def choose(self, asked: str) -> str:
        if self.plan is None:
            return asked
        with self.lock:
            r = self.rng.random()
        for mode, share in self.plan.items():
            if r < share:
                return mode
            r -= share
        return "ok"

    def __enter__(self) -> FaultyAPI:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def closed_port_url() -> str:
    """A loopback URL nobody listens on (connection refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"
