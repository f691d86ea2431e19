"""The run's own catch-alls around a tool, which the model reads when the tool raises: a decorator of the module whose
wrapper runs the tool in a ``try`` answering the exception's text (tiktok-shop's ``@handle_errors``: ``except
Exception as e: return json.dumps({"error": True, "message": f"Error: {str(e)}"})``), and a method that looks the
tool up in a dispatch dict it builds itself and calls it in such a ``try`` (localforge's ``ToolExecutor.execute``:
``handler = dispatch.get(tool_name)`` ... ``try: return handler(args) except Exception as exc: return f"Error:
{exc}"``). Each is the row's runner (``failures_by``), as a base class's ``run`` is (:mod:`.ancestry`): ``raised``
becomes ``text (runner)`` and the runner's TFH401 is the row's finding (``merging._runner``)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from .ancestry import _handler_gives_text, _text_of
from ...rules.errors.model import catches_broadly
from .dispatch import runs_table, table_runner
from .index import FUNCS, Index

__all__ = ["caller_runner", "catching_decorator", "dict_runner", "getattr_runner", "lookup_runner", "registry_runners"]


def _calls_name(body: list[ast.stmt], names: set[str]) -> bool:
    return any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in names
               for s in body for c in ast.walk(s))


def _wraps_in_text(fn: ast.AST) -> bool:
    """A decorator (``def handle_errors(func)``) whose inner function calls ``func`` in a ``try`` whose broad handler
    answers the exception's text, and which returns that inner function."""
    if not isinstance(fn, FUNCS) or not fn.args.args:
        return False
    param = fn.args.args[0].arg
    inner = {s.name: s for s in fn.body if isinstance(s, FUNCS)}
    returned = {s.value.id for s in fn.body if isinstance(s, ast.Return) and isinstance(s.value, ast.Name)}
    for name in returned & inner.keys():
        wrapper = inner[name]
        for t in ast.walk(wrapper):
            if isinstance(t, ast.Try) and _calls_name(t.body, {param}) \
                    and any(_handler_gives_text(h, wrapper) for h in t.handlers):
                return True
    return False


def catching_decorator(node: ast.AST, form: str, index: Index) -> str | None:
    """The qualified name of a decorator of this module, applied below the tool's own (a decorator form's first
    decorator registers the tool: ``@app.tool()`` over ``@handle_errors``), that runs the tool in a ``try`` answering
    its exception's text (:func:`_wraps_in_text`); else None. A decorator above the registering one wraps what the
    framework has already taken: not the tool's answer."""
    defs = {s.name: s for s in index.tree.body if isinstance(s, FUNCS)}
    for i, dec in enumerate(getattr(node, "decorator_list", [])):
        if (i == 0 and form.startswith("@")) or not isinstance(dec, ast.Name):
            continue
        fn = defs.get(dec.id)
        if fn is not None and _wraps_in_text(fn):
            return f"{index.module}.{fn.name}"
    return None


def dict_runner(table: ast.Dict, scope: ast.AST, path: str, index: Index) -> str | None:
    """The runner of a dispatch dict: the module-level function that looks up the module's ``TOOL_FUNCS = {...}`` and
    calls it in a ``try`` answering text (``dispatch.table_runner``), or the function that builds the dict itself
    (``dispatch = {"read_file": self._read_file, ...}``), looks the tool up in it and calls it so (``path``: its
    path in the module); its qualified name, else None."""
    if scope is index.tree:
        name = next((a.targets[0].id for a in index.tree.body if isinstance(a, ast.Assign) and a.value is table
                     and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)), None)
        run = table_runner(name, index.tree) if name is not None else None
        return f"{index.module}.{run}" if run is not None else None
    if not isinstance(scope, FUNCS):
        return None
    name = next((a.targets[0].id for a in ast.walk(scope) if isinstance(a, ast.Assign) and a.value is table
                 and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)), None)
    if name is None:
        return None
    return f"{index.module}.{path}" if runs_table(scope, name) else None


#: the containers whose value type a table's annotation names (``Dict[str, Tool]``)
_MAPPINGS = frozenset({"Dict", "dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict"})


