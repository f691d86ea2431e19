"""Tools that stay on the machine: the ``local`` class, by positive evidence only.

A tool whose every call is known to work in memory or on local files (builtins, the standard library's in-memory and
file modules, in-memory libraries, methods of the builtin value types and of paths, dates and matches), and whose
calls of the run's own functions all reach helpers judged the same way (same-module ones in the row, those of other
modules through ``follow.join``), makes no call that can leave the machine: the retry questions the class answers
(is a repeat safe, does a write need a key) are about calls whose outcome a network failure leaves unknown, and a
local tool has none. One call that is unknown (an unresolved method, a third-party function, a parameter called, a
process run) and the tool is no ``local`` one: ``?`` stays.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Mapping

import libcst as cst

from .. import knowledge as kb
from ..effects import chain_words, reaches_outside
from ..nodes import assignment_targets, walk_in_scope
from .attributes import VALUE, attribute_call, value_type as _value_type
from ...rules.timeouts.process import command_words

__all__ = ["Place", "bound_names", "call_place", "local_process", "module_values", "nested_defs", "placeholder", "row_place",
           "stdlib_values"]

#: receiver words that name something outside the process (a client, a session, an API)
_OUTSIDE_WORDS = kb.TOOL_RECEIVER_WORDS | kb.CLIENT_CLASS_WORDS | kb.REMOTE_RECEIVER_WORDS
#: a string's searches: local when what is searched for is a literal string
_TEXT_SEARCHES = frozenset({"count", "find", "rfind", "index", "rindex"})
#: file-object methods, local only on a name the function itself bound (``with open(p) as f: f.read()``)
_FILE_METHODS = frozenset({"read", "write", "close"})


@dataclass
class Place:
    """What one function's calls say about where it works: ``outside`` once one call is not known to stay local;
    ``own``: the run's functions it calls (``self.m``/same-module names by their last name, others qualified)."""

    nested: frozenset[str] = frozenset()
    bound: frozenset[str] = frozenset()
    values: dict[str, str] = field(default_factory=dict)  # names holding a standard-library value (``stdlib_values``)
    typed: frozenset[str] = frozenset()  # parameters annotated with builtin value types (``value_params``)
    outside: bool = False
    own: set[str] = field(default_factory=set)

    def add(self, place: str) -> None:
        if place == "outside":
            self.outside = True
        elif place.startswith("own:"):
            self.own.add(place[4:])


def nested_defs(fn: cst.FunctionDef) -> frozenset[str]:
    """Names of the functions defined inside ``fn`` (their calls are ``fn``'s own, read with it)."""
    return frozenset(n.name.value for n in walk_in_scope(fn.body) if isinstance(n, cst.FunctionDef))


def value_params(fn: cst.FunctionDef) -> frozenset[str]:
    """``fn``'s parameters annotated with builtin value types only (:data:`.attributes.VALUE_ANNOTATIONS`; ``Any`` or a class
    is not one), which ``fn`` does not bind again; of a subscripted type the outer one counts (``dict[str, Any]``),
    of a union each side."""
    typed = {p.name.value for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)
             if p.annotation is not None and _value_type(p.annotation.annotation)}
    same = {n.targets[0].target.value for n in walk_in_scope(fn.body) if isinstance(n, cst.Assign) and len(n.targets) == 1
            and isinstance(n.targets[0].target, cst.Name) and isinstance(n.value, (cst.Subscript, cst.Call))
            and _value_root(n.value) == n.targets[0].target.value}  # ``raw = raw[i:]``, ``text = text.strip()``
    rebound = [n for n in walk_in_scope(fn.body) if isinstance(n, cst.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0].target, cst.Name) and n.targets[0].target.value in same
               and _value_root(n.value) != n.targets[0].target.value]
    return frozenset(typed - (bound_names(fn) - same) - {n.targets[0].target.value for n in rebound})  # type: ignore[attr-defined]


def bound_names(fn: cst.FunctionDef) -> frozenset[str]:
    """Names ``fn`` binds itself: assigned (a tuple's names too), ``with ... as``, ``for`` targets (a
    comprehension's too)."""
    out: set[str] = set()
    for n in walk_in_scope(fn.body):
        targets: list[cst.BaseExpression] = []
        if isinstance(n, cst.Assign):
            targets = assignment_targets(n)
        elif isinstance(n, cst.WithItem) and n.asname is not None:
            targets = [n.asname.name]
        elif isinstance(n, (cst.For, cst.AnnAssign, cst.CompFor)):
            targets = [n.target]
        for t in targets:
            out.update(e.value.value for e in (t.elements if isinstance(t, (cst.Tuple, cst.List)) else ())
                       if isinstance(e.value, cst.Name))
        out.update(t.value for t in targets if isinstance(t, cst.Name))
    return frozenset(out)


