"""Discovery of the tool forms that name the function the model calls indirectly: a tool *factory* (the tool is
the nested function it returns) and tool schemas dispatched by the called name. Used by :mod:`.forms`."""

from __future__ import annotations

import ast
import builtins
import re
import sys
from collections.abc import Collection, Iterator

from .. import knowledge as kb
from .ancestry import _handler_gives_text, inherited, local_ancestor_roots, name_tables, says_tool
from .index import CALLED_NAME as _CALLED_NAME, FUNCS, Index, literal_str, own_nodes, tool_word
from .model import Tables

__all__ = ["compared_names", "dispatched_pairs", "lookup_tables", "matched_names", "model_listed", "prefixed_methods", "registered_tool_class", "runs_table",
           "returned_function", "table_runner",
           "schema_functions", "tool_schema_names"]

Entry = tuple[str, int, ast.AST, tuple[ast.AST, ...]]
Fn = ast.FunctionDef | ast.AsyncFunctionDef


def _returns(fn: ast.AST) -> list[ast.expr]:
    """The values the function itself returns or, a generator, yields (not those of the functions or classes nested
    in it): a factory that is an (async) generator hands its tool over by ``yield``."""
    out = [n.value for n in own_nodes(fn) if isinstance(n, (ast.Return, ast.Yield)) and n.value is not None]
    out.sort(key=lambda v: (v.lineno, v.col_offset))
    return out


def returned_function(factory: Entry, index: Index) -> Entry | None:
    """The nested function a tool factory returns: by name (``return execute``), or handed to the call it returns
    (``return ToolDef(execute, name="bash").as_tool()``) or yields (``yield FunctionInfo.from_fn(_search, ...)``); the
    first such return wins. None when it returns no
    function of its own (a tool built by another function): the row is then the factory itself."""
    path = factory[0]
    nested = {e[0].rsplit(".", 1)[-1]: e for e in index.defs
              if e[0].rsplit(".", 1)[0] == path and e[3] and e[3][-1] is factory[2]}
    if not nested:
        return None
    bound = {t.id: a.value for a in ast.walk(factory[2]) if isinstance(a, ast.Assign) for t in a.targets
             if isinstance(t, ast.Name)}  # ``tool_def = ToolDef(execute, ...); return tool_def.as_tool()``
    for value in _returns(factory[2]):
        names = [value] if isinstance(value, ast.Name) else [n for n in ast.walk(value) if isinstance(n, ast.Name)]
        names += [n for name in list(names) if isinstance(name, ast.Name) and name.id in bound
                  for n in ast.walk(bound[name.id]) if isinstance(n, ast.Name)]
        for n in names:
            if isinstance(n, ast.Name) and n.id in nested:
                return nested[n.id]
    return None


def registered_tool_class(qn: str | None, cls: ast.ClassDef, index: Index, tables: Tables) -> str | None:
    """A project's own registry decorator on a tool class (``@register_tool("browser") class BrowserTool(BaseTool)``):
    its last name a tool word (``knowledge.TOOL_DECORATOR_WORDS``), imported from the same top-level package as an
    ancestor of the class, and the class or a base named as a tool. -> the framework (that package), or None."""
    if qn is None or not tool_word(qn.rsplit(".", 1)[-1]):
        return None
    root = qn.split(".")[0]
    if root not in local_ancestor_roots(cls, index, tables.ancestor_roots):
        return None
    if not (says_tool(cls) or any("Tool" in b.rsplit(".", 1)[-1] for b in index.bases(cls))):
        return None
    return root.replace("_", "-")


#: words of a name prefix that say its methods are what the model's calls run (``_execute_tool_``, ``tool_``); not
#: ``cmd_``/``do_``/``action_``: a REPL's commands (aider's ``/model``, ``cmd.Cmd``) are the user's, and a tool's own
#: sub-actions (``_action_click`` behind one ``computer`` tool) are not tools of their own
_DISPATCH_WORDS = frozenset({"tool", "tools"})
#: the first word of a method that runs the tool it is given the name of (``run``, ``call_tool``, ``execute``,
#: ``_exec_tool``)
_RUNNING = frozenset({"run", "call", "execute", "exec", "dispatch", "invoke", "handle", "perform"})
#: methods named by the prefix before a class's name dispatch is taken for its tools
MIN_PREFIXED = 2
#: the methods the module's tool schemas must name for an unprefixed ``getattr(self, name)`` to run them as tools
MIN_SCHEMA_NAMED = 3


