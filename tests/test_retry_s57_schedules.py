"""Session 57 (issue 23, ``delay-schedule-loop``): a retry loop that goes round a schedule of waits named elsewhere in
scope -- ``for delay in RETRY_DELAYS`` (a module constant), ``for attempt, delay in enumerate(backoff_delays)`` (a
list bound in the function: batch 7 arcade-github ``_request_with_retry``) -- is a hand loop like ``for delay in
(1, 2, 4)``: one attempt per delay. A name its function's callers give (a parameter), a schedule rebound to
something else, or ``enumerate`` over data is not."""

from __future__ import annotations

import textwrap

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source


def findings(src: str, code: str = "TFH101") -> list[tuple[int, str]]:
    cfg = Config.default().only(code)
    return [(f.line, f.message) for f in lint_source(textwrap.dedent(src), "mod.py", cfg)]


MODULE_CONSTANT = '''\
import time, requests

RETRY_DELAYS = (1, 2, 4)

def create_order(body):
    for delay in RETRY_DELAYS:
        try:
            return requests.post("https://api.example.com/orders", json=body, timeout=10)
        except requests.ConnectionError:
            time.sleep(delay)
    raise RuntimeError("gave up")
'''

ENUMERATE_LOCAL = '''\
import asyncio, httpx

class Client:
    async def _request_with_retry(self, method: str, url: str, json=None) -> httpx.Response:
        client = httpx.AsyncClient(timeout=10)
        backoff_delays = [0.3, 0.6, 1.2]
        for attempt, delay in enumerate(backoff_delays):
            try:
                response = await client.request(method=method, url=url, json=json)
                response.raise_for_status()
            except httpx.HTTPStatusError as e:
                if e.response.status_code >= 500 and attempt < len(backoff_delays) - 1:
                    await asyncio.sleep(delay)
                    continue
                raise
            else:
                return response
        raise RuntimeError("unreachable")

    async def create_issue(self, data):
        return await self._request_with_retry("POST", "/issues", json=data)
'''


def test_a_module_constant_schedule_is_a_retry_loop() -> None:
    found = findings(MODULE_CONSTANT)
    assert [line for line, _ in found] == [6]
    assert "POST to 'https://api.example.com/orders'" in found[0][1]


def test_enumerate_over_a_local_schedule_is_a_retry_loop() -> None:
    found = findings(ENUMERATE_LOCAL)
    assert [line for line, _ in found] == [7]
    assert "as the call of _request_with_retry() at line 21 asks" in found[0][1]


def test_the_schedule_bounds_the_loop_for_the_other_rules() -> None:
    # the loop's stop is the schedule's length: TFH301 (no bound) stays silent, TFH103 reads the handler
    src = MODULE_CONSTANT.replace("except requests.ConnectionError:", "except Exception:")
    assert findings(src, "TFH301") == []
    assert [line for line, _ in findings(src, "TFH103")] == [9]


def test_a_parameter_is_not_resolved_to_a_module_name() -> None:
    # the callers give `RETRY_DELAYS` here: it may be a list of orders, not waits
    src = MODULE_CONSTANT.replace("def create_order(body):", "def create_order(body, RETRY_DELAYS):")
    assert findings(src) == []


def test_a_name_rebound_to_data_or_enumerate_over_data_is_no_retry() -> None:
    rebound = MODULE_CONSTANT.replace("    for delay in RETRY_DELAYS:", "    RETRY_DELAYS = body['items']\n    for delay in RETRY_DELAYS:")
    assert findings(rebound) == []
    over_items = '''\
import requests
def create_all(items):
    for i, item in enumerate(items):
        try:
            requests.post("https://api.example.com/orders", json=item, timeout=10)
        except requests.ConnectionError:
            continue
'''
    assert findings(over_items) == []
    one_name_target = MODULE_CONSTANT.replace("RETRY_DELAYS = (1, 2, 4)", "RETRY_DELAYS = (1, 2, 4)\nPAIRS = ((1, 2), (3, 4))") \
        .replace("for delay in RETRY_DELAYS:", "for a, b in PAIRS:")
    assert findings(one_name_target) == []


def test_a_named_list_of_numbers_the_attempt_reads_is_data() -> None:
    # ports tried in turn (batch 26 hyperun, comodor): each round is another port, not the same work after a wait
    ports = '''\
import socket, requests
CANDIDATE_PORTS = [8765, 8766, 8767]
def register(body):
    for port in CANDIDATE_PORTS:
        try:
            return requests.post(f"http://localhost:{port}/register", json=body, timeout=5)
        except requests.ConnectionError:
            continue
'''
    assert findings(ports) == []
    assert findings(ports.replace("    for port in CANDIDATE_PORTS:", "    for i, port in enumerate(CANDIDATE_PORTS):")) == []


def test_a_target_read_before_the_try_is_data_too() -> None:
    # batch 26 skyvern `_CDP_SCAN_PORTS`: the port makes the URL before the `try`
    src = '''\
import requests
_SCAN_PORTS = (9222, 9223)
def register(body):
    for port in _SCAN_PORTS:
        url = f"http://127.0.0.1:{port}/register"
        try:
            return requests.post(url, json=body, timeout=5)
        except requests.ConnectionError:
            pass
'''
    assert findings(src) == []
    waits = src.replace('        url = f"http://127.0.0.1:{port}/register"\n', '        url = "http://127.0.0.1:9222/register"\n        if port:\n            time.sleep(port)\n').replace("import requests", "import time, requests")
    assert [line for line, _ in findings(waits)] == [4]
