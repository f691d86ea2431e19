"""The retry model (rules/retries/model.py and its readers): one test per retry kind, reading condition, stop and wait.

The model runs inside the engine's traversal; these tests run it through
``lint_source`` with a probe rule that records the model when the module is left.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import libcst as cst
import pytest

from smullyan.linter import knowledge as kb
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.rules.retries.model import UNKNOWN, Condition, Retry, RetryModel, Stop, Wait, status_set
from smullyan.linter.rule import Rule

SEEN: list[RetryModel] = []


class _Probe(Rule):
    code = "TFH998"
    name = "retry-model-probe"
    summary = "records the retry model"
    message = "-"
    docs = ""
    models: ClassVar[tuple[type, ...]] = (RetryModel,)

    @classmethod
    def candidate_lines(cls, screen: Any, knowledge: Any) -> None:
        return None  # whole file: the model sees everything

    def leave_Module(self, node: cst.Module) -> None:
        SEEN.append(self.ctx.models[RetryModel])


def model(src: str, **config: Any) -> list[Retry]:
    SEEN.clear()
    cfg = dataclasses.replace(Config.default(), **config).only("TFH998")  # the probe is not registered
    findings = lint_source(src, "m.py", cfg, rules=[_Probe])
    assert not [f for f in findings if f.code in ("TFH001", "TFH002")], findings
    assert len(SEEN) == 1 and SEEN[0].finished
    return SEEN[0].retries


def one(src: str, **config: Any) -> Retry:
    found = model(src, **config)
    assert len(found) == 1, [(r.kind, r.anchor) for r in found]
    return found[0]


def code(node: cst.CSTNode | None) -> str:
    assert node is not None
    return cst.Module([]).code_for_node(node)


def test_tenacity_bare_decorator_has_the_library_defaults() -> None:
    r = one("from tenacity import retry\n@retry\ndef f():\n    pass\n")
    assert r.kind == "tenacity" and r.function is not None and r.function.name.value == "f"
    assert r.condition == Condition(every_exception=True, default=True)
    assert r.stop == Stop(never=True) and r.wait == Wait(none=True)


def test_tenacity_decorator_with_literal_parts_through_a_module_alias() -> None:
    r = one(
        "import tenacity as t, httpx\n"
        "@t.retry(retry=t.retry_if_exception_type((httpx.TransportError, TimeoutError)),\n"
        "         stop=t.stop_after_attempt(4) | t.stop_after_delay(30), wait=t.wait_exponential())\n"
        "async def f():\n    pass\n"
    )
    assert isinstance(r.condition, Condition)
    assert r.condition.exceptions == ("httpx.TransportError", "TimeoutError")
    assert not r.condition.every_exception and not r.condition.default
    assert isinstance(r.stop, Stop) and r.stop.attempts == 4 and r.stop.seconds == 30 and not r.stop.never
    assert isinstance(r.wait, Wait) and not r.wait.none


def test_tenacity_parts_in_variables_or_kwargs_are_unknown() -> None:
    r = one("from tenacity import retry\nCOND = x()\n@retry(retry=COND, stop=STOP, wait=W)\ndef f():\n    pass\n")
    assert r.condition is UNKNOWN and r.stop is UNKNOWN and r.wait is UNKNOWN
    r = one("from tenacity import retry\n@retry(**OPTS)\ndef f():\n    pass\n")
    assert r.condition is UNKNOWN and r.stop is UNKNOWN and r.wait is UNKNOWN


def test_tenacity_retrying_called_with_the_function() -> None:
    r = one("from tenacity import Retrying, stop_never\ndef f(): pass\nRetrying(stop=stop_never)(f, 1)\n")
    assert r.kind == "tenacity" and code(r.callee) == "f"
    assert r.stop == Stop(node=r.stop.node, never=True)  # type: ignore[union-attr]


def test_tenacity_iterator_form_sync_and_async() -> None:
    src = (
        "from tenacity import Retrying, AsyncRetrying, stop_after_attempt, wait_none\n"
        "def f(g):\n"
        "    for attempt in Retrying(stop=stop_after_attempt(3), wait=wait_none()):\n"
        "        with attempt:\n            g()\n"
        "async def h(g):\n"
        "    async for attempt in AsyncRetrying(stop=stop_after_attempt(2)):\n"
        "        with attempt:\n            await g()\n"
    )
    a, b = model(src)
    assert a.kind == b.kind == "tenacity"
    assert a.body is not None and "g()" in code(a.body)
    assert a.stop == Stop(node=a.stop.node, attempts=3)  # type: ignore[union-attr]
    assert isinstance(a.wait, Wait) and a.wait.none
    assert b.stop == Stop(node=b.stop.node, attempts=2)  # type: ignore[union-attr]


def test_tenacity_decorator_assigned_to_a_name() -> None:
    r = one("from tenacity import retry, stop_after_attempt\nmy = retry(stop=stop_after_attempt(2))\n@my\ndef f(): pass\n")
    assert r.kind == "tenacity" and r.function is not None
    assert isinstance(r.stop, Stop) and r.stop.attempts == 2


def test_backoff_on_exception_and_on_predicate() -> None:
    a, b = model(
        "import backoff\n"
        "@backoff.on_exception(backoff.expo, (OSError, ValueError), max_tries=5, giveup=lambda e: e.status < 500)\n"
        "def f(): pass\n"
        "@backoff.on_predicate(backoff.fibo)\n"
        "def g(): pass\n"
    )
    assert a.kind == b.kind == "backoff"
    assert isinstance(a.condition, Condition) and a.condition.exceptions == ("OSError", "ValueError")
    assert a.condition.statuses is not None and 503 in a.condition.statuses and 404 not in a.condition.statuses
    assert isinstance(a.stop, Stop) and a.stop.attempts == 5
    assert isinstance(b.condition, Condition) and b.condition.default and not b.condition.every_exception
    assert b.stop == Stop(never=True)


def test_stamina_decorator_and_retry_context() -> None:
    a, b = model(
        "import stamina, httpx\n"
        "@stamina.retry(on=httpx.HTTPError, attempts=3)\n"
        "def f(): pass\n"
        "def g():\n"
        "    for attempt in stamina.retry_context(on=Exception, attempts=None, timeout=None):\n"
        "        with attempt:\n            f()\n"
    )
    assert a.kind == b.kind == "stamina"
    assert isinstance(a.condition, Condition) and a.condition.exceptions == ("httpx.HTTPError",)
    assert isinstance(a.stop, Stop) and a.stop.attempts == 3 and a.stop.seconds == 45.0
    assert isinstance(b.condition, Condition) and b.condition.every_exception
    assert isinstance(b.stop, Stop) and b.stop.never


def test_runtime_both_dialects_and_the_piped_work() -> None:
    a, b = model(
        "from smullyan import runtime as tool\n"
        "def fetch(): pass\n"
        "clock = tool.with_clock(lambda ms: None)\n"
        "s = tool.pipe(tool.calling_api(fetch, None), clock.retrying(tool.retrying_when(lambda e: isinstance(e, tool.Denied)), tool.up_to(4).attempts))\n"
        "t = tool.terse.retry(times=3, sleep=lambda ms: None)(fetch)\n"
    )
    assert a.kind == b.kind == "runtime"
    assert code(a.callee) == "tool.calling_api(fetch, None)" and code(b.callee) == "fetch"
    assert isinstance(a.condition, Condition) and a.condition.tags == {"Denied"}
    assert a.stop == Stop(attempts=4)
    assert isinstance(b.condition, Condition) and b.condition.default
    assert b.stop == Stop(attempts=3)


def test_configured_retry_decorator() -> None:
    src = "from myapp.retrying import with_retries\n@with_retries(3)\ndef f(): pass\n"
    assert model(src) == []
    r = one(src, retry_decorators=("myapp.retrying.with_retries",))
    assert r.kind == "configured" and r.condition is UNKNOWN and r.stop is UNKNOWN


def test_hand_loops_for_range_and_while() -> None:
    a, b = model(
        "import time, requests\n"
        "def f(url):\n"
        "    for attempt in range(4):\n"
        "        try:\n            return requests.get(url, timeout=5)\n"
        "        except requests.Timeout:\n            time.sleep(1)\n"
        "        except ValueError:\n            raise\n"
        "def g(url):\n"
        "    while True:\n"
        "        try:\n            r = requests.get(url, timeout=5)\n            break\n"
        "        except Exception:\n            continue\n"
    )
    assert a.kind == b.kind == "loop" and a.loop is not None and b.loop is not None
    assert isinstance(a.condition, Condition) and a.condition.exceptions == ("requests.Timeout",)  # the raising handler is not
    assert a.stop == Stop(node=a.stop.node, attempts=4)  # type: ignore[union-attr]
    assert a.loop.success_exit and b.loop.success_exit
    assert isinstance(b.condition, Condition) and b.condition.every_exception
    assert b.stop is UNKNOWN  # a while loop's bound is the budgets rules' business


@pytest.mark.parametrize(
    "loop",
    [
        "for item in items:\n        try:\n            item.send()\n        except Exception:\n            continue\n",
        "for i in range(0, len(items), 10):\n        try:\n            send(items[i : i + 10])\n        except Exception:\n            continue\n",
        "for i in range(n):\n        try:\n            send(items[i])\n        except Exception:\n            continue\n",
        "while True:\n        job = q.get()\n        if job is None:\n            return\n        try:\n            job.run()\n            break\n        except Exception:\n            continue\n",
        "while True:\n        try:\n            job.run()\n        except Exception:\n            continue\n",
        "for _ in range(3):\n        try:\n            return job.run()\n        except Exception:\n            raise\n",
        # a daemon's exit tests the loop's own flag
        "while q.running:\n        try:\n            job.run()\n            if not q.running:\n                break\n        except Exception:\n            continue\n",
    ],
)
def test_loops_that_are_not_retries(loop: str) -> None:
    assert model(f"def f(items, n, q, job):\n    {loop}") == []


def test_own_retry_decorator_factory() -> None:
    found = model(
        "import functools, time\n"
        "def retrying(times=3):\n"
        "    def deco(func):\n"
        "        @functools.wraps(func)\n"
        "        def wrapper(*a, **k):\n"
        "            for n in range(times):\n"
        "                try:\n                    return func(*a, **k)\n"
        "                except (ConnectionError, TimeoutError):\n                    time.sleep(n)\n"
        "        return wrapper\n"
        "    return deco\n"
        "@retrying(5)\n"
        "def work(): pass\n"
    )
    kinds = sorted(r.kind for r in found)
    assert kinds == ["loop", "own-decorator"]
    use = next(r for r in found if r.kind == "own-decorator")
    assert use.decorator == "retrying" and use.function is not None and use.function.name.value == "work"
    assert isinstance(use.condition, Condition) and use.condition.exceptions == ("ConnectionError", "TimeoutError")


def test_langchain_with_retry_and_tool_retry_middleware() -> None:
    a, b = model(
        "from langchain_core.runnables import RunnableLambda\n"
        "from langchain.agents.middleware import ToolRetryMiddleware\n"
        "def f(x): return x\n"
        "c = RunnableLambda(f).with_retry(stop_after_attempt=5)\n"
        "m = ToolRetryMiddleware(max_retries=2, retry_on=(TimeoutError,))\n"
    )
    assert a.kind == "with-retry" and code(a.callee) == "RunnableLambda(f)"
    assert a.condition == Condition(every_exception=True, default=True)
    assert isinstance(a.stop, Stop) and a.stop.attempts == 5
    assert b.kind == "tool-middleware"
    assert isinstance(b.condition, Condition) and b.condition.exceptions == ("TimeoutError",)
    assert isinstance(b.stop, Stop) and b.stop.attempts == 3


def test_pydantic_ai_tenacity_transport() -> None:
    r = one(
        "import httpx\n"
        "from pydantic_ai.retries import AsyncTenacityTransport, RetryConfig\n"
        "from tenacity import stop_after_attempt\n"
        "c = httpx.AsyncClient(transport=AsyncTenacityTransport(config=RetryConfig(stop=stop_after_attempt(3))))\n"
    )
    assert r.kind == "transport" and r.methods is None  # every request, POST included
    assert r.condition == Condition(every_exception=True, default=True)
    assert isinstance(r.stop, Stop) and r.stop.attempts == 3


def test_urllib3_retry_methods_and_statuses() -> None:
    a, b, c = model(
        "from urllib3.util.retry import Retry\n"
        "a = Retry(total=3, status_forcelist=[500, 503])\n"
        "b = Retry(total=3, allowed_methods=None)\n"
        "c = Retry(total=3, allowed_methods=frozenset(['GET', 'POST']), respect_retry_after_header=False)\n"
    )
    assert a.methods == kb.URLLIB3_DEFAULT_METHODS and b.methods is None and c.methods == {"GET", "POST"}
    assert isinstance(a.condition, Condition) and a.condition.statuses == {500, 503}
    assert a.stop == Stop(node=a.stop.node, attempts=4)  # type: ignore[union-attr]
    assert a.honours_retry_after and not c.honours_retry_after


def test_effects_reach_one_level_into_same_module_helpers() -> None:
    r = one(
        "import requests\n"
        "from tenacity import retry\n"
        "def create(x):\n    return requests.post('https://a.example/items', json=x, timeout=5)\n"
        "def read(x):\n    return requests.get('https://a.example/items', timeout=5)\n"
        "@retry\n"
        "def work(x):\n    read(x)\n    return create(x)\n"
    )
    assert [(e.cls, e.helper) for e in r.effects] == [("read-safe", "read"), ("non-idempotent-write", "create")]


def test_classify_config_is_read() -> None:
    src = "from tenacity import retry\nfrom myapp.api import search\n@retry\ndef f():\n    return search('q')\n"
    assert one(src).effects == []
    r = one(src, classify={"myapp.api.search": "irreversible"})
    assert [e.cls for e in r.effects] == ["irreversible"]


@pytest.mark.parametrize(
    ("test", "expected"),
    [
        ("r.status_code in (500, 502)", {500, 502}),
        ("r.status >= 500", {s for s in kb.SAMPLE_STATUSES if s >= 500}),
        ("400 <= e.response.status_code < 500", {s for s in kb.SAMPLE_STATUSES if 400 <= s < 500}),
        ("status // 100 == 5", {s for s in kb.SAMPLE_STATUSES if 500 <= s < 600}),
        ("isinstance(e, X) and e.code == 429", {429}),
        ("not (r.status_code < 500)", {s for s in kb.SAMPLE_STATUSES if s >= 500}),
        ("r.ok", None),
        ("r.status_code in CODES", None),
    ],
)
def test_status_tests(test: str, expected: set[int] | None) -> None:
    got = status_set(cst.parse_expression(test))
    assert (None if got is None else set(got)) == expected


def _tfh101(src: str, **config: Any) -> list[str]:
    cfg = dataclasses.replace(Config.default(), **config).with_overrides(select=["TFH101"])
    return [f.message for f in lint_source(src, "m.py", cfg)]


def test_tfh101_reads_classify_and_mcp_snake_case_hints() -> None:
    src = (
        "import httpx\nfrom tenacity import retry\n"
        "@retry\ndef submit(q):\n    return httpx.Client().post('https://api.example/v1/items', json=q)\n"
    )
    (message,) = _tfh101(src)
    assert "POST to 'https://api.example/v1/items' (line 5, a non-idempotent write)" in message
    assert "@smullyan.runtime.read_safe or `classify`" in message
    assert _tfh101(src, classify={"httpx.Client.post": "read-safe"}) == []
    mcp = (
        "import httpx\nfrom mcp.server.mcpserver import MCPServer\nfrom mcp.types import ToolAnnotations\nfrom tenacity import retry\n"
        "server = MCPServer('x')\n"
        "@server.tool(annotations=ToolAnnotations(read_only_hint=True))\n"
        "@retry\ndef submit(q):\n    return httpx.post('https://api.example/v1/items', json=q)\n"
    )
    assert _tfh101(mcp) == []
    assert len(_tfh101(mcp.replace("read_only_hint=True", "idempotent_hint=False"))) == 1


def test_a_handler_that_decides_from_the_exception_makes_the_condition_unknown() -> None:
    r = one(
        "def f(fn, pred):\n"
        "    for attempt in range(3):\n"
        "        try:\n            return fn()\n"
        "        except BaseException as e:\n"
        "            should = pred(e) if pred else False\n"
        "            if not should:\n                raise\n"
    )
    assert r.kind == "loop" and r.condition is UNKNOWN
    r = one(
        "def f(fn):\n"
        "    for attempt in range(3):\n"
        "        try:\n            return fn()\n"
        "        except Exception as e:\n"
        "            last = e\n            msg = str(e)\n"
        "            if attempt == 2:\n                raise\n"
    )
    assert isinstance(r.condition, Condition) and r.condition.every_exception


# ---------------------------------------------------------------- issue 23: held conditions, escaping factories


def test_a_condition_held_in_a_variable_is_read_and_either_branch_counts() -> None:
    r = one(
        "import httpx\nfrom tenacity import retry, retry_if_exception_type as on, stop_after_attempt\n"
        "narrow = on(httpx.TransportError)\n"
        "cond = narrow if httpx else on(KeyError)\n"
        "@retry(retry=cond, stop=stop_after_attempt(3))\ndef f():\n    pass\n"
    )
    assert isinstance(r.condition, Condition)
    assert r.condition.exceptions == ("httpx.TransportError", "KeyError")
    # a name the module does not assign stays unknown
    r = one("from tenacity import retry\ndef g(cond):\n    @retry(retry=cond)\n    def f():\n        pass\n")
    assert r.condition is UNKNOWN


def test_a_factory_nothing_in_the_module_applies_is_read_where_it_builds_the_retry() -> None:
    src = (
        "from tenacity import Retrying, retry_if_exception_type, stop_after_attempt\n"
        "class Base:\n"
        "    def _retrying(self):\n"
        "        policy = Retrying(retry=retry_if_exception_type(ValueError), stop=stop_after_attempt(4))\n"
        "        return policy\n"
    )
    r = one(src)
    assert r.kind == "tenacity" and code(r.anchor).startswith("Retrying(") and r.factory is r.anchor
    assert isinstance(r.condition, Condition) and r.condition.exceptions == ("ValueError",)
    assert isinstance(r.stop, Stop) and r.stop.attempts == 4 and not r.work_known
    # applied in the module: one retry, at the use (no second one at the factory)
    used = one(src + "    def run(self):\n        for attempt in self._retrying():\n            with attempt:\n                pass\n")
    assert code(used.anchor).startswith("for attempt")


def test_langchain_create_base_retry_decorator_is_a_tenacity_retry_on_its_error_types() -> None:
    r = one(
        "from langchain_core.language_models.llms import create_base_retry_decorator\n"
        "import openai\n"
        "errors = [openai.APITimeoutError, openai.APIError]\n"
        "retry_decorator = create_base_retry_decorator(error_types=errors, max_retries=6)\n"
        "@retry_decorator\ndef f():\n    pass\n"
    )
    assert r.kind == "tenacity"
    assert isinstance(r.condition, Condition) and r.condition.exceptions == ("openai.APITimeoutError", "openai.APIError")
    assert isinstance(r.stop, Stop) and r.stop.attempts == 6
    assert isinstance(r.wait, Wait) and not r.wait.none
    default = one("from langchain_core.language_models.llms import create_base_retry_decorator as mk\nmk([TimeoutError])(print)\n")
    assert isinstance(default.stop, Stop) and default.stop.attempts == 1