def _static_prefix(arg: ast.expr) -> str | None:
    """``f"_execute_tool_{name}"`` / ``"tool_" + name`` -> the literal prefix before the variable part."""
    if isinstance(arg, ast.JoinedStr) and len(arg.values) >= 2:
        first, rest = arg.values[0], arg.values[1:]
        if isinstance(first, ast.Constant) and isinstance(first.value, str) and isinstance(rest[0], ast.FormattedValue):
            return first.value
    if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Add) and isinstance(arg.left, ast.Constant) \
            and isinstance(arg.left.value, str) and not isinstance(arg.right, ast.Constant):
        return arg.left.value
    return None


def prefixed_methods(cls: ast.ClassDef, module: ast.Module | None = None, schema_names: Collection[str] = (),
                     ) -> tuple[str, list[Fn]]:
    """Tools a class runs by the called name: a method looks up ``getattr(self, f"<prefix>{name}")`` with a
    prefix that says tool (any prefix in the run method of a class named for tools: ``Toolbox.run``), and the class defines at least :data:`MIN_PREFIXED` methods so
    named (``_execute_tool_click``, ``_execute_tool_scroll``): -> (the prefix, those methods); ("", []) else.
    A prefix that does not say tool (``getattr(self, f"_{name}")``) also names the class's helpers (``_abs``,
    ``_git``): when the ``module``'s text literals name :data:`MIN_PREFIXED` of the methods (the tools' schemas,
    ``_tool("bash", ...)``: repo-bug-hunter, batch 21), only the methods so named are tools.
    No prefix at all (``getattr(self, name)``, ``name`` a parameter of the method): the methods the module's tool
    schemas name (``schema_names``: :func:`tool_schema_names`; agent-switchboard's ``Bridge.dispatch`` over its ``TOOLS``
    list of ``{"name": ..., "inputSchema": ...}``), :data:`MIN_SCHEMA_NAMED` of them at least."""
    methods = [s for s in cls.body if isinstance(s, FUNCS)]
    unprefixed: list[Fn] = []
    for fn in methods:
        strings = {t.id: a.value for a in ast.walk(fn) if isinstance(a, ast.Assign) for t in a.targets
                   if isinstance(t, ast.Name)}  # ``attr = f"_execute_tool_{name}"; getattr(self, attr)``
        for n in ast.walk(fn):
            if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "getattr"
                    and len(n.args) >= 2 and isinstance(n.args[0], ast.Name) and n.args[0].id == "self"):
                continue
            arg = n.args[1]
            runner = "tool" in cls.name.lower() and fn.name.lstrip("_").split("_")[0] in _RUNNING  # Toolbox.run
            found = _prefixed(strings.get(arg.id, arg) if isinstance(arg, ast.Name) else arg, methods, runner)
            if found[1]:
                return _listed(found, module, cls)
            if schema_names and len(unprefixed) < MIN_SCHEMA_NAMED and isinstance(arg, ast.Name) and arg.id in _params(fn):
                unprefixed = [m for m in methods if m.name in schema_names and m is not fn]
    if len(unprefixed) >= MIN_SCHEMA_NAMED:  # ``getattr(self, name)`` over the module's tool schemas: no prefix found
        return "", unprefixed
    return "", []


