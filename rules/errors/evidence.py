"""TFH401's evidence that a function feeds a tool beyond its names (s41): a tool run in a ``try`` it handles, a
handler building a tool's error, a class serving its methods by name over a channel; and LangChain's
content-and-artifact tools, whose artifact the model does not read."""

from __future__ import annotations

import ast
import functools
import os
from pathlib import PurePath
from typing import Callable, Iterator

import libcst as cst

from ...linter.api import Knowledge, Screen, console_scripts, imported_by, importing_modules, shares_import, string_literal, walk_in_scope
from .model import words
from .remote import runs_tool

#: s53: whether a helper's handler (with its ``try``) binds no exception text (:meth:`~.text.ExceptionText._exempt`)
Exempt = Callable[[cst.Try, cst.ExceptHandler], bool]


def dispatches_tool(func: cst.FunctionDef, knowledge: Knowledge, tool_result: Callable[[cst.CSTNode], bool]) -> bool:
    """The function runs a tool in a ``try`` it handles (``retval = await coded_tool.async_invoke(args)`` ...
    ``except Exception as e: retval = f"Error: {e}"``; TFH402's tool run, :func:`~.remote.runs_tool`), or one
    of its handlers builds a tool's result or error (``error = ActToolError(message=f"{e}")``, a constructor
    named for a tool or action: ``tool_result``): what it returns is a tool's answer, read by the calling agent."""
    for n in walk_in_scope(func.body):
        if isinstance(n, cst.Try) and n.handlers and (runs_tool(n.body, knowledge) or runs_with_tool_args(n.body, knowledge)):
            return True
        if isinstance(n, cst.ExceptHandler) and (any(tool_result(c) for c in walk_in_scope(n.body))
                                                 or announces_tool_result(n, knowledge)):
            return True
    return False


def announces_tool_result(handler: cst.ExceptHandler, knowledge: Knowledge) -> bool:
    """s46: the handler hands its text to a call announcing a tool's result (``AgentEventBus.emit_tool_result(
    intent, res)`` after ``res = f"...{exc}"``: a callee named with a tool word and ``TOOL_RESULT_EVENT_WORDS``,
    an argument naming the caught exception or a name the handler bound)."""
    bound: set[str] = set()
    if handler.name is not None and isinstance(handler.name.name, cst.Name):
        bound.add(handler.name.name.value)
    nodes = list(walk_in_scope(handler.body))
    for n in nodes:
        if isinstance(n, cst.AssignTarget) and isinstance(n.target, cst.Name):
            bound.add(n.target.value)
    for n in nodes:
        if isinstance(n, cst.Call) and _announces(_last_words(n.func), knowledge) and any(
            isinstance(m, cst.Name) and m.value in bound for a in n.args for m in walk_in_scope(a.value)
        ):
            return True
    return False


def announces_tool_result_ast(handler: ast.ExceptHandler, knowledge: Knowledge) -> bool:
    """:func:`announces_tool_result` on the ``ast`` tree (the screen)."""
    bound = {handler.name} if handler.name else set()
    nodes = [c for stmt in handler.body for c in ast.walk(stmt)]
    bound.update(t.id for n in nodes if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name))
    return any(
        isinstance(n, ast.Call) and _announces(_last_words_ast(n.func), knowledge) and any(
            isinstance(m, ast.Name) and m.id in bound
            for a in (*n.args, *(k.value for k in n.keywords)) for m in ast.walk(a)
        )
        for n in nodes
    )


def _announces(name_words: set[str], knowledge: Knowledge) -> bool:
    return bool(name_words & knowledge.tool_evidence_words and name_words & knowledge.tool_result_event_words)


def runs_with_tool_args(body: cst.BaseSuite, knowledge: Knowledge) -> bool:
    """s46: the ``try`` calls a callable with a tool's arguments unpacked (``func(**tool_params)``,
    ``handler(*tool_args)``, ``fn(**call.tool_input)``: a ``*``/``**`` argument whose name, or last attribute, is
    named with ``TOOL_RUN_RECEIVER_WORDS``): a tool runner, whatever the callable is called (mini-code-cli's
    ``call_function_with_timeout(func, tool_params, name)``)."""
    for n in walk_in_scope(body):
        if isinstance(n, cst.Call) and any(
            a.star and _last_words(a.value) & knowledge.tool_run_receiver_words for a in n.args
        ):
            return True
    return False