def row_place(places: list[Place | None], local_names: frozenset[str], module: str) -> tuple[str, ...] | None:
    """Whether a row's functions (``places``: the tool's and its same-module helpers') stay on the machine: the
    qualified names of the run's other functions they call (judged at the join: each must be found and judged local
    there; a parameter called, a class built, an inherited method are not), or None (a call out, an unknown call)."""
    pending: set[str] = set()
    for place in places:
        if place is None or place.outside:
            return None
        for own in place.own:
            last = own.rsplit(".", 1)[-1]
            if last in local_names and ("." not in own or own.startswith(module + ".")):
                continue  # a helper of the row, judged with it
            if "." not in own:  # a module function the row does not hold: the join finds it (or not: a parameter)
                own = f"{module}.{own}"
            pending.add(own)
    return tuple(sorted(pending))


def _url_like(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        text = value.decode(errors="replace") if isinstance(value, bytes) else value
        return text.startswith(("/", "http:", "https:")) or "/" in text
    return not isinstance(node, cst.Name)  # an f-string or an expression: perhaps a URL


def _dict_get(call: cst.Call) -> bool:
    """``d.get("key")`` / ``d.get(key, default)``: a lookup, not a request (no URL, no keywords)."""
    if not call.args or len(call.args) > 2 or any(a.keyword is not None or a.star for a in call.args):
        return False
    return not _url_like(call.args[0].value)


def call_place(call: cst.Call, names: Any, knowledge: kb.Knowledge, imports: frozenset[str],
               nested: frozenset[str], bound: frozenset[str], values: Mapping[str, str] | None = None,
               typed: frozenset[str] = frozenset(), module: str = "") -> str:
    """``local``, ``outside``, or ``own:NAME`` (the run's own function or method: judged where it is defined).
    ``nested``: names of functions defined inside the caller; ``bound``: names the caller binds itself; ``values``:
    names holding a standard-library value (:func:`stdlib_values`); ``typed``: parameters annotated with builtin
    value types (:func:`value_params`)."""
    values = values or {}
    func = call.func
    raw = names.qualname(func)
    qn = knowledge.canonical(raw) if raw is not None else None
    if qn is not None and _abstract_type(qn):
        qn = None  # ``session: Any`` then ``session.run_stream()``: the annotation names no class that does anything
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls"):
        return f"own:{func.attr.value}"
    held = attribute_call(func, names) if module and isinstance(func, cst.Attribute) else None
    if held is not None and isinstance(func, cst.Attribute):  # ``self.board.post()``, ``board: Board`` (``attributes``)
        return "local" if held == VALUE else f"own:{module}.{held}.{func.attr.value}"
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in values:
        return "local"  # ``_RE.finditer(text)``: a method of a standard-library value that stays on the machine  # a method of the tool's class: a helper of the row, or unknown
    if isinstance(func, cst.Name) and func.value in nested:
        return "local"  # a nested def: its calls are read as the caller's
    if isinstance(func, cst.Name) and names.is_builtin(func.value):
        if func.value in kb.OUTSIDE_BUILTINS:
            return "outside"
        if func.value in ("map", "filter") and call.args and not isinstance(call.args[0].value, cst.Lambda) and not (
                isinstance(call.args[0].value, cst.Name) and names.is_builtin(call.args[0].value.value)):
            return "outside"  # runs a callable it is handed
        return "local"
    if qn is not None and qn in knowledge.pure_calls:
        return "local"
    if qn is not None and (qn in knowledge.timeouts or qn in knowledge.needs_timeout_scope or qn in knowledge.classify
                           or qn in kb.TOOL_PROCESS_CALLS):
        return "outside"
    if isinstance(func, cst.Attribute) and func.attr.value in knowledge.pure_methods:
        return "local"
    if qn is not None and "." in qn:
        root = qn.split(".")[0]
        if root in sys.stdlib_module_names:
            if qn.startswith(kb.OUTSIDE_STDLIB_PREFIXES) or qn in ("os.system", "os.popen"):
                return "outside"
            if root in kb.CALLABLE_RUNNING_MODULES and root not in ("functools", "itertools", "operator", "inspect",
                                                                      "contextlib", "asyncio", "threading"):
                return "outside"
            return "local"
        if root in knowledge.in_memory_libraries:
            return "local"
        last = qn.rsplit(".", 1)[-1]
        own = (names.package or "").split(".", 1)[0]
        if last[:1].isupper() and not (_words(last) & _OUTSIDE_WORDS) and not (
                _sdk_or_configured(call, qn, knowledge) or reaches_outside(call, names, knowledge, imports)):
            return "local"  # a value built from a class (``TextContent(type="text", text=t)``, ``ToolResult(...)``)
        if own and root == own or own and qn.split(".")[1:2] == [own]:
            return f"own:{qn}"
        return "outside"
    if qn is not None:  # a same-module name (``helper(x)``)
        return f"own:{qn}"
    if isinstance(func, cst.Name) and func.value[:1].isupper() and not (_words(func.value) & _OUTSIDE_WORDS):
        return "local"  # a class of the module built: a value (as ``effects.third_party`` reads a capitalised name)
    if isinstance(func, cst.Name):
        return f"own:{func.value}"  # a same-module function, judged as a helper of the row; else (a parameter) unknown
    if not isinstance(func, cst.Attribute):
        return "outside"  # a call's result called: unknown
    if chain_words(func) & _OUTSIDE_WORDS:
        return "outside"
    method = func.attr.value
    if _value_root(func.value) in typed and method in kb.LOCAL_VALUE_METHODS | _TEXT_SEARCHES:
        return "local"  # ``raw.lower().find(prefix)`` with ``raw: str``: the annotated type's method
    if method == "get":
        return "local" if _dict_get(call) else "outside"
    if method in (kb.LOCAL_VALUE_METHODS if _own_value(func.value, bound, names) else kb.LOCAL_FOREIGN_METHODS):
        return "local"
    if method in knowledge.local_io_methods:
        return "local"  # ``p.is_file()``, ``p.read_text()``: a path's, whatever the receiver (``LOCAL_IO_METHODS``)
    if method in _TEXT_SEARCHES and call.args and isinstance(call.args[0].value, cst.SimpleString):
        return "local"  # ``text.count("\\n")``, ``line.find("=")``: a string searched for a literal
    if method in kb.LOGGING_CALL_PREFIXES or method in ("info", "debug", "warning", "warn", "error", "exception",
                                                          "critical", "log"):
        chain = chain_words(func)
        return "local" if any("log" in w for w in chain) else "outside"
    if method in _FILE_METHODS and isinstance(func.value, cst.Name) and func.value.value in bound:
        return "local"
    return "outside"


_ABSTRACT_ROOTS = frozenset({"typing", "typing_extensions", "collections", "abc", "types", "_typeshed", "builtins"})


def placeholder(fn: cst.FunctionDef) -> bool:
    """A body that only raises ``NotImplementedError`` (a docstring aside): the work is done elsewhere (a subclass, an
    overriding ``invoke``), so the function says nothing of where the tool works."""
    body = [s for s in fn.body.body if not (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
                                           and isinstance(s.body[0], cst.Expr)
                                           and isinstance(s.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))]
    if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or not isinstance(body[0].body[0], cst.Raise):
        return False
    exc = body[0].body[0].exc
    if isinstance(exc, cst.Call):
        exc = exc.func
    return isinstance(exc, cst.Name) and exc.value == "NotImplementedError"


def _own_value(receiver: cst.BaseExpression, bound: frozenset[str], names: Any = None) -> bool:
    """A receiver the function made: a literal, a call's result (itself judged), or a name it binds (``lines =
    text.splitlines()``); not an attribute of ``self``, a parameter or a module global (``self.memory``). A call's
    result is a builtin's or a class's value (``str(x).strip()``), a value method's on such a value
    (``Path(p).expanduser().resolve()``), or a standard-library function's that stays on the machine
    (``Path.cwd().resolve()``, ``datetime.now().isoformat()``); ``get_store().add(x)`` is unknown."""
    while isinstance(receiver, (cst.Attribute, cst.Subscript)):
        receiver = receiver.value
    if isinstance(receiver, cst.Name):
        return receiver.value in bound
    if isinstance(receiver, cst.Call):
        func = receiver.func
        if isinstance(func, cst.Name):
            return True
        if isinstance(func, cst.Attribute) and func.attr.value in kb.LOCAL_VALUE_METHODS and isinstance(
                func.value, cst.Call) and _own_value(func.value, bound, names):
            return True
        qn = names.qualname(func) if names is not None else None
        return qn is not None and "." in qn and qn.split(".")[0] in sys.stdlib_module_names and not (
            qn.startswith(kb.OUTSIDE_STDLIB_PREFIXES) or qn.split(".")[0] in kb.CALLABLE_RUNNING_MODULES)
    return True  # a literal


def _value_root(receiver: cst.BaseExpression) -> str | None:
    """The name a value comes from through attributes, subscripts and value methods (``name[0]``,
    ``raw.lower().strip()``), else None."""
    while True:
        if isinstance(receiver, (cst.Attribute, cst.Subscript)):
            receiver = receiver.value
        elif isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute) and \
                receiver.func.attr.value in kb.LOCAL_VALUE_METHODS:
            receiver = receiver.func.value
        else:
            return receiver.value if isinstance(receiver, cst.Name) else None


