"""TFH401 stringified-exception."""

from __future__ import annotations

import ast
import re

import libcst as cst

from ...linter.api import FileContext, Knowledge, Rule, Screen, handler_types, last_name, walk_in_scope

_CODEGEN = cst.Module(body=[])


def _format_names(knowledge: Knowledge) -> frozenset[str]:
    """Last names of the traceback formatters (``format_exc``), for the screen."""
    return knowledge.memo(
        "tfh401.format_names", lambda: frozenset(q.rsplit(".", 1)[1] for q in knowledge.traceback_formatters)
    )


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _has_words(name: str, parts: tuple[str, ...]) -> bool:
    """Whether one of ``parts`` is a run of whole ``_``-separated words of ``name`` (camelCase split too)."""
    words = "_" + "_".join(w for w in re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower().split("_") if w) + "_"
    return any(f"_{p}_" in words for p in parts)


def _fills(node: ast.AST, name: str, knowledge: Knowledge) -> bool:
    """``results.append(f"{e}")``: a container filled with something that mentions the exception."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in knowledge.container_filling_methods
        and any(_mentions(a, name) for a in (*node.args, *(k.value for k in node.keywords)))
    )


def _helpers_called(handler: ast.ExceptHandler, name: str) -> set[str]:
    """Names of functions or ``self``/``cls`` methods called with something that mentions the exception."""
    out: set[str] = set()
    for stmt in handler.body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Call) and any(_mentions(a, name) for a in (*n.args, *(k.value for k in n.keywords))):
                f = n.func
                if isinstance(f, ast.Name):
                    out.add(f.id)
                elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls"):
                    out.add(f.attr)
    return out


def _definitions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Module-level functions and class methods (classes nested in classes too)."""
    out: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    stack = list(getattr(tree, "body", []))
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append(n)
        elif isinstance(n, ast.ClassDef):
            stack.extend(n.body)
    return out