def runs_with_tool_args_ast(body: list[ast.stmt], knowledge: Knowledge) -> bool:
    """:func:`runs_with_tool_args` on the ``ast`` tree (the screen)."""
    for stmt in body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Call):
                starred = [a.value for a in n.args if isinstance(a, ast.Starred)]
                starred += [k.value for k in n.keywords if k.arg is None]
                if any(_last_words_ast(v) & knowledge.tool_run_receiver_words for v in starred):
                    return True
    return False


def _last_words(node: cst.BaseExpression) -> set[str]:
    if isinstance(node, cst.Name):
        return words(node.value)
    if isinstance(node, cst.Attribute):
        return words(node.attr.value)
    return set()


def _last_words_ast(node: ast.expr) -> set[str]:
    if isinstance(node, ast.Name):
        return words(node.id)
    if isinstance(node, ast.Attribute):
        return words(node.attr)
    return set()


def content_and_artifact(func: cst.FunctionDef, knowledge: Knowledge) -> bool:
    """A tool declared to return ``(content, artifact)`` (``@tool(response_format="content_and_artifact")``):
    the model reads the content only."""
    key, literal = knowledge.artifact_response_format
    return any(
        isinstance(d.decorator, cst.Call) and any(
            a.keyword is not None and a.keyword.value == key and string_literal(a.value) == literal for a in d.decorator.args
        )
        for d in func.decorators
    )

def serves_by_name(method: ast.stmt, channel_words: tuple[str, ...]) -> bool:
    """A method that calls one of its class's own methods by a name it was sent (``fn = getattr(self,
    action.value)`` ... ``await fn(**params)``, or ``getattr(self, name)(...)``; not a literal or an f-string
    name: an attribute read by prefix) and talks over a channel (a method of a receiver named with a queue,
    channel, socket... word: ``self.channel.send_to(...)``)."""
    if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    bound: set[str] = set()
    dispatch = channel = False
    for n in ast.walk(method):
        if isinstance(n, ast.Assign) and _getattr_self(n.value):
            bound.update(t.id for t in n.targets if isinstance(t, ast.Name))
    for n in ast.walk(method):
        if not isinstance(n, ast.Call):
            continue
        if _getattr_self(n.func) or (isinstance(n.func, ast.Name) and n.func.id in bound):
            dispatch = True
        elif isinstance(n.func, ast.Attribute):
            receiver = n.func.value
            name = receiver.attr if isinstance(receiver, ast.Attribute) else receiver.id if isinstance(receiver, ast.Name) else ""
            channel = channel or any(w in name.lower() for w in channel_words if len(w) > 3)
    return dispatch and channel


def may_serve_by_name(screen: Screen) -> bool:
    """Whether the module calls ``getattr(self, name)`` anywhere (the screen's calls, once per file): no method
    serves by name (:func:`serves_by_name`) without such a call, so none of the module's classes needs reading."""
    return screen.memo("tfh401.getattr_self", lambda: any(_getattr_self(c) for c in screen.calls))