def _value_class(ann: ast.expr | None, index: Index) -> str | None:
    """``Dict[str, Tool]`` (``Optional[...]`` of it, a string annotation) -> the qualified name of ``Tool``."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(ann, ast.Subscript) and isinstance(ann.value, (ast.Name, ast.Attribute)) \
            and (ast.unparse(ann.value).rsplit(".", 1)[-1] == "Optional"):
        return _value_class(ann.slice, index)
    if not (isinstance(ann, ast.Subscript) and isinstance(ann.value, (ast.Name, ast.Attribute))
            and ast.unparse(ann.value).rsplit(".", 1)[-1] in _MAPPINGS and isinstance(ann.slice, ast.Tuple)
            and len(ann.slice.elts) == 2 and isinstance(ann.slice.elts[1], (ast.Name, ast.Attribute))):
        return None
    return index.qualname(ann.slice.elts[1])


def _table_annotation(table: ast.expr, cls: ast.ClassDef | None, index: Index) -> ast.expr | None:
    """The annotation of a table a runner looks tools up in: ``self.registry`` annotated in the class body or a
    method (``self.registry: Dict[str, Tool] = {}``), or set from a parameter so annotated (``def __init__(self,
    registry: Dict[str, Tool]): self.registry = registry``); a module-level ``TOOLS: Dict[str, Tool] = {}``."""
    if isinstance(table, ast.Name):
        return next((s.annotation for s in index.tree.body if isinstance(s, ast.AnnAssign)
                     and isinstance(s.target, ast.Name) and s.target.id == table.id), None)
    if not (cls is not None and isinstance(table, ast.Attribute) and isinstance(table.value, ast.Name)
            and table.value.id == "self"):
        return None
    attr = table.attr
    for s in cls.body:
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.target.id == attr:
            return s.annotation
    for m in (s for s in cls.body if isinstance(s, FUNCS)):
        params = {a.arg: a.annotation for a in (*m.args.posonlyargs, *m.args.args, *m.args.kwonlyargs)}
        for n in ast.walk(m):
            target = n.target if isinstance(n, ast.AnnAssign) else n.targets[0] \
                if isinstance(n, ast.Assign) and len(n.targets) == 1 else None
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                    and target.value.id == "self" and target.attr == attr):
                continue
            if isinstance(n, ast.AnnAssign):
                return n.annotation
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and params.get(n.value.id) is not None:
                return params[n.value.id]
    return None


def _looked_up(value: ast.expr) -> ast.expr | None:
    """``table.get(name)`` / ``table[name]`` with a key that is no literal (the called tool's name): the table."""
    if isinstance(value, ast.Subscript) and not isinstance(value.slice, ast.Constant):
        return value.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get" \
            and value.args and not isinstance(value.args[0], ast.Constant):
        return value.func.value
    return None


def registry_runners(index: Index) -> list[tuple[str, dict[str, str]]]:
    """The run's runners of tool objects held in a table: a function or method that looks a tool up by a name it is
    given in a table annotated with the tools' class (``tool = self.registry.get(name)``, ``registry: Dict[str,
    Tool]``) and calls a method of it in a ``try`` whose broad handler answers the exception's text (temaq's
    ``dispatch_tool``: ``try: result = tool.execute(args, ctx) ... except Exception as exc: return {"error": f"tool
    {name} raised: {exc}"}``). -> (that class's qualified name, {the method called -> the runner's qualified name}),
    read as a base class's text dispatcher (``ancestry.resolve``): each tool class deriving from it is run so."""
    out: list[tuple[str, dict[str, str]]] = []
    for path, _n, fn, parents in index.defs:
        if not isinstance(fn, FUNCS):
            continue
        looked = {n.targets[0].id: table for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
                  and isinstance(n.targets[0], ast.Name) and (table := _looked_up(n.value)) is not None}
        if not looked:
            continue
        cls = parents[-1] if parents and isinstance(parents[-1], ast.ClassDef) else None
        for t in ast.walk(fn):
            if not isinstance(t, ast.Try) or not any(_handler_gives_text(h, fn) for h in t.handlers):
                continue
            for c in (c for s in t.body for c in ast.walk(s)):
                if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Name) \
                        and c.func.value.id in looked:
                    held = _value_class(_table_annotation(looked[c.func.value.id], cls, index), index)
                    if held is not None:
                        out.append((held, {c.func.attr: f"{index.module}.{path}"}))
    return out


def _text_helpers(index: Index) -> frozenset[str]:
    """The module's functions that make text of their first parameter (mosaic's ``_error_result(error)``: ``{"message":
    str(error)}``): a handler answering ``helper(exc)`` answers the exception's text."""
    return frozenset(s.name for s in index.tree.body if isinstance(s, FUNCS) and s.args.args
                     and _text_of(s, s.args.args[0].arg))