class StringifiedException(Rule):
    code = "TFH401"
    name = "stringified-exception"
    summary = "An exception is turned into text and handed back to the caller."
    message = (
        "{verb} the exception as text ({text}); return a typed ToolError instead, "
        "e.g. {fix}, so the agent can tell a retryable failure from a permanent one"
    )
    docs = """\
## What it does
Inside an `except ... as e` handler, finds the exception turned into text and
handed back by `return` or `yield`: `str(e)`, `repr(e)`, `f"...{e}"`,
`"%s" % e`, `"{}".format(e)`, `e.args[0]`, `traceback.format_exc()`, also
inside a dict/list/tuple or as an argument to a result object
(`ToolResult(content=f"Error: {e}")`), and through a variable
(`msg = str(e)` ... `return {"error": msg}`).

Only returns and yields inside the handler count. The text is followed
through variables, containers, string methods (`str(e).strip()`), text
builders (`json.dumps`, `"sep".join`) and result objects' constructors (a
capitalised callee, `dict(...)`); it stops at any other call's result
(`f(str(e))` is what `f` made of it, not the exception text).

Not reported: logging the exception, returning only its type name
(`type(e).__name__`), raising, or building one of the runtime's ToolErrors from
it (`Err(unknown(str(e)))`, `Unknown(message=str(e))`, `ToolFailure(...)`).
Also not reported:
- an attribute of the exception other than `args` (`exc.message`,
  `exc.status_code`, `exc.errors()`): data it carries, not the exception
  turned into text (`e.args[0]` is reported);
- a constructor that also receives the exception object itself
  (`ToolOutput(content=str(e), exception=e)`, or `e` positionally): the
  typed failure survives;
- functions whose job is producing text for telemetry or serialisation:
  the name contains `serializ`/`serialis`/`repr`/`to_json`/`to_str` or
  starts with `format_` (leading underscores ignored);
- a handler that catches only parser errors (`ValueError`,
  `JSONDecodeError`, `ValidationError`, `OutputParserException`) and puts
  the text in a re-prompt for the model (an argument named like
  `messages`/`retry_messages`, or a `...Message(...)` object): that is the
  format-repair loop, not a tool failure.

## Why is this bad?
A string is the one shape an agent cannot act on: it cannot tell a rate limit
(wait and retry) from a bad argument (fix the call) from a missing object (stop).
The model guesses from prose, retries permanent failures and gives up on
transient ones; the text may also leak internals (paths, hosts, tokens).

## Example
```python
def get_issue(n):
    try:
        return Ok(api.issue(n))
    except Exception as e:
        return {"error": str(e)}
```

## Use instead
```python
from smullyan.runtime import Err, Ok, from_exception

def get_issue(n):
    try:
        return Ok(api.issue(n))
    except Exception as e:
        return Err(from_exception(e))
```

## How to suppress
`# noqa: TFH401` on the `return`/`yield` line, or `ignore`/`per-file-ignores`
in the configuration (e.g. for a CLI that prints errors to a human).
"""
    VALID = [
        """\
import logging
log = logging.getLogger(__name__)
def f():
    try:
        return g()
    except Exception as e:
        log.warning("failed: %s", e)
        return None
""",
        """\
def f():
    try:
        return g()
    except Exception as e:
        return {"error": type(e).__name__, "kind": e.__class__.__name__}
""",
        """\
from smullyan.runtime import Err, Unknown, unknown, ToolFailure
from smullyan import runtime as rt
def f():
    try:
        return g()
    except OSError as e:
        return Err(unknown(str(e)))
    except ValueError as e:
        return Err(Unknown(message=f"bad: {e}"))
    except KeyError as e:
        return Err(rt.not_found(str(e)))
""",
        """\
def f():
    try:
        return g()
    except Exception as e:
        raise RuntimeError(str(e)) from e
""",
        """\
def f():
    try:
        return g()
    except Exception as e:
        def later():
            return 1
        return e.status_code
""",
        # an attribute other than args is data the exception carries, not its text
        """\
def run(tool):
    try:
        return tool()
    except ModelRetry as exc:
        return _ModelRetry(message=exc.message)
    except HTTPError as exc:
        return {"status": exc.status_code, "detail": f"{exc.response.reason}"}
    except ValidationError as exc:
        return exc.errors()
""",
        # taint stops at a call's result, and a return in the try body is not the handler's
        """\
def query(self, sparql):
    while retries <= max_retries:
        try:
            return self._prepare(sparql)
        except Exception as e:
            retries += 1
            parse_exception = str(e)
            result = self.fix_chain.invoke({"error_message": parse_exception})
            sparql = result[self.fix_chain.output_key]
    return fallback(f"{sparql}")
""",
        # the constructor also gets the exception object: the typed failure survives
        """\
def call(tool, args):
    try:
        return tool(**args)
    except Exception as e:
        return ToolOutput(content=str(e), raw_output=str(e), is_error=True, exception=e)
""",
        # a helper whose job is producing text for telemetry
        """\
def _serialize_value(value):
    try:
        return json.dumps(value)
    except Exception:
        try:
            return str(value)
        except Exception as e:
            return f"Unable to serialize: {e}"
""",
        # `str` is this module's own function here, not the builtin
        """\
def str(value):
    return value
def f():
    try:
        return g()
    except Exception as e:
        return str(e)
""",
        # a parser error fed back to the model as a re-prompt
        """\
def parse(self, last_message):
    try:
        return self.parser.parse(last_message.content)
    except ValueError as e:
        error_msg = f"Error while parsing the output: {e!s}"
        return AgentOutput(retry_messages=[last_message, ChatMessage(role="user", content=error_msg)])
""",
        # a same-module helper that builds a typed error, or only logs
        """\
import logging
from smullyan.runtime import Err, unknown
log = logging.getLogger(__name__)
def fail(msg):
    return Err(unknown(msg))
def note(msg):
    log.warning(msg)
    return None
def f(client):
    try:
        return client.get()
    except Exception as e:
        return fail(str(e))
def g(client):
    try:
        return client.get()
    except Exception as e:
        return note(f"get failed: {e}")
""",
        # a tool that runs the model's code: the code's error is the product
        """\
def run_python(code, ns):
    try:
        exec(code, ns)
        return ns.get("result")
    except Exception as e:
        return f"Error: {e}"
class Tool:
    def run(self, code):
        try:
            return self.repl.run_cell(code)
        except Exception as e:
            return {"error": str(e)}
""",
        # a container filled with the type name only
        """\
def f(items, fetch):
    errors = []
    for it in items:
        try:
            fetch(it)
        except Exception as e:
            errors.append(type(e).__name__)
    return errors
""",
    ]
    INVALID = [
        """\
def f():
    try:
        return g()
    except Exception as e:
        return str(e)  # error: TFH401
""",
        """\
def f():
    try:
        return g()
    except ValueError as e:
        return f"Error: {e}"  # error: TFH401
    except KeyError as err:
        return {"ok": False, "error": repr(err)}  # error: TFH401 "e.g. Err(from_exception(err))"
    except OSError as exc:
        return None, "failed: %s" % exc  # error: TFH401
    except TypeError as exc:
        return "failed: {}".format(exc)  # error: TFH401
    except LookupError as exc:
        return exc.args[0]  # error: TFH401
""",
        """\
import traceback
def f():
    try:
        return g()
    except Exception:
        return traceback.format_exc()  # error: TFH401 "e.g. `except ... as e:` and Err(from_exception(e))"
""",
        """\
def tool(x):
    try:
        return ToolResult(content=do(x))
    except Exception as e:
        return ToolResult(content=f"Error: {e}", is_error=True)  # error: TFH401
""",
        """\
def stream():
    try:
        yield from work()
    except Exception as e:
        yield {"type": "error", "message": str(e)}  # error: TFH401
""",
        """\
def f():
    try:
        result = g()
    except Exception as e:
        message = f"request failed: {e}"
        return {"error": message}  # error: TFH401
    return result
""",
        """\
from smullyan.runtime import Err
def f():
    try:
        return g()
    except Exception as e:
        return Err(str(e))  # error: TFH401
""",
        """\
import json
def tool(x):
    try:
        return do(x)
    except Exception as e:
        return json.dumps({"error": str(e)})  # error: TFH401
    except ValueError as e:
        return ActionResult(error=str(e).strip())  # error: TFH401
""",
        # text kept in a variable and returned after the handler
        """\
async def scrape(page, url):
    try:
        results = await page.content()
    except Exception as e:
        results = f"Error: {e}"
    return results  # error: TFH401
""",
        """\
def use(tool):
    try:
        return tool.run()
    except Exception as e:
        error = getattr(e, "message", str(e))
        return error  # error: TFH401
""",
        # a broad handler is not a parser's format-repair loop
        """\
def step(self, m):
    try:
        return self.tool(m)
    except Exception as e:
        return AgentOutput(retry_messages=[ChatMessage(role="user", content=str(e))])  # error: TFH401
""",
        # text through a same-module helper (a method, and a function)
        """\
import json
class Tool:
    def _error_json(self, message):
        return json.dumps({"status": "error", "message": message})
    def run(self, q):
        try:
            return self.client.search(q)
        except Exception as e:
            return self._error_json(str(e))  # error: TFH401
def make_error(err):
    return {"error": str(err)}
def g(h):
    try:
        return h()
    except Exception as e:
        return make_error(e)  # error: TFH401
""",
        # a container filled with the text, then returned
        """\
def f(items, fetch):
    results = []
    for it in items:
        try:
            results.append(fetch(it))
        except Exception as e:
            results.append(f"error: {e}")
    return results  # error: TFH401
def g(fetch):
    out = {"ok": False}
    try:
        out["data"] = fetch()
    except Exception as e:
        out["error"] = str(e)
    return out  # error: TFH401
async def h(fetch):
    payload = {}
    try:
        await fetch()
    except Exception as e:
        payload.update(error=repr(e))
        return payload  # error: TFH401
""",
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        # names holding exception text, per enclosing function (id of the def/lambda; 0: module level)
        self.taints: dict[int, set[str]] = {}
        self.parser_only: dict[int, bool] = {}  # id of a handler -> catches only parser errors
        self.code_runs: dict[int, bool] = {}  # id of a try -> runs code the model wrote
        # same-module helpers: module-level functions and class methods, by name
        self.helpers: dict[str, list[cst.FunctionDef]] = {}
        self.carries: dict[tuple[int, str, bool], bool] = {}  # (id of helper, parameter, is the exception) -> carries it
        self.following = False  # inside a helper's returns: one level only

    def visit_Module(self, node: cst.Module) -> None:
        stack: list[cst.CSTNode] = list(node.body)
        while stack:
            n = stack.pop()
            if isinstance(n, cst.FunctionDef):
                self.helpers.setdefault(n.name.value, []).append(n)
            elif isinstance(n, cst.ClassDef) and isinstance(n.body, cst.IndentedBlock):
                stack.extend(n.body.body)

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        """Handlers whose body returns, yields or assigns the exception (or formats anything)."""
        formats = bool(_format_names(knowledge) & screen.call_names)
        out: list[int] = []
        helpers: set[str] = set()
        for h in screen.handlers:
            if h.name is None and not formats:
                continue
            if any(
                isinstance(n, (ast.Return, ast.Yield, ast.Assign, ast.AugAssign, ast.AnnAssign))
                and n.value is not None
                and (formats or (h.name is not None and _mentions(n.value, h.name)))
                and not isinstance(n.value, ast.Name)  # `x = e` / `return e`: the object, not its text
                for stmt in h.body
                for n in ast.walk(stmt)
            ) or (h.name is not None and any(_fills(n, h.name, knowledge) for stmt in h.body for n in ast.walk(stmt))):
                out.append(h.lineno)
                if h.name is not None:
                    helpers.update(_helpers_called(h, h.name))
        if helpers:
            # same-module helpers the text goes through are read too: keep their definitions
            out += [d.lineno for d in _definitions(screen.tree) if d.name in helpers]
        return out

    # ------------------------------------------------------------ scopes

    @property
    def tainted(self) -> set[str]:
        """Names that hold exception text in the function being visited."""
        func = self.names.function
        return self.taints.setdefault(id(func) if func is not None else 0, set())

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.taints.pop(id(node), None)

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self.taints.pop(id(node), None)

    def _parser_only(self, node: cst.ExceptHandler | cst.ExceptStarHandler) -> bool:
        """Whether the handler catches only parser errors (ValueError, JSONDecodeError, ValidationError)."""
        types = handler_types(node)
        return bool(types) and all(last_name(t) in self.knowledge.parser_errors for t in types)

    def _in_parser_handler(self) -> bool:
        handler = self.names.handler
        if handler is None:
            return False
        key = id(handler.node)
        if key not in self.parser_only:
            self.parser_only[key] = self._parser_only(handler.node)
        return self.parser_only[key]

    # ------------------------------------------------------------ checks

    @property
    def _exc_names(self) -> set[str]:
        return {h.name for h in self.names.handlers if h.name is not None}

    def _active(self) -> bool:
        """Inside a handler (or text from one is in a variable), not in a function producing text."""
        if self.names.handler is None and not self.tainted:
            return False
        func = self.names.function
        k = self.knowledge
        if isinstance(func, cst.FunctionDef):
            name = func.name.value.lstrip("_").lower()
            if any(p in name for p in k.text_producer_name_parts) or name.startswith(k.text_producer_name_prefixes):
                return False
            if _has_words(name, k.code_running_name_parts):
                return False
        handler = self.names.handler
        if handler is not None and self._runs_code(handler.statement):
            return False
        return True

    def _runs_code(self, statement: cst.Try | cst.TryStar) -> bool:
        """The ``try`` runs code the model wrote (``exec``/``eval``, a REPL or sandbox): its error is the product."""
        key = id(statement)
        if key not in self.code_runs:
            k = self.knowledge
            found = False
            for n in walk_in_scope(statement.body):
                if isinstance(n, cst.Call):
                    name = last_name(n.func) or ""
                    if isinstance(n.func, cst.Name) and name in k.code_running_builtins and self.names.is_builtin(name):
                        found = True
                    elif _has_words(name, k.code_running_name_parts):
                        found = True
                    if found:
                        break
            self.code_runs[key] = found
        return self.code_runs[key]

    def _helper_carries(self, call: cst.Call, exc: set[str]) -> bool:
        """``make_error(f"failed: {e}")``, ``self._error_json(str(e))``: a same-module helper whose result carries the text."""
        if self.following:
            return False
        func = call.func
        if isinstance(func, cst.Name) and self.names.lookup(func.value) is None:
            defs, method = self.helpers.get(func.value, []), False
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls"):
            defs, method = self.helpers.get(func.attr.value, []), True
        else:
            return False
        if not defs:
            return False
        for i, arg in enumerate(call.args):
            obj = isinstance(arg.value, cst.Name) and arg.value.value in exc  # the exception itself
            if arg.star or not (obj or self._leak(arg.value, exc) is not None):
                continue
            for d in defs:
                params = [*d.params.posonly_params, *d.params.params]
                if method and params and params[0].name.value in ("self", "cls"):
                    params = params[1:]
                if arg.keyword is not None:
                    name = arg.keyword.value
                elif i < len(params):
                    name = params[i].name.value
                else:
                    continue
                if self._carries(d, name, obj):
                    return True
        return False

    def _carries(self, helper: cst.FunctionDef, param: str, obj: bool) -> bool:
        """Whether the helper returns its ``param`` as text (``obj``: the parameter is the exception itself)."""
        key = (id(helper), param, obj)
        if key not in self.carries:
            self.carries[key] = False
            self.following = True
            exc, extra = ({param}, frozenset()) if obj else (set(), frozenset({param}))
            try:
                for n in walk_in_scope(helper.body):
                    if isinstance(n, cst.Return) and n.value is not None:
                        if self._leak(n.value, exc, extra=extra) is not None:
                            self.carries[key] = True
                            break
            finally:
                self.following = False
        return self.carries[key]

    def _passes_exception(self, call: cst.Call, exc: set[str]) -> bool:
        """``X(..., exception=e)`` / ``X(e, ...)``: the object keeps the typed failure."""
        return any(isinstance(a.value, cst.Name) and a.value.value in exc and not a.star for a in call.args)

    def _text_call(self, call: cst.Call) -> bool:
        """Whether the exception text flows through this call into its result."""
        func = call.func
        k = self.knowledge
        qn = self.names.qualname(func)
        if qn is not None and qn in k.text_building_calls:
            return True
        if isinstance(func, cst.Name):
            if func.value in k.text_passing_builtins and self.names.is_builtin(func.value):
                return True
            return func.value[:1].isupper()  # a result object's constructor
        if isinstance(func, cst.Attribute):
            if isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
                return True  # "sep".join([...])
            if func.attr.value in k.text_passing_methods:
                return True  # template.format(error=str(e))
            return func.attr.value[:1].isupper()
        return False

    def _reprompt(self, node: cst.CSTNode) -> bool:
        """Text going back to the model as a message (``retry_messages=[...]``, ``ChatMessage(...)``)."""
        if isinstance(node, cst.Arg) and node.keyword is not None:
            return self.knowledge.reprompt_keyword_part in node.keyword.value.lower()
        if isinstance(node, cst.Call):
            return (last_name(node.func) or "").endswith(self.knowledge.reprompt_call_suffix)
        return False

    def _is_exc_text(self, node: cst.BaseExpression, exc: set[str]) -> bool:
        """The exception object itself, its message attributes, or a tainted name."""
        if isinstance(node, cst.Name):
            return node.value in exc or node.value in self.tainted or node.value in self._extra
        if isinstance(node, cst.Subscript):
            node = node.value
        return (
            isinstance(node, cst.Attribute)
            and isinstance(node.value, cst.Name)
            and node.value.value in exc
            and node.attr.value in self.knowledge.exception_args_attributes
        )

    def _mentions_exc(self, node: cst.BaseExpression, exc: set[str]) -> bool:
        if self._is_exc_text(node, exc):
            return True
        if isinstance(node, (cst.Tuple, cst.List)):
            return any(self._is_exc_text(el.value, exc) for el in node.elements)
        if isinstance(node, cst.Dict):
            return any(
                isinstance(el, cst.DictElement) and self._is_exc_text(el.value, exc) for el in node.elements
            )
        return False

    _extra: frozenset[str] = frozenset()  # a helper's parameter, while following one

    def _leak(self, node: cst.CSTNode, exc: set[str], extra: frozenset[str] | None = None) -> cst.CSTNode | None:
        """The sub-expression that turns the exception into text, if any (``extra``: names holding text)."""
        if extra is not None:
            saved, self._extra = self._extra, extra
            try:
                return self._leak(node, exc)
            finally:
                self._extra = saved
        if isinstance(node, cst.Name):
            return node if node.value in self.tainted or node.value in self._extra else None
        if isinstance(node, cst.Lambda):
            return None
        if isinstance(node, cst.Attribute) or isinstance(node, cst.Subscript):
            if self._is_exc_text(node, exc) and not isinstance(node, cst.Name):
                return node
        if isinstance(node, cst.Call):
            func = node.func
            qn = self.names.qualname(func)
            if qn is not None:
                if qn in self.knowledge.tool_error_constructors:
                    return None
                if qn in self.knowledge.traceback_formatters and self.names.handler is not None:
                    return node
            if isinstance(func, cst.Name) and func.value in ("str", "repr") and node.args:
                if self.names.is_builtin(func.value) and self._is_exc_text(node.args[0].value, exc):
                    return node
            if isinstance(func, cst.Name) and func.value == "type":
                return None
            if isinstance(func, cst.Attribute):
                if func.attr.value == "format" and any(self._is_exc_text(a.value, exc) for a in node.args):
                    return node
                if func.attr.value in ("__str__", "__repr__") and self._is_exc_text(func.value, exc):
                    return node
            if self._helper_carries(node, exc):
                return node
            if self._passes_exception(node, exc) and not (isinstance(func, cst.Name) and func.value == "getattr"):
                return None
            if not self._text_call(node):
                # f(str(e)) is not the exception text; str(e).strip() still is
                return self._leak(func, exc)
            if self._in_parser_handler() and self._reprompt(node):
                return None
        elif isinstance(node, cst.FormattedString):
            for part in node.parts:
                if isinstance(part, cst.FormattedStringExpression) and self._is_exc_text(part.expression, exc):
                    return node
        elif isinstance(node, cst.FormattedStringExpression):
            if self._is_exc_text(node.expression, exc):
                return node
        elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
            if isinstance(node.left, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
                if self._mentions_exc(node.right, exc):
                    return node
        reprompt_ok = self._in_parser_handler()
        for child in node.children:
            if reprompt_ok and self._reprompt(child):
                continue
            if isinstance(child, cst.BaseExpression) or isinstance(
                child, (cst.Arg, cst.Element, cst.BaseDictElement, cst.FormattedStringExpression)
            ):
                found = self._leak(child, exc)
                if found is not None:
                    return found
        return None

    def _check(self, holder: cst.CSTNode, value: cst.BaseExpression | None, verb: str) -> None:
        if value is None or not self._active():
            return
        exc = self._exc_names
        found = self._leak(value, exc)
        if found is None:
            return
        text = _CODEGEN.code_for_node(found).strip()
        if len(text) > 40:
            text = text[:37] + "..."
        # name only an exception the handler binds (a bare `except:` binds none)
        fix = f"Err(from_exception({sorted(exc)[0]}))" if exc else "`except ... as e:` and Err(from_exception(e))"
        self.report(holder, verb=verb, text=text, fix=fix)

    def visit_Return(self, node: cst.Return) -> None:
        self._check(node, node.value, "returns")

    def visit_Yield(self, node: cst.Yield) -> None:
        if isinstance(node.value, cst.BaseExpression):
            self._check(node, node.value, "yields")

    def visit_Assign(self, node: cst.Assign) -> None:
        if not self._active():
            return
        leaks = self._leak(node.value, self._exc_names) is not None
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                if leaks:
                    self.tainted.add(t.target.value)
                else:
                    self.tainted.discard(t.target.value)
            elif leaks and isinstance(t.target, cst.Subscript) and isinstance(t.target.value, cst.Name):
                self.tainted.add(t.target.value.value)  # out["error"] = str(e)

    def visit_Call(self, node: cst.Call) -> None:
        """``results.append(f"{e}")``, ``payload.update(error=repr(e))``: the container now carries the text."""
        func = node.func
        if (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and func.attr.value in self.knowledge.container_filling_methods
            and self._active()
        ):
            exc = self._exc_names
            if any(self._leak(a.value, exc) is not None for a in node.args):
                self.tainted.add(func.value.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self._active() and isinstance(node.target, cst.Name):
            if self._leak(node.value, self._exc_names) is not None:
                self.tainted.add(node.target.value)
