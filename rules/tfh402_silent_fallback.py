"""TFH402 silent-fallback."""

from __future__ import annotations

import ast

import libcst as cst

from smullyan.linter import knowledge as kb
from smullyan.linter.knowledge import Knowledge
from smullyan.linter.rule import FileContext, Rule, Screen

_BROAD = ("Exception", "BaseException")
_EMPTY_CALLS = ("list", "dict", "set", "tuple", "str", "frozenset")
_BOOL_CALLS = ("bool", "isinstance", "issubclass", "hasattr", "callable", "all", "any")
_SCOPES_AST = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_SCOPES_CST = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_TOOL_ROOTS: frozenset[str] = frozenset(
    p.split(".")[0] for p in (*kb.TOOL_MODULE_PREFIXES, *kb.TOOL_CALLS) if "." in p
)
_TOOL_LAST_NAMES: frozenset[str] = frozenset(q.rsplit(".", 1)[-1] for q in kb.TOOL_CALLS) | kb.TOOL_METHODS


def _broad_ast(handler: ast.ExceptHandler) -> bool:
    t = handler.type
    if t is None:
        return True
    items = t.elts if isinstance(t, ast.Tuple) else [t]
    return any(isinstance(i, ast.Name) and i.id in _BROAD for i in items)


def _default_ast(value: ast.expr | None) -> bool:
    if value is None:
        return True
    if isinstance(value, ast.Constant):
        return value.value in (None, False, "", b"", 0)
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        return not value.elts
    if isinstance(value, ast.Dict):
        return not value.keys
    return isinstance(value, ast.Call) and not value.args and isinstance(value.func, ast.Name)


def _receiver_words(name: str) -> set[str]:
    return set(name.lstrip("_").lower().split("_"))


def _tool_like_ast(body: list[ast.stmt], roots: frozenset[str], names: frozenset[str]) -> bool:
    """A cheap superset of :meth:`SilentFallback._tool_like` on the ``ast``."""
    stack: list[ast.AST] = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Await, ast.AsyncWith, ast.AsyncFor)):
            return True
        if isinstance(n, _SCOPES_AST):
            continue
        if isinstance(n, ast.Call):
            f = n.func
            if roots:
                return True  # a tool module is imported: let the rule resolve the call
            if isinstance(f, ast.Name) and f.id in names:
                return True
            if isinstance(f, ast.Attribute):
                if f.attr in names:
                    return True
                recv = f.value
                last = recv.attr if isinstance(recv, ast.Attribute) else recv.id if isinstance(recv, ast.Name) else ""
                if _receiver_words(last) & kb.TOOL_RECEIVER_WORDS:
                    return True
        stack.extend(ast.iter_child_nodes(n))
    return False


