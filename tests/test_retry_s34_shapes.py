"""Issue 23, session 34: retry shapes read on batch 5, each test with its near miss.

Each test lints a small program twice or more: the shape (silent) and the variant that differs in
the one thing the model reads, so the test fails if the model stops reading that thing.
"""

from __future__ import annotations

import textwrap

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source


def codes(src: str, select: str) -> list[str]:
    cfg = Config.default().only(*select.split(","))
    findings = lint_source(textwrap.dedent(src), "m.py", cfg)
    assert not [f for f in findings if f.code in ("TFH001", "TFH002")], findings
    return sorted(f.code for f in findings)


# condition-never-raised: requests raises its Timeout only when the call was given a timeout
TIMEOUT_LOOP = """
import json
import requests
from requests.exceptions import RequestException, Timeout

def submit(url, body):
    tries = 3
    while tries:
        tries -= 1
        try:
            {call}
            response.raise_for_status()
            data = json.loads(response.content.decode("utf-8"))
            print("submitted", data.get("id"))
            return data
        except {caught}:
            continue
        except RequestException as exc:
            raise ValueError(str(exc))
    raise ValueError("gave up")
"""
UNTIMED = 'response = requests.post(url, data=body)'
TIMED = 'response = requests.post(url, data=body, timeout=10)'


def test_a_timeout_handler_around_an_untimed_requests_call_never_runs() -> None:
    for caught in ("Timeout", "requests.ReadTimeout", "(requests.exceptions.ConnectTimeout, Timeout)"):
        assert codes(TIMEOUT_LOOP.format(call=UNTIMED, caught=caught), "TFH101,TFH303") == [], caught


def test_the_timeout_handler_runs_once_the_call_has_a_timeout() -> None:
    # (TFH303 stays silent: the attempt itself waited out its timeout before going round)
    assert codes(TIMEOUT_LOOP.format(call=TIMED, caught="Timeout"), "TFH101,TFH303") == ["TFH101"]
    spread = 'response = requests.post(url, data=body, **opts)'  # the options may hold a timeout
    src = TIMEOUT_LOOP.replace("def submit(url, body):", "def submit(url, body, opts):")
    assert codes(src.format(call=spread, caught="Timeout"), "TFH101") == ["TFH101"]


def test_any_other_caught_exception_keeps_the_retry() -> None:
    # a connection error needs no timeout: the untimed POST is re-sent after one
    assert codes(TIMEOUT_LOOP.format(call=UNTIMED, caught="(Timeout, ConnectionError)"), "TFH101") == ["TFH101"]
    assert codes(TIMEOUT_LOOP.format(call=UNTIMED, caught="requests.ConnectionError"), "TFH101") == ["TFH101"]


def test_a_client_with_a_default_timeout_raises_its_timeout_untimed() -> None:
    httpx = TIMEOUT_LOOP.replace("import requests", "import httpx, requests")
    call = 'response = httpx.post(url, data=body)'  # httpx times out after 5 s by default
    assert codes(httpx.format(call=call, caught="httpx.TimeoutException"), "TFH101") == ["TFH101"]


def test_a_session_or_a_call_into_other_code_may_raise_the_timeout() -> None:
    session = 'response = self_session.post(url, data=body)'  # a mounted adapter may set a default timeout
    src = TIMEOUT_LOOP.replace("def submit(url, body):", "self_session = requests.Session()\ndef submit(url, body):")
    assert codes(src.format(call=session, caught="Timeout"), "TFH101") == ["TFH101"]
    other = 'response = requests.post(url, data=body); upload_parts(url)'  # imported: it may time out
    src = TIMEOUT_LOOP.replace("import json", "import json\nfrom .parts import upload_parts")
    assert codes(src.format(call=other, caught="Timeout"), "TFH101") == ["TFH101"]


def test_same_module_helpers_are_followed() -> None:
    src = """
    import requests
    from requests import Timeout

    class Job:
        def _status(self, url):
            r = requests.post(url, json={{"run": True}}{timeout})
            return r.json()

        def run(self, url):
            for _ in range(3):
                try:
                    result = self._status(url)
                    state = result.get("state", "")
                    return state == "done"
                except Timeout:
                    continue
    """
    assert codes(src.format(timeout=""), "TFH101") == []
    assert codes(src.format(timeout=", timeout=5"), "TFH101") == ["TFH101"]


