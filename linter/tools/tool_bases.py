"""What a class is, for the tools report: a tool class by its name or docstring (:func:`says_tool`), the template
methods it leaves to its subclasses (:func:`class_shapes`), a run method that runs nothing (:func:`stub_run`), and a
class derived from a tool base that is itself a base (:func:`tool_base`). Split out of :mod:`.ancestry` (s52), which
follows the bases through the run's classes and finds the run's own tool base classes with these readings
(``ancestry.project_tool_bases``) and re-exports them."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from .index import FUNCS, Index

__all__ = ["AMBIGUOUS_CLASS_WORDS", "Shape", "TOOL_CLASS_WORDS", "class_shapes", "runs_tool", "says_tool", "stub_run",
           "tool_base"]

# --------------------------------------------------------------------------- a project's own tool base class: its shape

#: a class name's last word (``Base``/``Abstract``... left out) that says "tool": ``Tool``, ``BaseTool``, ``ToolBase``
TOOL_CLASS_WORDS = frozenset({"Tool", "Skill"})
#: words that say "tool" only beside a docstring that does (``argparse.Action``, ``distutils.cmd.Command`` are not)
AMBIGUOUS_CLASS_WORDS = frozenset({"Action", "Command", "Function"})
_NEUTRAL_WORDS = frozenset({"Base", "Abstract", "Abc", "ABC", "Interface", "Protocol", "Generic"})
#: a docstring that says the class is a tool an agent or a model calls
_TOOL_DOC = re.compile(r"\b(tools?|agents?|LLMs?|language models?)\b", re.IGNORECASE)
#: template methods that describe the tool rather than run it
_ACCESSOR_PREFIXES = ("get_", "set_", "is_", "has_", "to_", "from_", "_get", "_set", "validate", "_validate")
_ACCESSOR_PARTS = ("name", "description", "schema", "docstring", "param", "spec", "signature", "register", "state",
                   "config", "convert")
#: a subclass named so wraps a function, a remote tool or an agent given to it (``FunctionTool``, ``MCPTool``):
#: the framework's adapter, not a tool of its own
_ADAPTER_WORDS = frozenset({"Function", "Functional", "Callable", "Mcp", "MCP", "Proxy", "Remote", "Client", "Agent",
                            "Wrapper", "Wrapped", "Adapter", "Dynamic", "Generic", "Lambda", "Toolkit"})


def _literal_named(cls: ast.ClassDef) -> bool:
    """The class body names the tool by a literal: ``name = "mcp"``, ``NAME: ClassVar[str] = "MCP"``."""
    for s in cls.body:
        target, value = (s.targets[0], s.value) if isinstance(s, ast.Assign) and len(s.targets) == 1 \
            else (s.target, s.value) if isinstance(s, ast.AnnAssign) else (None, None)
        if isinstance(target, ast.Name) and target.id in ("name", "NAME") and isinstance(value, ast.Constant) \
                and isinstance(value.value, str) and value.value:
            return True
    return False


def _adapter_named(name: str) -> bool:
    """Every word before the last is an adapter's (``FunctionTool``, ``MCPTool``, ``RemoteAgentTool``): the
    framework's adapter of what it is given; not a tool that acts on one (``SpawnHumanAgentTool``)."""
    words = _words(name.lstrip("_"))
    return len(words) > 1 and all(w in _ADAPTER_WORDS for w in words[:-1])


