"""bench/retry_evidence.py: what a TFH102-104/TFH3xx finding rests on, read with ``ast`` at the finding's line."""

from __future__ import annotations

from bench_support import load_bench

ev = load_bench("retry_evidence")

SOURCE = '''\
import time
def fetch(client):
    for attempt in range(3):
        try:
            return client.get("/x")
        except Exception:
            napper(0.25)
def pump(conn):
    while True:
        try:
            msg = conn.recv()
            handle(msg)
        except Exception:
            raise
@retry
def call(client):
    return client.get("/y")
def lock(fd):
    while True:
        try:
            flock(fd)
            return
        except InterruptedError:
            time.sleep(0)
'''


def test_loop_shape_wait_handler_and_body_at_the_findings_line() -> None:
    assert ev.evidence(SOURCE, 6) == {"loop": "for range", "wait": "none", "handler": "plain", "body": "retry"}
    assert ev.evidence(SOURCE, 13) == {"loop": "while True", "wait": "none", "handler": "re-raises", "body": "message loop"}
    assert ev.evidence(SOURCE, 16)["loop"] == "decorator/config"
    assert ev.evidence(SOURCE, 22) == {"loop": "while True", "wait": "sleep", "handler": "plain", "body": "retry"}


def test_a_wait_named_otherwise_is_a_wait_like_call() -> None:
    src = SOURCE.replace("napper(0.25)", "self.limiter.acquire()")
    assert ev.evidence(src, 6)["wait"] == "wait-like call: acquire"