def _listed(found: tuple[str, list[Fn]], module: ast.Module | None, cls: ast.ClassDef) -> tuple[str, list[Fn]]:
    """Of a prefix that does not say tool, the methods that are no helper of the class: a method its own methods call
    (``self._abs(path)``) is a helper unless the module's text literals name it (a tool's schema:
    ``_tool("bash", ...)``)."""
    prefix, named = found
    if module is None or {w.lower() for w in prefix.replace("-", "_").split("_")} & _DISPATCH_WORDS:
        return found
    called = {n.func.attr for n in ast.walk(cls) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"}
    texts = {n.value for n in ast.walk(module) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    listed = [m for m in named if not m.name.startswith("__")  # ``__init__`` under ``_``
              and (m.name not in called or m.name[len(prefix):] in texts)]
    return (prefix, listed) if len(listed) >= MIN_PREFIXED else found


def _prefixed(arg: ast.expr, methods: list[Fn], runner: bool = False) -> tuple[str, list[Fn]]:
    """(the prefix, the methods named by it) when the prefix says tool, or any prefix when the lookup is a tool
    class's run method (``runner``: lcode's ``Toolbox.run(name, args)``: ``getattr(self, f"t_{name}")``); ("", [])
    else."""
    prefix = _static_prefix(arg)
    words = {w.lower() for w in prefix.replace("-", "_").split("_")} if prefix else set()
    if not prefix or not (words & _DISPATCH_WORDS or runner):
        return "", []
    named = [m for m in methods if m.name.startswith(prefix) and len(m.name) > len(prefix)]
    return (prefix, named) if len(named) >= MIN_PREFIXED else ("", [])




def compared_names(fn: ast.AST, schemas: Collection[str] | None,
                   module: ast.Module | None = None) -> list[tuple[str, tuple[int, int]]]:
    """Tools a function runs by the called name in ``if``/``elif`` branches (``if tool_name == "mem0_search":``)
    naming the JSON schemas the module declares (``schemas``: a model is given them), two at least: (name, the
    branch's lines). The row is the dispatching function. ``schemas`` None: the function is named to run tools
    (:func:`tool_runner`: hazzel's ``run_tool(tool_name, arguments)``, its schemas in another module): any name
    whose branch runs something, three at least. With ``module``, a function named to run actions (or a tool runner
    comparing a bare ``tool``/``action``: blackreach's ``_execute_action(action, args)``, devagent's
    ``_execute_actions``: ``if tool == "write_file":``) is taken only when the module lists two of the names to a
    model (:func:`model_listed`: a prompt's text, a schema's ``const``/``enum``)."""
    out: list[tuple[str, tuple[int, int]]] = []
    loose = 0
    primary: list[tuple[int, int]] = []  # the branches on the called name itself (``name``, ``tool_name``)
    handed = {_first_param(fn), *_params(fn) & {"name"}} if tool_runner(fn) else set()  # ``call_tool(self, name, a)``
    for n in own_nodes(fn):
        test = n.test if isinstance(n, ast.If) else None
        if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq) \
                or not isinstance(test.left, (ast.Name, ast.Attribute)):
            continue
        exact = bool(_CALLED_NAME.search(ast.unparse(test.left)))
        if not exact and not (isinstance(test.left, ast.Name) and (test.left.id in handed or module is not None
                                                                    and _ACTION_VAR.match(test.left.id))):
            continue
        value = test.comparators[0]
        assert isinstance(n, ast.If)
        lines = (n.lineno, max(getattr(st, "end_lineno", None) or st.lineno for st in n.body))
        called = exact or isinstance(test.left, ast.Name) and test.left.id in handed
        if called:
            primary.append(lines)
        elif any(a < n.lineno <= b for a, b in primary):
            continue  # an action of one tool, compared inside the called name's branch (``elif name == "manage_plugins":
            # action = args.get("action"); if action == "list":``): xdharness, batch 21
        if isinstance(value, ast.Constant) and isinstance(value.value, str) \
                and (value.value in schemas if schemas is not None else _runs_something(n.body, fn)) \
                and value.value not in {name for name, _ in out}:
            out.append((value.value, lines))
            loose += not exact
    out.sort(key=lambda c: c[1])
    if len(out) < (2 if schemas is not None else 3) or not _runs_something(getattr(fn, "body", []), fn):
        return []  # (or the function only reads values: a summary of the call, ``s["path"] = arguments.get("path")``)
    if schemas is None and module is not None and (loose or not _tool_named(fn)) \
            and len(model_listed(module, {name for name, _ in out})) < 2:
        return []  # an action/bare-name dispatch whose names no prompt or schema gives the model
    return out


#: a bare compared name that holds the model's chosen tool or action (``action``, ``tool``, ``action_type``)
_ACTION_VAR = re.compile(r"^_?(tool|action)(_?(name|type|id))?$", re.IGNORECASE)
#: a schema key whose value lists the values a model may give (``{"const": "rename_file"}``, ``"enum": [...]``)
_LISTING_KEYS = frozenset({"const", "enum"})
#: a string this long with a space in it is prose (a prompt), where a name counts as listed when it is a word of it
_PROSE = 40


def model_listed(module: ast.Module, names: Collection[str]) -> set[str]:
    """The ``names`` the module lists to a model: a word of a prompt's text (a string constant of :data:`_PROSE`
    characters or more with a space: ``"- click: Click element by ID. {\"action\":\"click\"}"``), or a JSON schema's
    ``const``/``enum`` value (``"tool": {"type": "string", "const": "rename_file"}``)."""
    out: set[str] = set()
    words = {n: re.compile(rf"(?<![\w-]){re.escape(n)}(?![\w-])") for n in names}
    docstrings: set[int] = set()  # a docstring tells the reader, not the model
    for node in ast.walk(module):
        if isinstance(node, (ast.Module, ast.ClassDef, *FUNCS)) and node.body and isinstance(node.body[0], ast.Expr):
            docstrings.add(id(node.body[0].value))
        elif isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if k is not None and literal_str(k) in _LISTING_KEYS:
                    values = v.elts if isinstance(v, (ast.List, ast.Tuple, ast.Set)) else [v]
                    out.update(s for s in map(literal_str, values) if s in words)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) >= _PROSE \
                and " " in node.value and id(node) not in docstrings:
            out.update(n for n, w in words.items() if n not in out and w.search(node.value))
    return out