@dataclass(frozen=True)
class Shape:
    """What phase 1 records of each class for finding a project's own tool base: its methods, the methods it
    leaves to its subclasses (abstract, ``raise NotImplementedError``, or called on ``self`` but not defined:
    ``apply_ex`` running ``self.apply(...)``), and whether its name or docstring says tool."""

    qualname: str
    defines: frozenset[str]
    template: tuple[str, ...]
    toolish: bool
    # the name has the word ``Tool`` before another (``ToolHandler``), and it leaves to its subclasses both their
    # description or schema (``get_tool_description``) and a method that runs the tool (``run_tool``, ``execute``):
    # each subclass is one tool (a ``ToolExecutor``'s subclasses run other tools and describe none)
    tool_named: bool = False
    # the last names of the classes its methods build (``BarkTextToSpeechTool()`` in gentopia's ``TTS._run``)
    builds: frozenset[str] = frozenset()
    # named as an adapter of what it is given (``FunctionTool``, ``MCPTool``) and naming no tool of its own: a class
    # that names itself by a literal (``NAME = "MCP"``: wizolt's MCP gateway tool) is one tool, not an adapter
    adapter: bool = False
    # a ``typing.Protocol`` (s56): its tools implement it without naming it as a base (``protocols.py``)
    protocol: bool = False
    # the names its body binds (``spec = ToolSpec(...)``, ``spec: ToolSpec``): a protocol's attributes, an implementer's
    attrs: frozenset[str] = frozenset()


_NO_SHAPE = Shape("", frozenset(), (), False)


def _words(name: str) -> list[str]:
    return re.findall(r"[A-Z]+(?=[A-Z][a-z]|$)|[A-Z]?[a-z0-9]+|[A-Z]+", name)


def says_tool(cls: ast.ClassDef) -> bool:
    """The class's name ends in a tool word (``Tool``, ``BaseTool``, ``ToolBase``, ``Skill``), or in an ambiguous
    one (``Action``, ``Command``, ``Function``) with a docstring that speaks of tools, agents or models."""
    words = [w for w in _words(cls.name) if w not in _NEUTRAL_WORDS]
    last = words[-1] if words else ""
    if last in TOOL_CLASS_WORDS:
        return True
    doc = ast.get_docstring(cls) or ""
    first = doc.strip().split("\n\n")[0]
    # a docstring alone is not enough: "Base class for tool callbacks", "Processes tool calls" are no tool
    return last in AMBIGUOUS_CLASS_WORDS and bool(_TOOL_DOC.search(first))


#: what a method that describes a tool to the model speaks of
_DESCRIBING = ("description", "schema", "spec", "definition")
#: the first word of a method that runs a tool (``run``, ``run_tool``, ``execute``, ``invoke``, ``__call__``)
_RUN_WORDS = frozenset({"run", "arun", "call", "acall", "execute", "aexecute", "invoke", "ainvoke", "forward"})


def runs_tool(method: str) -> bool:
    """A method name that says it runs the tool: its first word a run verb (``run_tool``, ``execute``)."""
    words = [w for w in method.lower().split("_") if w]
    return bool(words) and words[0] in _RUN_WORDS


def _is_accessor(name: str) -> bool:
    low = name.lower()
    return low.startswith(_ACCESSOR_PREFIXES) or any(p in low for p in _ACCESSOR_PARTS)


def _abstract(fn: ast.AST, abc: bool) -> bool:
    decorators = getattr(fn, "decorator_list", [])
    names = [ast.unparse(d).rsplit(".", 1)[-1] for d in decorators]
    if "abstractmethod" in names:
        return True
    if any(n in ("property", "staticmethod", "classmethod", "overload") or n.endswith((".setter", "cached_property"))
           for n in names):
        return False
    body = [s for s in getattr(fn, "body", []) if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                                        and isinstance(s.value.value, str))]
    if len(body) != 1:
        return False
    only = body[0]
    if isinstance(only, ast.Raise) and only.exc is not None:
        exc = only.exc.func if isinstance(only.exc, ast.Call) else only.exc
        return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"
    # ``...`` or ``pass`` only in an ABC or a Protocol: elsewhere it is an optional hook
    return abc and (isinstance(only, ast.Pass) or (isinstance(only, ast.Expr) and isinstance(only.value, ast.Constant)
                                                   and only.value.value is Ellipsis))


def _properties(cls: ast.ClassDef) -> set[str]:
    return {s.name for s in cls.body if isinstance(s, FUNCS)
            and any(ast.unparse(d).rsplit(".", 1)[-1] in ("property", "cached_property") for d in s.decorator_list)}


