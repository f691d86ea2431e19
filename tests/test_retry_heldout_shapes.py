"""Issue 23, session 32: the retry shapes read on held-out code, each with its near miss.

Each test lints a small program twice: the shape (silent, or reported) and the variant that
differs in the one thing the rule reads (the helper does not re-raise, the work is not a file
operation, the work reaches outside, the sleep leads the attempt...), so the test fails if the rule
stops reading that thing.
"""

from __future__ import annotations

import textwrap

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source


def codes(src: str, select: str) -> list[str]:
    cfg = Config.default().only(select)
    findings = lint_source(textwrap.dedent(src), "m.py", cfg)
    assert not [f for f in findings if f.code in ("TFH001", "TFH002")], findings
    return [f.code for f in findings]


HELPER = """
import time

def _handle(e, attempt):
    {body}

def call(client, attempts=4):
    for attempt in range(attempts):
        try:
            return client.fetch()
        except Exception as exc:
            _handle(exc, attempt)
"""


def test_a_helper_handed_the_exception_that_re_raises_it_decides_what_goes_round() -> None:
    decides = "if not isinstance(e, ConnectionError):\n        raise e\n    time.sleep(2 ** attempt)"
    chained = "if not isinstance(e, ConnectionError):\n        raise RuntimeError('gave up') from e\n    time.sleep(1)"
    only_logs = "print('failed', e)\n    time.sleep(2 ** attempt)"
    assert codes(HELPER.format(body=decides), "TFH103") == []
    assert codes(HELPER.format(body=chained), "TFH103") == []
    assert codes(HELPER.format(body=only_logs), "TFH103") == ["TFH103"]  # it decides nothing


def test_a_helper_that_raises_something_else_does_not_decide() -> None:
    # raises, but never the exception it was handed: every exception still goes round
    other = "if attempt > 10:\n        raise RuntimeError('too many')\n    time.sleep(1)"
    assert codes(HELPER.format(body=other), "TFH103") == ["TFH103"]


FILE_RETRY = """
import os, time
def write(src, dst):
    for attempt in range(5):
        try:
            {work}
            return
        except PermissionError:
            time.sleep(0.1)
"""


def test_permission_error_around_a_file_operation_is_transient() -> None:
    assert codes(FILE_RETRY.format(work="os.replace(src, dst)"), "TFH102") == []
    assert codes(FILE_RETRY.format(work="open(dst, 'w').write(src)"), "TFH102") == []
    # the same condition around a remote call: a 403 stays a 403
    remote = FILE_RETRY.replace("import os, time", "import os, time, requests").format(work="requests.get(src, timeout=5)")
    assert codes(remote, "TFH102") == ["TFH102"]


def test_a_shadowed_open_is_not_a_file_operation() -> None:
    src = FILE_RETRY.format(work="open(dst)").replace("def write", "def open(x):\n    return x\ndef write")
    assert codes(src, "TFH102") == ["TFH102"]


IN_MEMORY = """
import requests
def members(module):
    for _ in range(2):
        try:
            return {work}
        except RuntimeError:
            pass
"""


def test_in_memory_work_needs_no_wait_between_attempts() -> None:
    assert codes(IN_MEMORY.format(work="tuple(dir(module))"), "TFH303") == []
    assert codes(IN_MEMORY.format(work="requests.get(module, timeout=5).json()"), "TFH303") == ["TFH303"]
    # builtin open reaches the file system: not in memory
    assert codes(IN_MEMORY.format(work="open(module).read()"), "TFH303") == ["TFH303"]


COUNTED = """
import asyncio

async def load(self, page, url):
    attempt = 0
    while attempt < self.retry_limit:
        try:
            async with self.browser() as b:
                await page.goto(url)
{filler}
                {pause}
                return await page.content()
        except (asyncio.TimeoutError, ConnectionError):
            attempt += 1
"""


def test_a_counted_while_loop_is_a_retry_however_long_its_attempt() -> None:
    filler = "\n".join(f"                x{i} = {i}" for i in range(40))  # over the length a daemon's body has
    src = COUNTED.format(filler=filler, pause="await page.mouse.wheel(0, 100)")
    assert codes(src, "TFH303") == ["TFH303"]
    uncounted = src.replace("            attempt += 1", "            self.log()")
    assert codes(uncounted, "TFH303") == []  # no counter: a long body reads as a program, not an attempt


def test_a_sleep_deep_in_the_attempt_is_not_a_wait_between_attempts() -> None:
    deep = COUNTED.format(filler="", pause="await asyncio.sleep(0.5)")
    assert codes(deep, "TFH303") == ["TFH303"]
    leading = deep.replace("            async with self.browser() as b:", "            await asyncio.sleep(attempt)\n            async with self.browser() as b:")
    assert codes(leading, "TFH303") == []


CHANGED = """
def ask(client, messages):
    for attempt in range(3):
        try:
            return client.chat(messages)
        except TruncatedError as e:
            {handler}
"""


def test_a_handler_that_changes_the_next_request_in_place_is_not_a_blind_retry() -> None:
    assert codes(CHANGED.format(handler="messages.append({'role': 'assistant', 'content': e.partial})"), "TFH303") == []
    assert codes(CHANGED.format(handler="messages[-1]['content'] = e.partial"), "TFH303") == []
    # a list the attempt does not read
    assert codes(CHANGED.format(handler="errors.append(e)"), "TFH303") == ["TFH303"]


SUPPLIED = """
def stream(create, use):
    for attempt in range(2):
        try:
            obj = create()
        except ConnectionError:
            obj = None
        {after}
"""


def test_a_value_the_handler_supplies_to_the_rest_of_the_iteration_is_a_fallback() -> None:
    assert codes(SUPPLIED.format(after="if use(obj):\n            return obj"), "TFH303") == []
    # nothing after the try reads it: the attempt's own store, and the loop goes round blindly
    stored_only = SUPPLIED.replace("obj = create()", "obj = create()\n            return use(1)").format(after="")
    assert codes(stored_only, "TFH303") == ["TFH303"]


def test_a_remote_mcp_tool_run_retried_is_a_write() -> None:
    src = """
    import asyncio
    from mcp import ClientSession
    async def run(session: ClientSession, name, args):
        for attempt in range(3):
            try:
                return await session.call_tool(name, args)
            except ConnectionError:
                await asyncio.sleep(1)
    """
    assert codes(src, "TFH101") == ["TFH101"]
    listed = src.replace("session.call_tool(name, args)", "session.list_tools()")
    assert codes(listed, "TFH101") == []


REPEAT = """
import logging, time
log = logging.getLogger(__name__)
def flush(server, params):
    for {target} in range(2):
        try:
            server.send(params)
        except Exception as e:
            {handler}
"""


def test_a_for_loop_that_repeats_by_design_is_not_a_retry() -> None:
    assert codes(REPEAT.format(target="_", handler="log.debug('failed: %s', e)"), "TFH103") == []
    # it says it retries: a counter-like name, or a handler that waits
    assert codes(REPEAT.format(target="attempt", handler="log.debug('failed: %s', e)"), "TFH103") == ["TFH103"]
    assert codes(REPEAT.format(target="_", handler="time.sleep(1)"), "TFH103") == ["TFH103"]