def _abstract_type(qn: str) -> bool:
    """A name through a type of the typing modules (``typing.Any.run``, ``collections.abc.Callable``): not a function
    of theirs (``typing.cast``, ``collections.Counter`` are)."""
    parts = qn.split(".")
    if parts[0] not in _ABSTRACT_ROOTS:
        return False
    if parts[:2] == ["collections", "abc"]:
        return True
    return parts[0] != "collections" and len(parts) > 1 and (parts[1][:1].isupper() or parts[1] == "object")


def _sdk_or_configured(call: cst.Call, qn: str, knowledge: kb.Knowledge) -> bool:
    return qn in knowledge.timeouts or qn in knowledge.classify or qn in kb.CLIENT_CLASSES


def _words(name: str) -> set[str]:
    """``SearchClient`` -> search, client; ``TextContent`` -> text, content."""
    out, word = [], ""
    for ch in name:
        if ch.isupper() and word:
            out.append(word)
            word = ""
        word += ch.lower()
    if word:
        out.append(word)
    return set(out)


_PROCESS_CALLS = frozenset({"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output",
                            "subprocess.Popen", "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell"})
_SHELL_CHARACTERS = frozenset("|;&`$<>")


def local_process(call: cst.Call, qn: str | None, fn: cst.FunctionDef | None) -> bool:
    """A process whose literal program works on the machine (``knowledge.LOCAL_PROGRAMS``; git on the local repository,
    ``knowledge.GIT_LOCAL_SUBCOMMANDS``): ``subprocess.run(["git", "log", "-5"], ...)``, or the command a name the
    function assigns holds (``cmd = ["git", "add"] + files``, every assignment agreeing)."""
    if qn not in _PROCESS_CALLS or not call.args or call.args[0].keyword is not None or call.args[0].star:
        return False
    if qn == "asyncio.create_subprocess_exec":
        words: list[str] = []
        for a in call.args:
            value = a.value.evaluated_value if isinstance(a.value, cst.SimpleString) else None
            if a.star or a.keyword is not None or not isinstance(value, str):
                break
            words.append(value)
        return _local_argv(words)
    node = call.args[0].value
    if isinstance(node, cst.Name):
        if fn is None:
            return False
        values = [n.value for n in walk_in_scope(fn.body) if isinstance(n, cst.Assign) and len(n.targets) == 1
                  and isinstance(n.targets[0].target, cst.Name) and n.targets[0].target.value == node.value]
        return bool(values) and all(_local_argv(command_words(v)[0]) for v in values)
    return _local_argv(command_words(node)[0])