class SilentFallback(Rule):
    code = "TFH402"
    name = "silent-fallback"
    summary = "A broad except around a tool call returns an empty or default value and records nothing."
    message = (
        "`{handler}` around a tool call returns {value} and records nothing: an outage looks like "
        "\"nothing there\"; log it, re-raise, or return a typed ToolError (Err(from_exception(e)))"
    )
    docs = """\
## What it does
Finds a broad handler (`except:`, `except Exception`, `except BaseException`,
or a tuple naming one of them) around a *tool call* that returns an empty or
default value (`None`, `[]`, `{}`, `()`, `""`, `0`, `False`, `list()`, a bare
`return`) with no re-raise and no record of the error: no logging call
(`log.warning(...)`, `logger.exception(...)`, `print(...)`,
`warnings.warn(...)`, `sentry_sdk.capture_exception(...)`) and no use of the
exception object.

A tool call is what the `try` body does that can fail because something
outside the process failed: a network or process call the timeout tables
know (requests, httpx, aiohttp, urllib, `http.client`, sockets, smtplib,
subprocess, redis, websockets, and configured `timeout-required`/`classify`
names), an SDK call that sends (boto3, stripe, slack, `sendmail`), file I/O
(`open(...)`, `Path.read_text`, `os.listdir`, shutil), a method of an object
named like a client (`client.delete(...)`, `self._redis.get(...)`,
`conn.execute(...)`), or any `await`.

Not reported, because "could not tell" or "could not clean up" is the
intended answer there:
- a `try` body without a tool call (parsing, introspection, formatting,
  optional imports: `from x import y` / `except Exception: return None`);
- `return False` in a predicate: a function named `is_*`, `has_*`, `can_*`,
  `should_*`, `check_*`, `exists*`, `ping*`, or annotated `-> bool`, or whose
  other returns are all bool-valued, unless its name starts with an action
  verb (`delete() -> bool` returning `False` on an outage means "nothing
  deleted" and is reported);
- a bare `return` in a procedure (annotated `-> None`, or with no
  `return <value>` anywhere): nothing is handed back that could pass for an
  empty result;
- best-effort cleanup: functions named `close`, `aclose`, `cleanup`,
  `shutdown`, `teardown` (or with one of these as a `_`-separated word),
  `__exit__`, `__aexit__`, `__del__`, or with `best_effort` in the name.

## Why is this bad?
When a tool call fails, an empty result says "there is nothing": the agent
cannot tell "the search found nothing" from "the search service is down",
so it tells the user there is nothing, or plans on a falsehood. Nobody sees
the outage, so nobody fixes it.

## Example
```python
def search(q):
    try:
        return requests.get(URL, params={"q": q}, timeout=10).json()["hits"]
    except Exception:
        return []
```

## Use instead
```python
from smullyan.runtime import Err, Ok, from_exception

def search(q):
    try:
        return Ok(requests.get(URL, params={"q": q}, timeout=10).json()["hits"])
    except Exception as e:
        return Err(from_exception(e))
```

## How to suppress
`# noqa: TFH402` on the `except` line (for a deliberate best-effort probe),
or `ignore`/`per-file-ignores` in the configuration.
"""
    VALID = [
        """\
import logging
import requests
log = logging.getLogger(__name__)
def f():
    try:
        return requests.get(URL, timeout=5).json()
    except Exception:
        log.exception("g failed")
        return None
""",
        """\
def f():
    try:
        return int(open(p).read())
    except ValueError:
        return 0
""",
        """\
def f():
    try:
        return client.get(k)
    except Exception as e:
        errors.append(e)
        return []
""",
        """\
import sys
async def f():
    try:
        return await g()
    except Exception:
        return fallback_value()
    try:
        return await h()
    except Exception:
        onerror(h, sys.exc_info())
        return None
    try:
        return await k()
    except BaseException:
        self.report_failure()
        return []
""",
        # no tool call in the try body: parsing, introspection, formatting
        """\
from urllib.parse import urlparse
def parse(value):
    try:
        return urlparse(value).netloc
    except Exception:
        return None
def hints(typ):
    try:
        return get_type_hints(typ)
    except Exception:
        return {}
""",
        # optional import probe
        """\
def has_v1():
    try:
        from pydantic.v1 import BaseModel
    except Exception:
        return False
    return True
""",
        # predicates: the name, the annotation, or bool-valued returns
        """\
import os
async def ping(self):
    try:
        await self._redis.ping()
        return True
    except Exception:
        return False
def _is_dir(p) -> bool:
    try:
        return os.stat(p).st_mode & 0o040000 != 0
    except Exception:
        return False
def reachable(url):
    try:
        r = requests.head(url, timeout=2)
        return r.status_code < 400
    except Exception:
        return False
""",
        # a procedure: a bare return hands nothing back
        """\
import asyncio
async def _refresh_exit_code(self, entry) -> None:
    try:
        result = await asyncio.to_thread(self.api.inspect, entry.id)
    except Exception:
        return
    entry.exit_code = result.get("ExitCode")
""",
        # best-effort cleanup
        """\
import inspect
async def _close_dependency(close):
    try:
        result = close()
        if inspect.isawaitable(result):
            await result
    except Exception:
        return
class Conn:
    def __exit__(self, *exc):
        try:
            self.sock.close()
        except Exception:
            return None
    def shutdown_best_effort(self):
        try:
            self.client.shutdown()
        except BaseException:
            return
""",
    ]
    INVALID = [
        """\
from typing import List
def head_file(path: str, n: int) -> List[str]:
    try:
        with open(path, "r") as f:
            return [str(line) for line in f][:n]
    except Exception:  # error: TFH402
        return []
""",
        """\
import requests
def post(payload):
    try:
        return requests.post(URL, json=payload, timeout=10).json()
    except:  # error: TFH402
        return
    try:
        return requests.post(URL, json=payload, timeout=10).json()
    except (ValueError, BaseException) as e:  # error: TFH402
        return {}
""",
        # a status flag of an action is not a predicate
        """\
def delete(self, ids=None) -> bool:
    client = self.client
    try:
        if ids:
            client.delete(*ids)
        return True
    except:  # error: TFH402
        return False
""",
        """\
async def fetch(session, url):
    try:
        async with session.get(url) as r:
            return await r.json()
    except Exception:  # error: TFH402
        pass
        return {}
""",
        """\
from pathlib import Path
def load(paths):
    for p in paths:
        try:
            return Path(p).read_text()
        except Exception:  # error: TFH402
            return ""
""",
        """\
import subprocess
def version():
    try:
        return subprocess.run(["git", "--version"], capture_output=True, timeout=5).stdout
    except Exception:  # error: TFH402
        return None
""",
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self.tries: list[cst.Try | cst.TryStar] = []
        self.funcs: list[cst.FunctionDef] = []

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        """``try`` statements with a broad handler returning a default and a tool-like call (or await) in the body."""
        cands = {
            id(h)
            for h in screen.handlers
            if _broad_ast(h) and any(isinstance(s, ast.Return) and _default_ast(s.value) for s in h.body)
        }
        if not cands:
            return []
        configured = (*knowledge.timeouts, *knowledge.classify)
        roots = (_TOOL_ROOTS | knowledge.module_roots() | {q.split(".")[0] for q in configured}) & screen.import_roots
        names = _TOOL_LAST_NAMES | {q.rsplit(".", 1)[-1] for q in configured} | {"open"}
        return [
            node.lineno
            for node in screen.tries
            if any(id(h) in cands for h in node.handlers)  # type: ignore[attr-defined]
            and _tool_like_ast(node.body, frozenset(roots), names)  # type: ignore[attr-defined]
        ]

    # ------------------------------------------------------------ scopes

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.funcs.append(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.funcs.pop()

    def visit_Try(self, node: cst.Try) -> None:
        self.tries.append(node)

    def leave_Try(self, node: cst.Try) -> None:
        self.tries.pop()

    def visit_TryStar(self, node: cst.TryStar) -> None:
        self.tries.append(node)

    def leave_TryStar(self, node: cst.TryStar) -> None:
        self.tries.pop()

    # ------------------------------------------------------------ facts

    def _is_broad(self, node: cst.ExceptHandler) -> bool:
        t = node.type
        if t is None:
            return True
        items = [el.value for el in t.elements] if isinstance(t, cst.Tuple) else [t]
        for item in items:
            if isinstance(item, cst.Name) and item.value in _BROAD and self.names.lookup(item.value) is None:
                return True
        return False

    @staticmethod
    def _default(value: cst.BaseExpression | None) -> str | None:
        if value is None:
            return "None"
        if isinstance(value, cst.Name) and value.value in ("None", "False"):
            return value.value
        if isinstance(value, (cst.List, cst.Dict, cst.Tuple, cst.Set)) and not value.elements:
            return {cst.List: "[]", cst.Dict: "{}", cst.Tuple: "()", cst.Set: "set()"}[type(value)]
        if isinstance(value, cst.SimpleString) and value.evaluated_value in ("", b""):
            return value.value
        if isinstance(value, (cst.Integer, cst.Float)) and value.evaluated_value == 0:
            return value.value
        if (
            isinstance(value, cst.Call)
            and not value.args
            and isinstance(value.func, cst.Name)
            and value.func.value in _EMPTY_CALLS
        ):
            return f"{value.func.value}()"
        return None

    def _records(self, node: cst.ExceptHandler) -> bool:
        """A raise, a logging-like call, or any use of the exception name."""
        exc = node.name.name.value if node.name and isinstance(node.name.name, cst.Name) else None
        stack: list[cst.CSTNode] = [node.body]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Raise):
                return True
            if isinstance(n, cst.Name) and exc is not None and n.value == exc:
                return True
            if isinstance(n, cst.Call):
                f = n.func
                last = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else ""
                if last in kb.RECORDING_METHODS or last in kb.RECORDING_FUNCTIONS:
                    return True
                if any(part in last.lower() for part in kb.RECORDING_NAME_PARTS):
                    return True
                qn = self.names.qualname(f)
                if qn is not None and (
                    qn in kb.RECORDING_FUNCTIONS or qn.startswith(("logging.", "traceback."))
                ):
                    return True
            if isinstance(n, _SCOPES_CST):
                continue
            stack.extend(n.children)
        return False

    def _tool_call(self, call: cst.Call) -> bool:
        func = call.func
        qn = self.names.qualname(func)
        if qn is not None:
            qn = kb.canonical(qn)
            k = self.knowledge
            if (
                qn in k.timeouts
                or qn in kb.NEEDS_TIMEOUT_SCOPE
                or qn in k.classify
                or qn in kb.TOOL_CALLS
                or qn.startswith(kb.TOOL_MODULE_PREFIXES)
            ):
                return True
        if isinstance(func, cst.Name):
            return func.value == "open" and self.names.lookup("open") is None
        if isinstance(func, cst.Attribute):
            if func.attr.value in kb.TOOL_METHODS:
                return True
            recv = func.value
            last = (
                recv.attr.value if isinstance(recv, cst.Attribute) else recv.value if isinstance(recv, cst.Name) else ""
            )
            return bool(_receiver_words(last) & kb.TOOL_RECEIVER_WORDS)
        return False

    def _tool_like(self, body: cst.BaseSuite) -> bool:
        """Whether the ``try`` body awaits or makes a tool call (nested scopes excluded)."""
        stack: list[cst.CSTNode] = [body]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Await):
                return True
            if isinstance(n, (cst.With, cst.For)) and n.asynchronous is not None:
                return True
            if isinstance(n, cst.Call) and self._tool_call(n):
                return True
            if isinstance(n, _SCOPES_CST):
                continue
            stack.extend(n.children)
        return False

    def _exempt_function(self, returned: str) -> bool:
        """Best-effort cleanup, or ``return False`` in a predicate."""
        if not self.funcs:
            return False
        func = self.funcs[-1]
        raw = func.name.value
        name = raw.lstrip("_").lower()
        words = set(name.split("_"))
        if raw in kb.CLEANUP_FUNCTION_WORDS or words & kb.CLEANUP_FUNCTION_WORDS:
            return True
        if any(part in name for part in kb.CLEANUP_FUNCTION_NAME_PARTS):
            return True
        if returned == "None(bare)":
            # a procedure: nothing is handed back that could pass for an empty result
            ann = func.returns.annotation if func.returns is not None else None
            if isinstance(ann, cst.Name) and ann.value == "None":
                return True
            return all(r.value is None for r in self._returns(func))
        if returned != "False":
            return False
        if name.startswith(kb.PREDICATE_PREFIXES):
            return True
        if name.split("_")[0] in kb.ACTION_VERBS:
            return False
        ann = func.returns.annotation if func.returns is not None else None
        if isinstance(ann, cst.Name) and ann.value == "bool":
            return True
        returns = self._returns(func)
        others = [r for r in returns if not (isinstance(r.value, cst.Name) and r.value.value == "False")]
        return bool(others) and all(r.value is not None and self._bool_valued(r.value) for r in others)

    @staticmethod
    def _returns(func: cst.FunctionDef) -> list[cst.Return]:
        out: list[cst.Return] = []
        stack: list[cst.CSTNode] = [func.body]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Return):
                out.append(n)
            if isinstance(n, _SCOPES_CST):
                continue
            stack.extend(n.children)
        return out

    @staticmethod
    def _bool_valued(v: cst.BaseExpression) -> bool:
        if isinstance(v, cst.Name):
            return v.value in ("True", "False")
        if isinstance(v, cst.Comparison):
            return True
        if isinstance(v, cst.UnaryOperation):
            return isinstance(v.operator, cst.Not)
        if isinstance(v, cst.BooleanOperation):
            return SilentFallback._bool_valued(v.left) and SilentFallback._bool_valued(v.right)
        if isinstance(v, cst.Call):
            return isinstance(v.func, cst.Name) and v.func.value in _BOOL_CALLS
        return False

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if not self._is_broad(node) or not self.tries:
            return
        body = node.body
        if not isinstance(body, cst.IndentedBlock):
            stmts: list[cst.BaseSmallStatement] = [b for b in body.body if isinstance(b, cst.BaseSmallStatement)]
        else:
            stmts = []
            for stmt in body.body:
                if isinstance(stmt, cst.SimpleStatementLine):
                    stmts.extend(stmt.body)
        returned = None
        bare = False
        for small in stmts:
            if isinstance(small, cst.Return):
                returned = self._default(small.value)
                bare = small.value is None
                break
        if returned is None or self._records(node):
            return
        if not self._tool_like(self.tries[-1].body) or self._exempt_function("None(bare)" if bare else returned):
            return
        handler = "except:" if node.type is None else "except " + cst.Module([]).code_for_node(node.type)
        self.report(node, handler=handler, value=returned)