# changed-request: each attempt draws a fresh value and works in memory: not the same work again
TIE_BREAK = """
import heapq, time

class Queue:
    def __init__(self):
        self._items = []

    def push(self, priority, item):
        while True:
            try:
                heapq.heappush(self._items, (-priority, {stamp}, item))
                break
            except TypeError:
                pass
"""


def test_an_in_memory_attempt_drawing_a_fresh_value_is_not_a_blind_retry() -> None:
    assert codes(TIE_BREAK.format(stamp="time.perf_counter_ns()"), "TFH102,TFH302,TFH303") == []


def test_the_same_attempt_with_a_fixed_value_is_reported() -> None:
    # the same tuple every time: a TypeError there fails forever
    assert codes(TIE_BREAK.format(stamp="0"), "TFH102,TFH302") == ["TFH102", "TFH302"]


def test_a_fresh_value_sent_out_of_the_process_is_still_the_same_work() -> None:
    src = """
    import time, requests

    def send(url, item):
        while True:
            try:
                requests.post(url, json={"at": time.time(), "item": item}, timeout=5)
                break
            except TypeError:
                pass
    """
    assert codes(src, "TFH102,TFH302") == ["TFH102", "TFH302"]


def test_a_constraint_violation_retried_at_once_needs_no_backoff() -> None:
    src = """
    from sqlalchemy.exc import {caught}

    def save(conn, name, body):
        for _ in range(5):
            try:
                version = conn.execute("SELECT max(version) FROM docs WHERE name = ?", name).scalar() or 0
                conn.execute("INSERT INTO docs VALUES (?, ?, ?)", name, version + 1, body)
                return version + 1
            except {caught}:
                continue
        raise RuntimeError("no free version")
    """
    assert codes(src.format(caught="IntegrityError"), "TFH303") == []
    assert codes(src.format(caught="OperationalError"), "TFH303") == ["TFH303"]  # a lost connection: wait


# attempt-waits: the attempt ran under a deadline; its TimeoutError came after that wait
DEADLINE = """
import anyio
from .concurrency import fail_after as project_fail_after

async def first_reply(start, attempts, limit):
    for attempt in range(attempts):
        stream = await start()
        try:
            {scope}
                return await stream.receive()
        except {caught}:
            await stream.aclose()
            continue
    raise RuntimeError("no reply")
"""


def test_a_timeout_after_a_deadline_scope_is_not_a_hot_loop() -> None:
    for scope in ("with anyio.fail_after(limit):", "with project_fail_after(limit):"):
        assert codes(DEADLINE.format(scope=scope, caught="TimeoutError"), "TFH303") == [], scope


def test_a_deadline_scope_does_not_excuse_other_failures_or_no_deadline() -> None:
    assert codes(DEADLINE.format(scope="with anyio.fail_after(limit):", caught="ConnectionError"), "TFH303") == ["TFH303"]
    assert codes(DEADLINE.format(scope="with anyio.fail_after(None):", caught="TimeoutError"), "TFH303") == ["TFH303"]
    assert codes(DEADLINE.format(scope="if limit:", caught="TimeoutError"), "TFH303") == ["TFH303"]


# counter-skipped-by-continue: the handler goes round before the counter is advanced
SKIPPED = """
import time, requests

class Client:
    def ask(self, body):
        retries = 0
        while retries < self.max_retries:
            self.key = self.next_key()
            headers = {{"Authorization": self.key}}
            try:
                reply = requests.post(self.url, json=body, headers=headers, timeout=30)
                return reply.json()["answer"]
            except requests.ConnectionError:
                time.sleep(1)
                {handler_end}
            except KeyError:
                time.sleep(1)
            retries += 1
        raise RuntimeError("no answer")
"""


def test_a_continue_that_skips_the_attempt_counter_makes_the_loop_unbounded() -> None:
    assert codes(SKIPPED.format(handler_end="continue"), "TFH302") == ["TFH302"]