def tool_runner(fn: ast.AST) -> bool:
    """A function named to run the tool or action it is given the name of: the words ``tool``/``action`` (or their
    plurals) and a running verb (``run_tool``, ``execute_tool``, ``_dispatch_tool_call``, ``handle_tool``,
    ``_execute_action``, ``perform_actions``)."""
    name = getattr(fn, "name", "").lower()
    if "tool" not in name and "action" not in name:
        return False
    words = set(name.split("_"))
    return bool(words & _RUNNER_WORDS) and bool(words & _RUNNING)


def _first_param(fn: ast.AST) -> str | None:
    """The function's first parameter past ``self``/``cls`` (``name`` of ``run_tool(name, inputs)``)."""
    args = getattr(fn, "args", None)
    params = [a.arg for a in (*args.posonlyargs, *args.args)] if args is not None else []
    params = params[1:] if params[:1] in (["self"], ["cls"]) else params
    return params[0] if params else None


def _params(fn: ast.AST) -> set[str]:
    args = getattr(fn, "args", None)
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} if args is not None else set()


def _tool_named(fn: ast.AST) -> bool:
    return "tool" in set(getattr(fn, "name", "").lower().split("_"))


_RUNNER_WORDS = frozenset({"tool", "tools", "action", "actions"})


def _case_names(pattern: ast.pattern) -> list[str]:
    if isinstance(pattern, ast.MatchValue) and isinstance(pattern.value, ast.Constant) \
            and isinstance(pattern.value.value, str):
        return [pattern.value.value]
    if isinstance(pattern, ast.MatchOr):
        return [n for p in pattern.patterns for n in _case_names(p)]
    return []


#: methods a case calls that only read the value they are called on (``options.get("clickType")``)
_READS = frozenset({"get", "keys", "values", "items", "copy", "lower", "upper", "strip", "split", "startswith",
                    "endswith", "format"})


def _runs_something(body: list[ast.stmt], fn: ast.AST) -> bool:
    """A case body calls something beyond Python's builtins (``len``, ``isinstance``, ``float``, an exception it
    raises) and reads of a value (``.get``): it runs code, as a case running a tool does; one that only builds and
    returns a value (a dict of keyword arguments) prepares a call, it does not make one."""
    bound = {a.arg for a in ast.walk(fn) if isinstance(a, ast.arg)} | {
        t.id for t in ast.walk(fn) if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store)}
    for st in body:
        for n in ast.walk(st):
            if isinstance(n, (ast.Await, *FUNCS, ast.Yield, ast.YieldFrom)):
                return True
            if not isinstance(n, ast.Call):
                continue
            f = n.func
            if isinstance(f, ast.Name) and f.id in _BUILTINS and f.id not in bound:
                continue
            if isinstance(f, ast.Attribute) and f.attr in _READS:
                continue
            return True
    return False


_BUILTINS = frozenset(dir(builtins))


