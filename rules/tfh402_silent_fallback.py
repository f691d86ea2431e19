"""TFH402 silent-fallback."""

from __future__ import annotations

import ast

import libcst as cst

from smullyan.linter import knowledge as kb
from smullyan.linter.knowledge import Knowledge
from smullyan.linter.rule import Rule, Screen

_BROAD = ("Exception", "BaseException")
_EMPTY_CALLS = ("list", "dict", "set", "tuple", "str", "frozenset")


def _broad_ast(handler: ast.ExceptHandler) -> bool:
    t = handler.type
    if t is None:
        return True
    items = t.elts if isinstance(t, ast.Tuple) else [t]
    return any(isinstance(i, ast.Name) and i.id in _BROAD for i in items)


class SilentFallback(Rule):
    code = "TFH402"
    name = "silent-fallback"
    summary = "A broad except returns an empty or default value and records nothing."
    message = (
        "`{handler}` returns {value} and records nothing; log it, re-raise, or return a typed "
        "ToolError (Err(from_exception(e))) so a failure is not mistaken for an empty result"
    )
    docs = """\
## What it does
Finds a broad handler (`except:`, `except Exception`, `except BaseException`,
or a tuple naming one of them) that returns an empty or default value
(`None`, `[]`, `{}`, `()`, `""`, `0`, `False`, `list()`, a bare `return`)
with no re-raise and no record of the error: no logging call
(`log.warning(...)`, `logger.exception(...)`, `print(...)`,
`warnings.warn(...)`, `sentry_sdk.capture_exception(...)`) and no use of the
exception object.

## Why is this bad?
An agent cannot tell "the search found nothing" from "the search service is
down": it tells the user there is nothing, or plans on a falsehood. Nobody
sees the failure, so nobody fixes it.

## Example
```python
def search(q):
    try:
        return api.search(q)
    except Exception:
        return []
```

## Use instead
```python
from smullyan.runtime import Err, Ok, from_exception

def search(q):
    try:
        return Ok(api.search(q))
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
log = logging.getLogger(__name__)
def f():
    try:
        return g()
    except Exception:
        log.exception("g failed")
        return None
""",
        """\
def f():
    try:
        return int(x)
    except ValueError:
        return 0
""",
        """\
def f():
    try:
        return g()
    except Exception as e:
        errors.append(e)
        return []
""",
        """\
def f():
    try:
        return g()
    except Exception:
        cleanup()
        raise
""",
        """\
import sys
def f():
    try:
        return g()
    except Exception:
        return fallback_value()
    try:
        return h()
    except Exception:
        onerror(h, sys.exc_info())
        return None
    try:
        return k()
    except BaseException:
        self.report_failure()
        return []
""",
    ]
    INVALID = [
        """\
def f():
    try:
        return g()
    except Exception:  # error: TFH402
        return []
""",
        """\
def f():
    try:
        return g()
    except:  # error: TFH402
        return
""",
        """\
def f():
    try:
        return g()
    except (ValueError, BaseException) as e:  # error: TFH402
        return None
""",
        """\
def f():
    try:
        return g()
    except Exception:  # error: TFH402
        pass
        return {}
""",
        """\
def f():
    for x in xs:
        try:
            return g(x)
        except Exception:  # error: TFH402
            return False
""",
    ]

    @classmethod
    def is_candidate(cls, screen: Screen, knowledge: Knowledge) -> bool:
        return any(
            _broad_ast(h) and any(isinstance(s, ast.Return) for s in h.body) for h in screen.handlers
        )

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
            if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                continue
            stack.extend(n.children)
        return False

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if not self._is_broad(node):
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
        for small in stmts:
            if isinstance(small, cst.Return):
                returned = self._default(small.value)
                break
        if returned is None or self._records(node):
            return
        handler = "except:" if node.type is None else "except " + cst.Module([]).code_for_node(node.type)
        self.report(node, handler=handler, value=returned)