def _handed_on(cls: ast.ClassDef) -> set[str]:
    """The methods the class's own code refers to as ``self.<m>`` without calling them (a bound method handed on)."""
    called = {id(n.func) for n in ast.walk(cls) if isinstance(n, ast.Call)}
    return {n.attr for n in ast.walk(cls) if isinstance(n, ast.Attribute) and id(n) not in called
            and isinstance(n.value, ast.Name) and n.value.id == "self" and isinstance(n.ctx, ast.Load)}


def class_shapes(index: Index) -> list[Shape]:
    """A :class:`Shape` for every class of the file."""
    out: list[Shape] = []
    for path, cls in index.classes:
        methods = {s.name: s for s in cls.body if isinstance(s, FUNCS)}
        attrs = {t.id for s in cls.body if isinstance(s, (ast.Assign, ast.AnnAssign))
                 for t in (s.targets if isinstance(s, ast.Assign) else [s.target]) if isinstance(t, ast.Name)}
        protocol = any(ast.unparse(b).rsplit(".", 1)[-1].split("[")[0] == "Protocol" for b in cls.bases)
        init = methods.get("__init__")  # and what its constructor sets on ``self`` (``self.spec = ToolSpec(...)``)
        bound = {t.attr for n in ast.walk(init) if isinstance(n, (ast.Assign, ast.AnnAssign))
                 for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Attribute)
                 and isinstance(t.value, ast.Name) and t.value.id == "self"} if init is not None else set()
        abc = protocol or any(ast.unparse(b).rsplit(".", 1)[-1] in ("ABC", "Protocol") for b in cls.bases) or any(
            k.arg == "metaclass" and ast.unparse(k.value).rsplit(".", 1)[-1] == "ABCMeta" for k in cls.keywords)
        template: list[str] = []
        props = _properties(cls)
        handed = _handed_on(cls)
        # a tool class that says it is a base (``BaseTool``, "Base class for calling tools"): its no-op run method
        # (``def run(self, params): pass``; not a no-op ``__call__``) is left to its subclasses, not an optional hook
        words = _words(cls.name.lstrip("_"))
        base = says_tool(cls) and ("Base" in words[:1] + words[-1:]
                                   or bool(_BASE_DOC.search((ast.get_docstring(cls) or "").strip().split("\n")[0])))
        for name, fn in methods.items():
            # abstract, or a no-op hook the class hands on as a function (``func = self.run``) to the wrapper
            # that runs it: ``MotleyTool.run`` is ``pass`` until a subclass overrides it
            if name not in props and (_abstract(fn, abc) or ((name in handed or base and runs_tool(name)
                                                              and not name.startswith("__")) and _abstract(fn, True))):
                template.append(name)
        for fn in methods.values():  # dispatched: ``self.apply(...)`` / ``getattr(self, "apply")`` with no ``apply`` here
            for n in ast.walk(fn):
                called: str | None = None
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                        and n.func.value.id == "self":
                    called = n.func.attr
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "getattr" \
                        and len(n.args) >= 2 and isinstance(n.args[0], ast.Name) and n.args[0].id == "self" \
                        and isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str):
                    called = n.args[1].value
                if called and called not in methods and called not in attrs and called not in template:
                    template.append(called)
        # each subclass describes itself to the model (a description or schema left to it) and runs the tool
        describes = any(_is_accessor(m) and any(w in m.lower() for w in _DESCRIBING) for m in template)
        template = [m for m in template if not _is_accessor(m) and (m == "__call__" or not m.startswith("__"))]
        builds = frozenset(last for fn in methods.values() for n in ast.walk(fn) if isinstance(n, ast.Call)
                           and (last := ast.unparse(n.func).rsplit(".", 1)[-1])[:1].isupper())
        out.append(Shape(f"{index.module}.{path}", frozenset(methods), tuple(template), says_tool(cls),
                         "Tool" in _words(cls.name)[:-1] and describes and any(runs_tool(m) for m in template), builds,
                         _adapter_named(cls.name) and not _literal_named(cls), protocol, frozenset(attrs | bound)))
    return out


# --------------------------------------------------------------------------- a tool base's own subclass that is a base


#: the words of a base class's docstring's first line that say so (``Base class for team tools.``)
_BASE_DOC = re.compile(r"^(an? )?(abstract|base)\b", re.IGNORECASE)