#: classes of Python's own library a sandbox's OS-call table names by their bare class name (``Path.exists``, ``date.today``)
_STDLIB_CLASSES = frozenset({"Path", "PurePath", "PosixPath", "PurePosixPath", "WindowsPath", "date", "datetime"})


def _python_own(name: str) -> bool:
    """The name is a callable of Python itself, as the code it runs calls it: a builtin (``open``) or an attribute of a
    standard library module or class (``os.getenv``, ``time.sleep``, ``Path.read_text``)."""
    head, dot, _rest = name.partition(".")
    if not dot:
        return name in _BUILTINS
    return head in sys.stdlib_module_names or head in _STDLIB_CLASSES


def python_calls(names: list[str]) -> bool:
    """Cases naming Python's own calls, most of them (two thirds; three dotted ones at least, a bare builtin such as
    ``list`` or ``help`` being a plausible tool name): an interpreter's or sandbox's table answering the OS calls of the
    code it runs (``match function_name: case 'Path.exists': ...``), not tools a model calls."""
    own = [n for n in names if _python_own(n)]
    return sum("." in n for n in own) >= 3 and 3 * len(own) >= 2 * len(names)


def matched_names(fn: ast.AST) -> list[tuple[str, tuple[int, int], list[ast.AST]]]:
    """Tools a function runs by the called name in a ``match`` (``match tool_name: case "open_path": ...``; or on
    the first parameter of a function named to run tools, :func:`tool_runner`: solanacy's ``run_tool(name,
    inputs)``: ``match name:``, three cases running something), two string cases at least: (name, the case's lines, the functions the case body defines: the code it runs
    when it wraps it in one, else none, and the row is the dispatching function itself)."""
    out: list[tuple[str, tuple[int, int], list[ast.AST]]] = []
    handed = _first_param(fn) if tool_runner(fn) else None
    for n in own_nodes(fn):
        if not isinstance(n, ast.Match) or not isinstance(n.subject, (ast.Name, ast.Attribute)):
            continue
        exact = bool(_CALLED_NAME.search(ast.unparse(n.subject)))
        if not exact and not (isinstance(n.subject, ast.Name) and n.subject.id == handed):
            continue  # neither the call's name nor the name a tool runner is handed (``run_tool(name, inputs)``)
        cases = [(name, case) for case in n.cases for name in _case_names(case.pattern)]
        if len(cases) < 2 or not any(_runs_something(case.body, fn) for _name, case in cases):
            continue  # every case only computes a value (the arguments of the call): no case runs a tool
        if not exact and sum(_runs_something(case.body, fn) for _name, case in cases) < 3:
            continue  # a runner's own parameter: three cases running something, as its ``if`` branches
        if python_calls([name for name, _case in cases]):
            continue  # a sandbox's OS-call table (``case 'Path.exists'``, ``case 'os.getenv'``): not tools
        for name, case in cases:
            defs = [d for st in case.body for d in ast.walk(st) if isinstance(d, FUNCS)]
            end = max(getattr(st, "end_lineno", None) or st.lineno for st in case.body)
            out.append((name, (case.pattern.lineno, end), list(defs)))
    out.sort(key=lambda c: c[1])
    return out


_SCHEMA_KEYS = frozenset({"parameters", "input_schema", "inputSchema", "parameters_json_schema"})