def _local_argv(words: list[str]) -> bool:
    if not words or any(ch in _SHELL_CHARACTERS for w in words for ch in w):
        return False
    head, rest = words[0].rsplit("/", 1)[-1], words[1:]
    if head in kb.LOCAL_PROGRAMS:
        return True
    if head != "git":
        return False
    while rest and rest[0].startswith("-"):  # git's own options: ``git -C repo --no-pager log``
        rest = rest[2:] if rest[0] in ("-C", "-c") else rest[1:]
    return bool(rest) and rest[0] in kb.GIT_LOCAL_SUBCOMMANDS


def _stdlib_value(node: cst.BaseExpression, names: Any) -> str | None:
    """The standard-library function or class a call's value comes from, when it stays on the machine
    (``re.compile(...)``, ``pathlib.Path(...)``); not a process, a socket or a callable's runner
    (``knowledge.OUTSIDE_STDLIB_PREFIXES``, ``CALLABLE_RUNNING_MODULES``)."""
    if not isinstance(node, cst.Call):
        return None
    qn = names.qualname(node.func)
    if qn is None or "." not in qn or qn.split(".")[0] not in sys.stdlib_module_names:
        return None
    return None if qn.startswith(kb.OUTSIDE_STDLIB_PREFIXES) or qn.split(".")[0] in kb.CALLABLE_RUNNING_MODULES else qn