def stub_run(fn: ast.AST) -> bool:
    """A run method that runs nothing: abstract, ``raise NotImplementedError``, ``pass``/``...``, or a generator
    that never yields (``if False: yield``)."""
    if _abstract(fn, True):
        return True
    body = [s for s in getattr(fn, "body", []) if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                                        and isinstance(s.value.value, str))]
    return len(body) == 1 and isinstance(body[0], ast.If) and isinstance(body[0].test, ast.Constant) \
        and body[0].test.value is False and not body[0].orelse


#: the first words of a constructor parameter that hands a wrapper the function it runs (not ``handler=``,
#: ``callback=``: a tool may report through one)
_RUNS_GIVEN = frozenset({"func", "function", "fn", "callable", "coroutine"})


def _holds_callable(cls: ast.ClassDef, runs: list[ast.AST], words: frozenset[str]) -> bool:
    """The class runs a callable its constructor is given (``def __init__(self, card, func): self._func = func``,
    ``invoke`` calling ``self._func(**inputs)``): its instances built around functions are the tools."""
    init = next((s for s in cls.body if isinstance(s, FUNCS) and s.name == "__init__"), None)
    if init is None:
        return False
    params = {a.arg for a in (*init.args.args, *init.args.kwonlyargs)
              if a.arg.lower().split("_")[0] in words & _RUNS_GIVEN}
    held = {t.attr for n in ast.walk(init) if isinstance(n, ast.Assign)
            and any(isinstance(x, ast.Name) and x.id in params for x in ast.walk(n.value))
            for t in n.targets if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
    return bool(held) and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in held
                              and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"
                              for fn in runs for n in ast.walk(fn))


def tool_base(cls: ast.ClassDef, runs: list[ast.AST], named: bool, words: frozenset[str]) -> bool:
    """A class derived from a tool base that is itself a base, not a tool: it declares itself abstract (an abstract
    method of its own, ``ABC`` among its bases, ``metaclass=ABCMeta``), its name or docstring says it is a base
    (``BaseEvolutionTool``, ``_WorktreeToolBase``, "Base class for team tools") and it names no tool (``named``: a
    literal ``name``), it holds a callable its constructor is given and runs that (``LocalFunction(card, func)``),
    or every run method it defines runs nothing (``runs``: those methods; see :func:`_stub`)."""
    if not runs or all(stub_run(fn) for fn in runs):
        return True
    if any(isinstance(s, FUNCS) and "abstractmethod" in {ast.unparse(d).rsplit(".", 1)[-1] for d in s.decorator_list}
           for s in cls.body):
        return True
    if any(ast.unparse(b).rsplit(".", 1)[-1] == "ABC" for b in cls.bases) \
            or any(k.arg == "metaclass" and ast.unparse(k.value).rsplit(".", 1)[-1] == "ABCMeta" for k in cls.keywords):
        return True
    doc = (ast.get_docstring(cls) or "").strip().split("\n")[0]
    words_of = _words(cls.name.lstrip("_"))
    if not named and ("Base" in words_of[:1] + words_of[-1:] or _BASE_DOC.search(doc)):
        return True
    if not named and _runs_a_hook_left_open(cls, runs):
        return True
    return _holds_callable(cls, runs, words)


def _runs_a_hook_left_open(cls: ast.ClassDef, runs: list[ast.AST]) -> bool:
    """Every run method calls a method of the class's own body that only raises ``NotImplementedError`` (crewai-anakin's
    ``AnakinBaseTool._run`` -> ``self._call(args)``, "Shared setup for the Anakin tools"): the class cannot run by
    itself, its subclasses fill the hook in (langchain-send0's ``Send0Tool._run`` -> ``self._fetch``)."""
    open_hooks = {s.name for s in cls.body if isinstance(s, FUNCS) and _abstract(s, False) and s not in runs}  # raises only
    return bool(open_hooks) and all(any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
        and n.func.value.id == "self" and n.func.attr in open_hooks for n in ast.walk(fn)) for fn in runs)