def tool_schema_names(tree: ast.Module) -> set[str]:
    """The literal names of the file's tools' JSON schemas: dict literals with a ``"name"`` key and a
    ``"parameters"``/``"input_schema"`` key (``{"type": "function", "function": {"name": ...}}`` too), and the keys of
    a dict of such schemas keyed by the tool's name (``{"end_call": {"description": ..., "parameters": {...}}}``)."""
    out: set[str] = set()
    handed: set[str] = set()  # names used in a ``tools=``/``functions=`` argument
    tables: list[tuple[str, ast.Dict]] = []  # ``NAME = {...}``
    for n in ast.walk(tree):
        if isinstance(n, ast.Dict):
            keys = {literal_str(k): v for k, v in zip(n.keys, n.values) if k is not None}
            name = literal_str(keys.get("name")) if "name" in keys else None
            if name and keys.keys() & _SCHEMA_KEYS:
                out.add(name)
            for key, value in keys.items():
                inner = {literal_str(k) for k in value.keys if k is not None} if isinstance(value, ast.Dict) else set()
                if key and "description" in inner and inner & _SCHEMA_KEYS and "name" not in inner:
                    out.add(key)
        elif isinstance(n, ast.Call) and n.keywords:
            kws = {k.arg: k.value for k in n.keywords if k.arg}
            name = literal_str(kws["name"]) if "name" in kws else None
            if name and kws.keys() & _SCHEMA_KEYS:  # ``types.FunctionDeclaration(name="x", parameters={...})``
                out.add(name)
            for kw in _HANDING & kws.keys():
                handed.update(x.id for x in ast.walk(kws[kw]) if isinstance(x, ast.Name))
        elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Dict) and len(n.targets) == 1 \
                and isinstance(n.targets[0], ast.Name):
            tables.append((n.targets[0].id, n.value))
    for bound, d in tables:  # a name -> function table whose functions (or names) a model is handed
        if bound in handed and len(d.keys) >= 2 and all(isinstance(v, (ast.Name, ast.Attribute)) for v in d.values):
            out.update(k for k in map(literal_str, d.keys) if k)
    return out | built_schema_names(tree)


def _builds_schema(fn: Fn) -> tuple[int, str] | None:
    """A function building one tool schema from its parameter: it returns a dict (written out, or bound to a name
    it returns) holding ``"name": <param>`` beside a schema key (:data:`_SCHEMA_KEYS`, at any depth: ``{"type":
    "function", "function": {"name": name, "parameters": ...}}``), or a call with ``name=<param>`` and a schema
    keyword (``types.Tool(name=name, inputSchema=...)``). -> (the parameter's position, its name)."""
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    bound = {t.id: n.value for n in own_nodes(fn) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Dict)
             for t in n.targets if isinstance(t, ast.Name)}
    for ret in own_nodes(fn):
        if not isinstance(ret, ast.Return) or ret.value is None:
            continue
        value = bound.get(ret.value.id) if isinstance(ret.value, ast.Name) else ret.value
        named: ast.expr | None = None
        if isinstance(value, ast.Dict):
            for d in (n for n in ast.walk(value) if isinstance(n, ast.Dict)):
                keys = {literal_str(k): v for k, v in zip(d.keys, d.values) if k is not None}
                if keys.keys() & _SCHEMA_KEYS and "name" in keys:
                    named = keys["name"]
                    break
        elif isinstance(value, ast.Call):
            kws = {k.arg: k.value for k in value.keywords if k.arg}
            named = kws.get("name") if kws.keys() & _SCHEMA_KEYS else None
        if isinstance(named, ast.Name) and named.id in params:
            return params.index(named.id), named.id
    return None


def built_schema_names(tree: ast.Module) -> set[str]:
    """s56: the literal names a module hands its own schema builder (:func:`_builds_schema`: ``_tool("echo_message",
    "Echo", {...})`` with ``def _tool(name, title, properties): return {"name": name, "inputSchema": ...}``), two at
    least: the names of its tools' schemas, as those written out (mcptoon's demo server, mcp-ssh-gateway)."""
    builders = {fn.name: found for fn in tree.body if isinstance(fn, FUNCS) and (found := _builds_schema(fn))}
    if not builders:
        return set()
    out: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in builders:
            position, param = builders[n.func.id]
            arg = n.args[position] if position < len(n.args) else next(
                (k.value for k in n.keywords if k.arg == param), None)
            text = literal_str(arg) if arg is not None else None
            if text:
                out.add(text)
    return out if len(out) >= 2 else set()


#: a model API's function schema (an MCP/strands ``inputSchema`` spec is registered by its server or loader's own form)
_MODEL_SCHEMA_KEYS = _SCHEMA_KEYS - {"inputSchema"}


def schema_functions(tree: ast.Module) -> list[tuple[str, str]]:
    """A module's own tool schemas bound at its top level (``TOOL_DEFS = [{"type": "function", "function": {"name":
    "web_fetch", "parameters": {...}}}]``, ``TOOL_DEF = {...}``) naming a function the module defines at its top level
    (``def web_fetch(url)``): the loader finds the function by the schema's name. -> (tool name, function name)."""
    own = {s.name for s in tree.body if isinstance(s, FUNCS)}
    out: list[tuple[str, str]] = []
    for stmt in tree.body:
        value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
        if not isinstance(value, (ast.Dict, ast.List, ast.Tuple)):
            continue
        for n in ast.walk(value):
            keys = {literal_str(k): v for k, v in zip(n.keys, n.values) if k is not None} if isinstance(n, ast.Dict) else {}
            name = literal_str(keys.get("name")) if "name" in keys else None
            if name and name in own and keys.keys() & _MODEL_SCHEMA_KEYS and (name, name) not in out:
                out.append((name, name))
    return out