def test_a_handler_that_reaches_the_counter_is_bounded() -> None:
    assert codes(SKIPPED.format(handler_end="pass"), "TFH302") == []  # falls through to `retries += 1`
    assert codes(SKIPPED.format(handler_end="retries += 1; continue"), "TFH302") == []
    assert codes(SKIPPED.format(handler_end="raise"), "TFH302") == []


def test_a_loop_over_entries_is_not_an_attempt_counter() -> None:
    src = SKIPPED.replace("retries", "entries")
    assert codes(src.format(handler_end="continue"), "TFH302") == []
    bare = SKIPPED.replace("            self.key = self.next_key()\n            headers = {{\"Authorization\": self.key}}\n", "")
    assert codes(bare.format(handler_end="continue"), "TFH302") == ["TFH302"]
    assert codes(bare.replace("retries", "entries").format(handler_end="continue"), "TFH302") == []


# broad-except-retry-missed: the shapes of hand loops TFH103 did not read as retries
def test_a_handler_whose_branch_continues_goes_round() -> None:
    src = """
    import asyncio

    async def run_chunk(client, query, attempts=3):
        for attempt in range(attempts + 1):
            try:
                return await client.start_query(query)
            except Exception as exc:
                print("chunk failed", exc)
                if attempt < attempts:
                    await asyncio.sleep(2 ** attempt)
                    {go_round}
                return []
    """
    assert codes(src.format(go_round="continue"), "TFH103") == ["TFH103"]
    assert codes(src.format(go_round="pass"), "TFH103") == []  # every path returns: tried once


LLM_LOOP = """
import time

def generate(llm, messages):
    {counter} = 0
    ok = False
    code = ""
    while {counter} < 20 and not ok:
        reply = llm.complete(messages)
        try:
            text = "".join(reply)
            if "Error code" in text:
                {counter} += 1
            else:
                ok = True
            code = extract(text)
        except Exception as exc:
            print(exc)
            {counter} += 1
            time.sleep(20)
    return code
"""


def test_a_failure_counter_and_a_flag_set_in_a_branch_make_a_retry() -> None:
    assert codes(LLM_LOOP.format(counter="call_count"), "TFH103") == ["TFH103"]
    assert codes(LLM_LOOP.format(counter="attempts"), "TFH103") == ["TFH103"]


def test_a_counter_advanced_on_success_too_is_not_a_failure_count() -> None:
    src = LLM_LOOP.format(counter="call_count").replace("    return code", "        call_count += 1\n    return code")
    assert codes(src, "TFH103") == []  # work before the try and a counter of every round: a batch loop


# connect-only-retry: re-sent only when the connection was never made
CONNECT = """
import asyncio, aiohttp, httpx

async def upload(session: aiohttp.ClientSession, url, data):
    for attempt in range(4):
        try:
            async with session.post(url, data=data, timeout=aiohttp.ClientTimeout(total=30)) as resp:
                resp.raise_for_status()
                return
        except {caught} as exc:
            if attempt == 3:
                raise
            failure = (2 ** attempt, type(exc).__name__)
            await asyncio.sleep(failure[0])
"""


def test_a_write_retried_only_on_connect_failures_is_not_duplicated() -> None:
    for caught in ("(aiohttp.ClientConnectorError, aiohttp.ConnectionTimeoutError)", "httpx.ConnectError"):
        assert codes(CONNECT.format(caught=caught), "TFH101") == [], caught


def test_a_failure_after_the_request_was_sent_still_re_sends_it() -> None:
    for caught in ("(aiohttp.ClientConnectorError, aiohttp.ServerTimeoutError)", "aiohttp.ClientError", "httpx.TransportError"):
        assert codes(CONNECT.format(caught=caught), "TFH101") == ["TFH101"], caught


def test_a_continue_branch_under_a_test_of_the_exception_narrows() -> None:
    src = """
    import asyncio

    async def snapshot(page, script):
        for attempt in range(3):
            try:
                return await page.evaluate(script)
            except Exception as exc:
                text = str(exc)
                navigating = "context was destroyed" in text or "navigation" in text
                if {test}:
                    await asyncio.sleep(0.5)
                    continue
                return None
    """
    assert codes(src.format(test="navigating"), "TFH103") == []  # decides from the message what goes round
    assert codes(src.format(test="attempt < 2"), "TFH103") == ["TFH103"]  # every failure goes round