def _answers_text(handler: ast.ExceptHandler, fn: ast.AST, helpers: frozenset[str]) -> bool:
    """:func:`.ancestry._handler_gives_text`, or a broad ``except ... as e`` returning a value that holds a call of a
    text helper of the module handed ``e`` (``return {"result": _error_result(error)}``) and raising nothing."""
    if _handler_gives_text(handler, fn):
        return True
    if handler.name is None or not catches_broadly(handler, None) or not helpers:
        return False
    if any(isinstance(n, ast.Raise) for s in handler.body for n in ast.walk(s)):
        return False
    return any(isinstance(r, ast.Return) and r.value is not None and any(
        isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in helpers and c.args
        and isinstance(c.args[0], ast.Name) and c.args[0].id == handler.name for c in ast.walk(r.value))
        for s in handler.body for r in ast.walk(s))


def _text_try(fn: ast.AST, hit: Callable[[ast.Call], bool], helpers: frozenset[str]) -> bool:
    """Whether ``fn`` makes a call ``hit`` accepts in the body of a ``try`` whose handler answers the exception's text."""
    return any(isinstance(t, ast.Try) and any(_answers_text(h, fn, helpers) for h in t.handlers)
               and any(isinstance(c, ast.Call) and hit(c) for s in t.body for c in ast.walk(s))
               for t in ast.walk(fn))


def caller_runner(dispatcher: str, index: Index) -> str | None:
    """The function of the module that calls the by-name dispatcher ``dispatcher`` (its path in the module: a module
    function ``call_tool``, or a method ``Server.dispatch`` called as ``self.dispatch``) in a ``try`` whose broad
    handler answers the exception's text (mosaic's ``handle()``: ``try: ... call_tool(params["name"], ...) except
    Exception as error: return {..., "result": _error_result(error)}``): its qualified name, the rows' runner; else None."""
    owner, _, name = dispatcher.rpartition(".")
    helpers = _text_helpers(index)

    def hit(c: ast.Call) -> bool:
        f = c.func
        if not owner:
            return isinstance(f, ast.Name) and f.id == name
        return isinstance(f, ast.Attribute) and f.attr == name and isinstance(f.value, ast.Name) and f.value.id == "self"

    for path, _n, fn, _parents in index.defs:
        if path == dispatcher or not isinstance(fn, FUNCS) or (owner and path.rpartition(".")[0] != owner):
            continue
        if _text_try(fn, hit, helpers):
            return f"{index.module}.{path}"
    return None


def getattr_runner(cls_path: str, prefix: str, index: Index) -> str | None:
    """The method of ``cls_path`` that runs its tools by ``getattr(self, f"{prefix}{name}")(...)`` in a ``try`` whose
    handler answers the exception's text (sail's ``WorkerTools.dispatch``: ``except Exception as exc: return
    _err(f"{type(exc).__name__}: {exc}")``), or a method of the class or function of the module calling that one
    so (:func:`caller_runner`): its qualified name, the rows' runner; else None."""
    helpers = _text_helpers(index)

    def looked_up(c: ast.Call) -> bool:
        g = c.func
        return isinstance(g, ast.Call) and isinstance(g.func, ast.Name) and g.func.id == "getattr" and len(g.args) >= 2 \
            and isinstance(g.args[0], ast.Name) and g.args[0].id == "self" \
            and (prefix in ast.unparse(g.args[1]) if prefix else isinstance(g.args[1], ast.Name))

    for path, _n, fn, _parents in index.defs:
        if not isinstance(fn, FUNCS) or path.rpartition(".")[0] != cls_path:
            continue
        if not any(isinstance(c, ast.Call) and looked_up(c) for c in ast.walk(fn)):
            continue
        if _text_try(fn, looked_up, helpers):
            return f"{index.module}.{path}"
        return caller_runner(path, index)
    return None


def lookup_runner(index: Index) -> str | None:
    """The one function of the module that calls a callable it looks up by a name it is given in a table
    (``self._handlers[name](config, arguments)``, ``HANDLERS.get(name)(args)``) in a ``try`` whose broad handler
    answers the exception's text (clauster's ``_on_tools_call``: ``except Exception as exc: return _result(msg_id,
    _tool_error(f"{name} failed: {exc}"))``): the runner of the module's dispatch dicts, whose table reaches it
    through an attribute or a builder (``self._handlers = handlers_for(...)``); None when no function or several do."""
    helpers = _text_helpers(index)

    def hit(c: ast.Call) -> bool:
        f = c.func
        return isinstance(f, ast.Subscript) and isinstance(f.slice, ast.Name) or (
            isinstance(f, ast.Call) and isinstance(f.func, ast.Attribute) and f.func.attr == "get"
            and len(f.args) == 1 and isinstance(f.args[0], ast.Name))

    found = [path for path, _n, fn, _parents in index.defs if isinstance(fn, FUNCS) and _text_try(fn, hit, helpers)]
    return f"{index.module}.{found[0]}" if len(found) == 1 else None
