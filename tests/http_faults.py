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
late-after          read the request, charge only once the lookup of its key
                    has been answered (a server lagging behind its client's
                    timeout), then answer
503-retry-before    no charge, 503 with ``Retry-After: 0`` (proof nothing ran)
429-before          no charge, 429 with ``Retry-After: 0``
=================== ============================================================

With ``honest=True`` the lookup sees every request the server has read (as a
real idempotency-aware API does): while one with the key is read but not yet
settled, ``GET`` answers 409 "in progress"; and a request whose client has
closed its end (it timed out) before the charge is dropped, not charged, under
the lock the lookup takes, so a lookup made after the client gave up is final.
``trace`` / ``story(key)`` are the server's view, for a failing test's message.
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

    def __init__(
        self, plan: dict[str, float] | None = None, seed: int = 0, slow_s: float = 0.6, honest: bool = False
    ) -> None:
        self.charges: dict[str, list[str]] = {}
        #: keys of requests read but not settled (charged or dropped) yet
        self.pending: dict[str, int] = {}
        self.honest = honest
        self.lookups: dict[str, threading.Event] = {}
        self.requests: dict[str, int] = {}
        self.lock = threading.Lock()
        self.plan = plan
        self.rng = random.Random(seed)
        self.slow_s = slow_s
        #: the server's view, in order: (wall time s, what, key, detail); read it when a test fails
        self.trace: list[tuple[float, str, str, str]] = []
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def client_gone(self) -> bool:
                """True when the client has closed its end (it timed out and gave up) or reset it."""
                try:
                    peeked: bytes = self.connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
                    return peeked == b""
                except BlockingIOError:  # open, nothing more sent
                    return False
                except OSError:  # reset
                    return True

            def setup(self) -> None:
                super().setup()
                api.note("connected", "", f"port {self.client_address[1]}")

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
                    busy = api.honest and api.pending.get(key, 0) > 0
                api.note("lookup", key, f"{len(done)} done, {'in progress' if busy else 'idle'}")
                api.looked_up(key).set()
                if done:
                    self.answer(200, {"id": done[0]})
                elif busy:  # read but not settled yet: it cannot tell (Stripe answers 409 here)
                    self.answer(409, {"error": "a request with this key is in progress"})
                else:
                    self.answer(404, {"error": "no such charge"})

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                key = self.headers.get("Idempotency-Key") or "?"
                mode = api.choose(self.path.strip("/").split("/")[0])
                api.note("received", key, f"{mode} port {self.client_address[1]}")
                if mode in BEFORE:
                    if mode == "429-before":
                        self.answer(429, {"error": "slow down"}, {"Retry-After": "0"})
                    else:
                        self.answer(503, {"error": "down"}, {"Retry-After": "0"})
                    return
                with api.lock:
                    api.pending[key] = api.pending.get(key, 0) + 1
                if mode == "late-after":  # a server lagging under load: it gets to the charge only after
                    api.looked_up(key).wait(10)  # the client gave up and looked the key up
                try:
                    with api.lock:  # settled atomically beside the lookup: seen charged, or never charged
                        gone = api.honest and self.client_gone()
                        if not gone:
                            charge = f"ch_{key}_{len(api.charges.get(key, ())) + 1}"
                            api.charges.setdefault(key, []).append(charge)
                finally:
                    with api.lock:
                        api.pending[key] -= 1
                if gone:  # the client gave up (its timeout) before the charge: nothing is done
                    api.note("dropped", key, "the client had gone")
                    self.close_connection = True
                    return
                api.note("charged", key, charge)
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

    def looked_up(self, key: str) -> threading.Event:
        """Set once the lookup of ``key`` has been answered (``late-after`` waits for it)."""
        with self.lock:
            return self.lookups.setdefault(key, threading.Event())

    def note(self, what: str, key: str, detail: str) -> None:
        with self.lock:
            self.trace.append((time.time(), what, key, detail))

    def story(self, key: str) -> list[str]:
        """The server's view of ``key``: one line per request, in order."""
        with self.lock:
            ports = {d.split()[-1] for _, w, k, d in self.trace if k == key and w == "received"}
            return [f"{t:.3f} server {what} {detail}" for t, what, k, detail in self.trace
                    if k == key or (what == "connected" and detail.split()[-1] in ports)]

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