def test_an_undecided_except_exception_after_a_deciding_handler_still_retries_everything() -> None:
    src = """
    import asyncio
    from botocore.exceptions import ClientError

    async def run_chunk(logs, query, attempts=3):
        for attempt in range(attempts):
            try:
                return await logs.start_query(query)
            except ClientError as exc:
                code = exc.response["Error"]["Code"]
                if code in ("AccessDeniedException", "InvalidParameterException"):
                    return []
                await asyncio.sleep(2 ** attempt)
            {last}
    """
    assert codes(src.format(last="except Exception:\n                await asyncio.sleep(2 ** attempt)"), "TFH103") == ["TFH103"]
    assert codes(src.format(last=""), "TFH103") == []  # only the deciding handler goes round


def test_a_credential_check_sent_as_post_is_a_read() -> None:
    src = """
    import asyncio, httpx

    async def {name}(url, api_key):
        for attempt in range(3):
            try:
                async with httpx.AsyncClient(timeout=5) as client:
                    response = await client.post(url, json={{"api_key": api_key}})
                    return response.json()["valid"]
            except httpx.TimeoutException:
                await asyncio.sleep(1)
    """
    assert codes(src.format(name="_validate_key"), "TFH101") == []
    assert codes(src.format(name="_register_key"), "TFH101") == ["TFH101"]


def test_a_followed_helper_reading_its_caught_exception_raises_no_timeout() -> None:
    src = """
    import requests
    from requests import RequestException, Timeout

    class Job:
        def _status(self, url):
            try:
                r = requests.post(url, json={{"run": True}}{timeout})
                return r.json()
            except RequestException as err:
                raise ValueError(err.response.content.decode("utf-8"))

        def run(self, url):
            for _ in range(3):
                try:
                    return self._status(url)
                except Timeout:
                    continue
    """
    assert codes(src.format(timeout=""), "TFH101") == []
    assert codes(src.format(timeout=", timeout=5"), "TFH101") == ["TFH101"]


def test_a_reconnection_before_going_round_is_the_wait() -> None:
    src = """
    class Client:
        async def call(self, name, args):
            for attempt in range(2):
                try:
                    return await self.session.send(name, args)
                except ConnectionResetError:
                    {repair}
                    continue
    """
    assert codes(src.format(repair="await self._reconnect()"), "TFH303") == []
    assert codes(src.format(repair="self.log_failure()"), "TFH303") == ["TFH303"]


def test_one_retry_after_a_recognised_failure_needs_no_backoff() -> None:
    src = """
    def list_tables(pool, config):
        for attempt in range({n}):
            try:
                return pool.acquire(config).command("SHOW TABLES")
            except Exception as err:
                if {test} and is_connection_error(err):
                    pool.evict(config)
                    continue
                raise
    """
    assert codes(src.format(n="2", test="True"), "TFH303") == []
    assert codes(src.format(n="5", test="attempt == 0"), "TFH303") == []
    assert codes(src.format(n="5", test="attempt < 4"), "TFH303") == ["TFH303"]  # four at once
    unrecognised = src.replace(" and is_connection_error(err)", "")
    assert codes(unrecognised.format(n="5", test="attempt == 0"), "TFH303") == ["TFH303"]  # any failure


# inference-post (batch 6): a POST retried in a language-model module named `lm.py` is a model call
LM_POST = """
import httpx, time
def complete(url, text):
    for attempt in range(3):
        try:
            return httpx.post(url, json={"q": text}, timeout=30).json()
        except httpx.TransportError:
            time.sleep(2 ** attempt)
"""


def _codes_at(src: str, path: str) -> list[str]:
    cfg = Config.default().only("TFH101")
    return sorted(f.code for f in lint_source(textwrap.dedent(src), path, cfg))


def test_a_post_in_a_language_model_module_is_inference_not_a_write() -> None:
    assert _codes_at(LM_POST, "storm/lm.py") == []
    assert _codes_at(LM_POST, "storm/together_lm.py") == []
    # a stem holding the letters, not the word, is not a language-model module
    assert _codes_at(LM_POST, "storm/html.py") == ["TFH101"]
    assert _codes_at(LM_POST, "storm/film.py") == ["TFH101"]
