"""Whether a POST's body is a model call's, read where the body is built (TFH101, s47).

A request through a generic client (``self._client.post(self.api_path, json=payload)``) names
nothing of a model in its URL; its body does. The body is read, in the module's ``ast`` (the
whole file, whatever the narrowing stubbed), from:

- a dict literal in the call (``json={"model": m, "messages": msgs}``);
- a local name assigned a dict literal in the enclosing function, or the value a same-class method
  (``self._build_payload(...)``) or a same-module function returns (a dict literal, or a local name
  it assigns one to);
- a parameter of the enclosing function (``async def _make_request(self, payload)``) when every call
  of that function in the module (``self._make_request(payload)``, at least one) hands it such a
  body, read the same way in the caller (one level).

A body is a model call's when it holds a key of ``Knowledge.llm_inference_body_keys``
(``messages``, ``prompt``, ``contents``, ``input_text``), or ``input`` beside ``model``
(``knowledge.LLM_INFERENCE_MODEL_INPUT_KEYS``). Anything else (a body the module does not build,
a caller passing something unread) is not one: the POST stays a write.
"""

from __future__ import annotations

import ast
from typing import Iterator, Union

from ...linter.api import Knowledge

Fn = Union[ast.FunctionDef, ast.AsyncFunctionDef]
_BODY_KEYWORDS = ("json", "data", "content")


def _keys(node: ast.Dict) -> set[str]:
    return {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}


def _model_keys(keys: set[str]) -> bool:
    return bool(keys & Knowledge.llm_inference_body_keys) or Knowledge.llm_inference_model_input_keys <= keys


class ModuleIndex:
    """The module's functions and classes, indexed once per question."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.functions: dict[str, Fn] = {}
        self.methods: dict[tuple[str, str], Fn] = {}
        self.owner: dict[Fn, str | None] = {}
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[node.name] = node
                self.owner[node] = None
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self.methods[(node.name, item.name)] = item
                        self.owner[item] = node.name

    def enclosing(self, line: int) -> Fn | None:
        """The module function or method (of a top-level class) holding ``line``."""
        for fn in self.owner:
            if fn.lineno <= line <= (fn.end_lineno or fn.lineno):
                return fn
        return None

    def callee(self, call: ast.Call, cls: str | None) -> Fn | None:
        """The same-class method (``self.m(...)``/``cls.m(...)``) or same-module function ``call`` runs."""
        func = call.func
        if isinstance(func, ast.Name):
            return self.functions.get(func.id)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls") and cls:
            return self.methods.get((cls, func.attr))
        return None

    def callers(self, fn: Fn) -> Iterator[tuple[ast.Call, Fn]]:
        """Every call of ``fn`` in the module, with the function it is made in."""
        cls = self.owner.get(fn)
        for outer in self.owner:
            for node in ast.walk(outer):
                if isinstance(node, ast.Call) and self.callee(node, self.owner[outer]) is fn and (cls is None or self.owner[outer] == cls):
                    yield node, outer


def _assigned(fn: Fn, name: str) -> list[ast.expr]:
    """The values assigned to the local ``name`` in ``fn``."""
    out: list[ast.expr] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            out.append(node.value)
        elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name) and node.target.id == name:
            out.append(node.value)
    return out


def _returned(fn: Fn) -> list[ast.expr]:
    return [n.value for n in ast.walk(fn) if isinstance(n, ast.Return) and n.value is not None]


def _built_body(mod: ModuleIndex, fn: Fn, value: ast.expr, depth: int = 0) -> bool:
    """``value``, in ``fn``, is a model call's body: a dict literal, or a local name assigned one or the result of a
    same-class/same-module builder returning one."""
    if isinstance(value, ast.Dict):
        return _model_keys(_keys(value))
    if isinstance(value, ast.Call) and depth < 2:
        builder = mod.callee(value, mod.owner.get(fn))
        if builder is not None and builder is not fn:
            return any(_built_body(mod, builder, r, depth + 1) for r in _returned(builder))
        return False
    if isinstance(value, ast.Name) and depth < 3:
        return any(_built_body(mod, fn, v, depth + 1) for v in _assigned(fn, value.id) if not isinstance(v, ast.Name))
    return False


def _parameter_index(fn: Fn, name: str) -> tuple[int, bool] | None:
    """The position of the parameter ``name`` among ``fn``'s positional parameters, and whether ``fn`` is a method."""
    args = [*fn.args.posonlyargs, *fn.args.args]
    names = [a.arg for a in args]
    if name not in names and name not in [a.arg for a in fn.args.kwonlyargs]:
        return None
    method = bool(names) and names[0] in ("self", "cls")
    return (names.index(name) if name in names else -1), method


def _handed_body(mod: ModuleIndex, fn: Fn, name: str) -> bool:
    """The parameter ``name`` of ``fn`` is, at every call of ``fn`` in the module (one at least), a model call's body."""
    where = _parameter_index(fn, name)
    if where is None or _assigned(fn, name):
        return False
    index, method = where
    seen = False
    for call, outer in mod.callers(fn):
        arg: ast.expr | None = next((k.value for k in call.keywords if k.arg == name), None)
        pos = index - 1 if method else index
        if arg is None and 0 <= pos < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[: pos + 1]):
            arg = call.args[pos]
        if arg is None or not _built_body(mod, outer, arg):
            return False
        seen = True
    return seen


def model_call_body(tree: ast.AST, line: int, method: str) -> bool:
    """The ``.<method>(...)`` call on ``line`` sends, as its ``json=``/``data=``/``content=`` body, a model call's body
    built in the module (see the module's docstring)."""
    if not isinstance(tree, ast.Module):
        return False
    mod = ModuleIndex(tree)
    fn = mod.enclosing(line)
    if fn is None:
        return False
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Call) and node.lineno == line and isinstance(node.func, ast.Attribute) and node.func.attr == method):
            continue
        for kw in node.keywords:
            if kw.arg is None and isinstance(kw.value, ast.Name):
                # s48 (batch 20 nyx-raccoonbot): `requests.post(url, **request_kwargs)` with `request_kwargs = {"json":
                # {"model": m, "prompt": p}, "timeout": 180}`: the keywords handed through a local dict literal
                if any(isinstance(k, ast.Constant) and k.value in _BODY_KEYWORDS and _built_body(mod, fn, v)
                       for d in _assigned(fn, kw.value.id) if isinstance(d, ast.Dict) for k, v in zip(d.keys, d.values)):
                    return True
                continue
            if kw.arg not in _BODY_KEYWORDS:
                continue
            if _built_body(mod, fn, kw.value):
                return True
            if isinstance(kw.value, ast.Name) and _handed_body(mod, fn, kw.value.id):
                return True
    return False