def module_values(module: cst.Module, names: Any) -> tuple[dict[str, str], dict[str, tuple[str | None, ...]]]:
    """The module's top-level names bound once, to a standard-library value (``_RE = re.compile(...)``), and to a
    literal list or tuple of such values or of tuples holding them at the same places (``_PATTERNS = [("apt",
    re.compile(...)), ...]``: per place, the value's function, or None)."""
    seen: dict[str, int] = {}
    single: dict[str, str] = {}
    seqs: dict[str, tuple[str | None, ...]] = {}
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if not isinstance(small, (cst.Assign, cst.AnnAssign)) or small.value is None:
                continue
            targets = assignment_targets(small)
            for t in targets:
                if not isinstance(t, cst.Name):
                    continue
                seen[t.value] = seen.get(t.value, 0) + 1
                value = _stdlib_value(small.value, names)
                if value is not None:
                    single[t.value] = value
                elif isinstance(small.value, (cst.List, cst.Tuple)) and small.value.elements:
                    seqs[t.value] = _places(small.value.elements, names)
    once = {n for n, k in seen.items() if k == 1}
    return ({n: v for n, v in single.items() if n in once},
            {n: v for n, v in seqs.items() if n in once and any(v)})


def _places(elements: Any, names: Any) -> tuple[str | None, ...]:
    """Per place of a literal sequence's elements, the standard-library value every element holds there."""
    rows = [e.value.elements if isinstance(e.value, cst.Tuple) else None for e in elements]
    if all(r is None for r in rows):  # ``[re.compile(a), re.compile(b)]``: one place, ``for p in SEQ``
        found = {_stdlib_value(e.value, names) for e in elements}
        return (found.pop(),) if len(found) == 1 and None not in found else ()
    if any(r is None for r in rows) or len({len(r) for r in rows if r is not None}) != 1:
        return ()
    width = len(rows[0])  # type: ignore[arg-type]
    out: list[str | None] = []
    for i in range(width):
        found = {_stdlib_value(r[i].value, names) for r in rows if r is not None}
        out.append(found.pop() if len(found) == 1 and None not in found else None)
    return tuple(out)


def stdlib_values(fn: cst.FunctionDef, names: Any, single: Mapping[str, str],
                  seqs: Mapping[str, tuple[str | None, ...]]) -> dict[str, str]:
    """Names ``fn`` reads that hold a standard-library value (:func:`module_values`): a module global ``fn`` does not
    bind itself, a name ``fn`` binds once to one (``pattern = re.compile(...)``), or the target of its one ``for``
    over such a sequence that nothing else in ``fn`` binds (``for _name, _hint, pattern in _PATTERNS:``)."""
    binds: dict[str, int] = {}
    loops: list[cst.For] = []
    own: dict[str, str] = {}
    for n in walk_in_scope(fn.body):
        targets: list[cst.BaseExpression] = []
        if isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(n.targets[0].target, cst.Name):
            value = _stdlib_value(n.value, names)
            if value is not None:
                own[n.targets[0].target.value] = value
        if isinstance(n, cst.Assign):
            targets = assignment_targets(n)
        elif isinstance(n, (cst.AnnAssign, cst.AugAssign, cst.NamedExpr)):
            targets = [n.target]
        elif isinstance(n, cst.WithItem) and n.asname is not None:
            targets = [n.asname.name]
        elif isinstance(n, (cst.For, cst.CompFor)):
            targets = [n.target]
            if isinstance(n, cst.For):
                loops.append(n)
        for t in targets:
            for name in (t.elements if isinstance(t, (cst.Tuple, cst.List)) else [t]):
                node = name.value if isinstance(name, (cst.Element, cst.StarredElement)) else name
                if isinstance(node, cst.Name):
                    binds[node.value] = binds.get(node.value, 0) + 1
    params = {p.name.value for p in (*fn.params.params, *fn.params.posonly_params, *fn.params.kwonly_params)}
    out = {n: v for n, v in single.items() if n not in binds and n not in params}
    out.update((n, v) for n, v in own.items() if binds.get(n) == 1 and n not in params)
    for loop in loops:
        if not isinstance(loop.iter, cst.Name) or loop.iter.value in binds or loop.iter.value in params:
            continue
        places = seqs.get(loop.iter.value, ())
        target = loop.target
        names_at = ([e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target])
        if len(names_at) != len(places):
            continue
        for node, value in zip(names_at, places):
            if isinstance(node, cst.Name) and value is not None and binds.get(node.value) == 1:
                out[node.value] = value
    return out