def _getattr_self(node: ast.AST) -> bool:
    """``getattr(self, name)`` with a name that is neither a literal nor built from one (an f-string)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
        and len(node.args) >= 2 and isinstance(node.args[0], ast.Name) and node.args[0].id == "self" \
        and isinstance(node.args[1], (ast.Name, ast.Attribute, ast.Subscript))


def _handler_returns(helper: cst.FunctionDef, exempt: Exempt | None = None) -> Iterator[tuple[str, cst.Return]]:
    """Each ``return`` under a handler that names what it caught (``except E as e``), with that name; not under a
    handler ``exempt`` says binds no exception text (s53: format-repair feedback, the project's own refusal)."""
    for t in walk_in_scope(helper.body):
        if not isinstance(t, cst.Try):
            continue
        for h in t.handlers:
            if h.name is not None and isinstance(h.name.name, cst.Name) and not (exempt is not None and exempt(t, h)):
                for r in walk_in_scope(h.body):
                    if isinstance(r, cst.Return):
                        yield h.name.name.value, r


def exception_positions(helper: cst.FunctionDef) -> frozenset[int]:
    """Where a helper returns the exception one of its handlers caught: ``-1`` the value itself (``return e``),
    ``i`` the i-th item of a returned tuple (``return None, e``: s41, issue 24 D5, unpacked by the caller as
    ``out, err = _invoke(...)``)."""
    found: set[int] = set()
    for bound, r in _handler_returns(helper):
        if isinstance(r.value, cst.Name) and r.value.value == bound:
            found.add(-1)
        elif isinstance(r.value, cst.Tuple):
            found.update(i for i, el in enumerate(r.value.elements)
                         if isinstance(el.value, cst.Name) and el.value.value == bound)
    return frozenset(found)


def text_positions(helper: cst.FunctionDef, exempt: Exempt | None = None) -> frozenset[int]:
    """Where a helper returns a failure's text beside a literal ``None`` (``return None, f"request failed: {err}"``:
    s44, opensre's ``_http_get``), the i-th item of the returned tuple: the caller's unpacked name there holds the
    text only when the call failed. A ``None`` in the tuple says which slot the success fills; without one (``return
    ok, str(e)``) the text may be a message of the success too (s43: 10 false of 25), not followed. s53: nor a
    handler ``exempt`` says binds no exception text (screaming-frog's ``_compile_row_filter``: ``except re.error as
    e: return None, None, None, f"ERROR: Invalid regex pattern: {e}"`` of the model's filter; quick-mcp-shell's
    ``_settings_or_error``: ``except ConfigurationError as exc: return None, str(exc)``), as in place."""
    found: set[int] = set()
    for bound, r in _handler_returns(helper, exempt):
        if isinstance(r.value, cst.Tuple):
            items = [el.value for el in r.value.elements]
            if any(isinstance(v, cst.Name) and v.value == "None" for v in items):
                found.update(i for i, v in enumerate(items) if _text_of(v, bound))
    return frozenset(found)


def _text_of(value: cst.BaseExpression, bound: str) -> bool:
    """``str(e)``, ``repr(e)``, an f-string formatting ``e`` (or ``str(e)``)."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("str", "repr"):
        return len(value.args) == 1 and isinstance(value.args[0].value, cst.Name) and value.args[0].value.value == bound
    if isinstance(value, cst.FormattedString):
        return any(
            isinstance(part, cst.FormattedStringExpression)
            and (
                (isinstance(part.expression, cst.Name) and part.expression.value == bound)
                or _text_of(part.expression, bound)
            )
            for part in value.parts
        )
    return False


def tools_module_parts(knowledge: Knowledge) -> Callable[[list[str]], bool]:
    """Whether a module of the project (its dotted name's parts) is named for tools, and is not a test, example or
    benchmark."""
    k = knowledge

    def accepts(parts: list[str]) -> bool:
        if any(p.lower().startswith(k.tool_importer_skipped_prefixes) for p in parts):
            return False
        return any(words(p) & k.tool_evidence_words for p in parts) \
            or any(n in p.lower() for p in parts for n in k.tool_evidence_name_parts)
    return accepts


def imported_by_tools(name: str, path: str, knowledge: Knowledge) -> bool:
    """A tools module of the same project imports ``name`` from the module at ``path`` (``tools/build.py``: ``from
    ..incremental import full_build``): its result is a tool's answer, though nothing in its own module names
    tools. Tests, examples, benchmarks and evaluations do not count."""
    return name in imported_by(path, tools_module_parts(knowledge), "tools")


def command_line_only(path: str, knowledge: Knowledge, _seen: frozenset[str] = frozenset()) -> bool:
    """s53: the module at ``path`` is imported by modules of its project (``from .install import plan``, ``from . import
    install``, ``import pkg.install``: :func:`importing_modules`), every one of them the project's command line (a module
    or package directory named ``cli``, ``__main__`` or ``commands``: ``COMMAND_LINE_MODULE_NAMES``) that serves no tool
    itself (its text names no tool registration nor an MCP server class: ``COMMAND_LINE_TOOL_HINTS``; portal's
    ``cli.py`` is its MCP server): what the module's functions return goes to the person or the job at the command
    line (``mailmcp/install.py``, imported only by ``mailmcp/cli.py``). A module no other imports says nothing.
    s54 (issue 24): the command line is also a module a console script declared beside the package runs
    (:func:`console_scripts`: harflow's ``harflow-setup = harflow_mcp.setup_client:main``), and an importer that is
    itself imported only by the command line (harflow's ``clients/__init__.py``, imported only by ``setup_client``,
    for ``clients/vibe.py``), to a depth of :data:`COMMAND_LINE_DEPTH` modules; a package's ``__init__`` is read as
    any module (its importers: ``from . import clients``, ``from .clients import Name``)."""
    importers = importing_modules(path)
    if not importers:
        return False
    names = knowledge.command_line_module_names
    # s54: the console scripts, the importers' own importers and a package's ``__init__`` are read only where no
    # package directory of the module says tools (``oxygenai/tools/file_ops.py``, re-exported by ``tools/__init__``
    # that the CLI imports, are the agent's tools the command runs: 4 true lost on batches 1-25 otherwise)
    extended = not any(words(d) & knowledge.tool_evidence_words
                       for d in package_dirs(os.path.dirname(os.path.abspath(path)), knowledge.report_directory_depth))
    if not extended and (_seen or os.path.basename(path) == "__init__.py"):
        return False
    scripts = console_scripts(path) if extended else frozenset()
    seen = _seen | {os.path.realpath(path)}

    def command_line(parts: tuple[str, ...], text: str, file: str) -> bool:
        if knowledge.command_line_tool_hints.search(text) is not None:
            return False
        if any(p in names or p.lstrip("_") in names for p in parts[1:]):
            return True
        dotted = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if dotted in scripts:
            return True
        return extended and len(seen) < COMMAND_LINE_DEPTH and os.path.realpath(file) not in seen \
            and command_line_only(file, knowledge, seen)

    return all(command_line(parts, text, file) for parts, text, file in importers)


#: s54: how many modules deep :func:`command_line_only` follows importers that only the command line imports
COMMAND_LINE_DEPTH = 4


def names_tools(tree: ast.AST, knowledge: Knowledge) -> bool:
    """s53: the module's ``ast`` names a tool registration or an MCP server class as
    :func:`command_line_only` reads an importer's text (``COMMAND_LINE_TOOL_HINTS``): a decorator ``@server.call_tool()``
    or one ending in ``tool``/``tools``, ``FastMCP``, ``on_call_tool=``..."""
    hints = knowledge.command_line_tool_hints
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for dec in n.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
                if hints.search("@" + name) or hints.search(name):
                    return True
        elif isinstance(n, ast.Attribute) and hints.search(n.attr) or isinstance(n, ast.Name) and hints.search(n.id):
            return True
        elif isinstance(n, ast.keyword) and n.arg and hints.search(n.arg):
            return True
    return False


def serves_tools(tree: ast.Module, class_name: str, path: str, knowledge: Knowledge) -> bool:
    """The class calls its own methods by a name it was sent (:func:`serves_by_name`) in a module that imports a
    project name a tools module imports too (the ``Channel`` an agent's tools send their action over: camel-oasis's
    ``Platform``): its methods' results are the answers those tools read back."""
    words_ = knowledge.message_channel_words
    return any(
        isinstance(c, ast.ClassDef) and c.name == class_name and any(serves_by_name(m, words_) for m in c.body)
        for c in tree.body
    ) and shares_import(path, tree, tools_module_parts(knowledge), "tools")


@functools.lru_cache(maxsize=4096)
def _package_dirs_of(directory: str, depth: int) -> tuple[str, ...]:
    parents: list[str] = []
    current = directory
    for _ in range(depth):
        parents.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    packages = [i for i, d in enumerate(parents) if os.path.isfile(os.path.join(d, "__init__.py"))]
    if not packages:
        return (os.path.basename(directory),)  # a loose module (a framework's `tools/` directory of files)
    return tuple(os.path.basename(d) for d in reversed(parents[: packages[-1] + 1]))


def tool_named_module(path: str, dirs: list[str], knowledge: Knowledge) -> bool:
    """The module or one of its package directories (``dirs``, :func:`module_dirs`) is named for tools or an MCP
    server (``tools/``, ``jina_tool.py``, ``k8s_mcp/``): see :meth:`~.text.ExceptionText._tool_names`."""
    stem = PurePath(path).stem
    names = [stem, *dirs]
    return any(words(n) & knowledge.tool_evidence_words for n in names) \
        or any(p in n.lower() for n in names for p in knowledge.tool_evidence_name_parts)


def module_dirs(path: str, depth: int) -> list[str]:
    """The package directories of the module at ``path`` (:func:`package_dirs`); a path that is not a file on disk
    (source given on stdin with its file name) has only the names it gives."""
    if os.path.isfile(path):
        return package_dirs(os.path.dirname(os.path.abspath(path)), depth)
    return [d.replace("-", "_").replace(".", "_") for d in PurePath(path).parent.parts[-depth:]]


def package_dirs(directory: str, depth: int) -> list[str]:
    """The names of a module's package directories, innermost last, at most ``depth``: the directory it is in and
    those above it up to the highest one holding an ``__init__.py``, or only the directory it is in when none
    does (a loose module: a framework loading the files of a ``tools/`` directory); a directory without one in between is a
    namespace portion Python imports too (``LightAgent/builtin_tools/nos.py`` is ``LightAgent.builtin_tools.nos``);
    never the directories of the checkout or install around the top package: the same file reads the same wherever
    it is cloned (``~/tools/app/storage/m.py`` with only ``storage/__init__.py``: ``storage``)."""
    return [d.replace("-", "_").replace(".", "_") for d in _package_dirs_of(directory, depth)]


def builds_result(func: cst.BaseExpression, screen: Screen, knowledge: Knowledge, lookup: Callable[[str], object]) -> bool:
    """The callee is one of :func:`result_builders`: a function of the module (``lookup`` finds no import or other
    binding of the name) or a ``self``/``cls`` method."""
    functions, methods = result_builders(screen, knowledge)
    if isinstance(func, cst.Name):
        return func.value in functions and lookup(func.value) is None
    return isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls") \
        and func.attr.value in methods


def result_builders(screen: Screen, knowledge: Knowledge) -> tuple[frozenset[str], frozenset[str]]:
    """s46: the module's own functions and methods that build a tool's result (``def _failure(message) ->
    ToolResult: return ToolResult(content=[TextContentBlock(text=message)], is_error=True)``): annotated to return
    a class named for a tool's or an action's result, or returning such a constructor wherever they return a value.
    A call of one (``return _failure(f"...{err}")``, ``return self._error_result(str(e))``) is built the same way as
    the constructor written in place: the same evidence that the value reaches a model. (functions, methods) by name,
    once per file."""
    return screen.memo("tfh401.result_builders", lambda: _result_builders(screen.tree, knowledge.tool_evidence_words))


def _result_builders(tree: ast.AST | None, tool_words: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    functions: set[str] = set()
    methods: set[str] = set()

    def named(node: ast.AST | None) -> bool:
        while isinstance(node, ast.Subscript):  # ``Optional[ToolResult]`` is not unwrapped: a result or nothing
            node = node.value
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value.rsplit(".", 1)[-1]
        elif isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.Name):
            name = node.id
        else:
            return False
        return name[:1].isupper() and bool(words(name) & tool_words)

    def builds(d: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        if named(d.returns):
            return True
        values = [n.value for n in _own_returns(d.body)]
        values = [v for v in values if v is not None and not (isinstance(v, ast.Constant) and v.value is None)]
        return bool(values) and all(
            isinstance(v, ast.Call) and named(v.func) for v in (v.value if isinstance(v, ast.Await) else v for v in values)
        )

    for n in getattr(tree, "body", []):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and builds(n):
            functions.add(n.name)
        elif isinstance(n, ast.ClassDef):
            methods.update(m.name for m in n.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and builds(m))
    return frozenset(functions), frozenset(methods)


def _own_returns(body: list[ast.stmt]) -> Iterator[ast.Return]:
    """The ``return`` statements of a function body, not of the functions and classes defined in it."""
    stack: list[ast.AST] = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Return):
            yield n
        elif not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.expr)):
            stack.extend(ast.iter_child_nodes(n))