#: the keywords that hand a model its tools (``create(..., tools=[schema(f) for f in TOOL_FUNCTIONS.values()])``)
_HANDING = frozenset({"tools", "functions"})


def dispatched_pairs(d: ast.Dict, schema_names: Collection[str]) -> list[tuple[str, ast.expr]]:
    """A dispatch dict's (tool name, function reference) pairs: at least two literal keys, most of them the names of
    the file's tool schemas (not ``hooks={"on_start": self._on_start}``); else none."""
    pairs = [(literal_str(k), v) for k, v in zip(d.keys, d.values) if k is not None]
    if len(pairs) < 2 or 2 * sum(k in schema_names for k, _ in pairs) < len(pairs):
        return []
    return [(k, v) for k, v in pairs if k is not None] if all(k is not None for k, _ in pairs) else []


def lookup_tables(cls_path: str, cls: ast.ClassDef, index: Index, tables: Tables,
                  ) -> Iterator[tuple[str, str, list[tuple[str, ast.expr]]]]:
    """The ``self.<attr> = {"name": ref, ...}`` dicts (two literal keys at least) the class's methods assign, where a
    method of the class or an ancestor indexes ``self.<attr>`` by the tool call's name (``ancestry.name_tables``).
    -> (attr, the assigning method's name, the (key, reference) pairs)."""
    indexed = set(name_tables(cls)) | {k for k in inherited(cls_path, index, tables.text_dispatch) if k.startswith("[")}
    if not indexed:
        return
    for method in cls.body:
        if not isinstance(method, FUNCS):
            continue
        for st in ast.walk(method):
            if not isinstance(st, (ast.Assign, ast.AnnAssign)) or not isinstance(st.value, ast.Dict):
                continue
            bound = st.targets if isinstance(st, ast.Assign) else [st.target]
            attrs = [t.attr for t in bound if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                     and t.value.id == "self" and f"[{t.attr}]" in indexed]
            keyed = [(literal_str(k), v) for k, v in zip(st.value.keys, st.value.values)]
            named = [(k, v) for k, v in keyed if k is not None]
            if attrs and len(named) >= 2 and len(named) == len(keyed):
                yield attrs[0], method.name, named


def table_runner(table: str, tree: ast.Module) -> str | None:
    """The module-level function that looks a tool up in the module's dispatch dict ``table`` (``func =
    TOOL_FUNCS.get(name)``, ``TOOL_FUNCS[name]``) and calls it in a ``try`` whose broad handler returns the exception's
    text (lindwyrm's ``run_tool``: ``except Exception as e: return f"Error running {name}: {e}", True``): its name,
    the runner that turns what the tools raise into text (as a base ``run`` does, ``ancestry.text_dispatchers``)."""
    return next((fn.name for fn in tree.body if isinstance(fn, FUNCS) and runs_table(fn, table)), None)


def runs_table(fn: ast.FunctionDef | ast.AsyncFunctionDef, table: str) -> bool:
    """Whether ``fn`` looks a tool up in the dict named ``table`` and calls it in a ``try`` whose broad handler
    returns the exception's text (:func:`table_runner`)."""
    bound: set[str] = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and _looks_up(n.value, table):
            bound.add(n.targets[0].id)
    for n in ast.walk(fn):
        if not isinstance(n, ast.Try) or not any(_handler_gives_text(h, fn) for h in n.handlers):
            continue
        if any(isinstance(c, ast.Call) and ((isinstance(c.func, ast.Name) and c.func.id in bound)
                                            or _looks_up(c.func, table)) for s in n.body for c in ast.walk(s)):
            return True
    return False


def _looks_up(node: ast.expr, table: str) -> bool:
    """``table.get(name)`` / ``table[name]``."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Name) and node.value.id == table
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
        and isinstance(node.func.value, ast.Name) and node.func.value.id == table
