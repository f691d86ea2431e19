"""Demo and example code shipped inside a package: tools written to show the library, never offered to a model by
the package itself (tinyagent's ``run_example()`` with its own ``@tool`` functions, ``code_agent/tools/example_tools.py``;
biomni's ``tool/example_mcp_tools/``; xiaogpt's ``langchain/examples/``).

A tool is a demo's when its function is defined in a module whose dotted name, below its top-level package, has the
word ``example(s)``/``demo(s)``/``samples`` (a snake-case word of a package or module name: ``example_mcp_tools``,
``examples``, ``demo``, nova-act's ``samples/``; not ``demographics``, nor ``sample`` alone: ``sample_rows``) or that is
named ``template`` (a scaffold to copy: crab's ``environments/template.py``; not when the run hands its registering
function a server: tools about templates), inside
an ``if __name__ == "__main__":`` block, inside a function so named (``run_example``, ``demo``), or at module level
used only in such functions (``agent.add_tool(get_weather)`` in ``run_example``, nowhere else in its module, and not
exported by ``__all__``; a script's tools used only under its ``__main__`` guard are its own), or registered on a
server built with a name whose first word is ``Test`` (askui's ``FastMCP("Test StdIO MCP App")``, the server its tests
start). ``describe.run`` leaves
those rows out of a run that is over more than that code, and says how many once: a demo module's tools when a file of the run is in no demo module
(``smullyan tools pkg/examples/`` lists them), the others when the run finds a tool outside demo code."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from ..nodes import is_main_test
from ..testmodules import is_test_module
from .index import FUNCS, Def, Index, module_name
from .model import Tool

__all__ = ["WORDS", "demo_module", "demo_defs", "left_out", "note"]

#: the snake-case words that name demo code
WORDS = frozenset({"example", "examples", "demo", "demos", "samples"})

#: a package or module so named, whole, is a scaffold to copy (crab's ``environments/template.py``: an
#: environment's actions as a user would write them), as demo code is; not ``template_tool``, ``render_template``, nor
#: ``templates`` (mcp-proxmox's ``tools/templates.py``: tools about VM templates)
TEMPLATES = frozenset({"template"})


def _says_demo(name: str) -> bool:
    return bool(WORDS & set(name.lower().split("_")))


def demo_module(module: str) -> bool:
    """A module below its top-level package named for examples or demos (``pkg.tool.example_mcp_tools.pubmed``), or
    a test module (:func:`_in_tests`)."""
    return any(_says_demo(part) or part in TEMPLATES for part in module.split(".")[1:]) or _in_tests(module)


def _in_tests(module: str) -> bool:
    """A test module (``testmodules.py``'s default, the engine's: in a package named ``tests``, a top-level one
    too: opensre's ``tests/tools/test_registry.py``; or a ``conftest``): the tools its tests build are fixtures,
    never offered to a model by the package."""
    path = "/".join(module.split("."))
    return is_test_module(path + ".py") or is_test_module(path + "/__init__.py")  # a module, or a package


def _registered_template(d: Def, index: Index) -> bool:
    """A tool of a module named ``template`` (no example word) inside a function the run hands a server to register
    on (homeassistant-mcp's ``tools/specialized/template.py``: ``register_template_tool(mcp, ...)``, called by the
    server module): tools about templates, registered by the package itself, not a scaffold to copy."""
    if any(_says_demo(part) for part in index.module.split(".")[1:]):
        return False
    return any(path == h or path.startswith(h + ".") for path, _n in d.functions for h in index.handed)


def _named(index: Index) -> list[tuple[int, int]]:
    """The line ranges of the module's functions named for demos (``run_example``, ``demo``) and of its classes named
    and documented as test doubles (``MockSubagent``, "Mock subagent for testing.": autosre's ``mock_check``
    tool, batch 16; not agentuniverse's ``MockSearchTool``, "The demo google search mock tool", a tool the package
    offers)."""
    return [(node.lineno, node.end_lineno or node.lineno) for _p, _n, node, _parents in index.defs
            if isinstance(node, FUNCS) and _says_demo(node.name)] + [
        (cls.lineno, cls.end_lineno or cls.lineno) for _p, cls in index.classes
        if _TEST_DOUBLE.match(cls.name) and _FOR_TESTS.search(ast.get_docstring(cls) or "")]


#: a class named as a test double: ``Mock``/``Fake``/``Stub``/``Dummy`` and a capitalised word (not ``Mockup``)
_TEST_DOUBLE = re.compile(r"^_?(Mock|Fake|Stub|Dummy)[A-Z]")
#: its docstring says what it is for: tests
_FOR_TESTS = re.compile(r"\b(tests?|testing|unit[- ]tests?)\b", re.IGNORECASE)


def _guarded(index: Index) -> list[tuple[int, int]]:
    """The line ranges of the module's ``if __name__ == "__main__":`` blocks."""
    return [(s.lineno, s.end_lineno or s.lineno) for s in index.tree.body
            if isinstance(s, ast.If) and is_main_test(s.test)]


def _exported(tree: ast.Module) -> set[str]:
    out: set[str] = set()
    for s in tree.body:
        if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in s.targets) \
                and isinstance(s.value, (ast.List, ast.Tuple)):
            out.update(e.value for e in s.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
    return out


def _test_servers(tree: ast.Module) -> set[str]:
    """The module-level names bound to an object of a class built with a name whose first word is ``Test``
    (askui's ``mcp = FastMCP("Test StdIO MCP App")``: a server its tests start, not one it offers a model)."""
    out: set[str] = set()
    for s in tree.body:
        value = s.value if isinstance(s, (ast.Assign, ast.AnnAssign)) else None
        targets = s.targets if isinstance(s, ast.Assign) else [s.target] if isinstance(s, ast.AnnAssign) else []
        if isinstance(value, ast.Call) and value.args and isinstance(first := value.args[0], ast.Constant) \
                and isinstance(first.value, str) and first.value.split()[:1] == ["Test"] \
                and isinstance(f := value.func, (ast.Name, ast.Attribute)) \
                and (f.id if isinstance(f, ast.Name) else f.attr)[:1].isupper():
            out.update(t.id for t in targets if isinstance(t, ast.Name))
    return out


def _on_test_server(d: Def, index: Index, servers: set[str]) -> bool:
    """A tool whose function a decorator of one of ``servers`` registers (``@mcp.tool`` on a test server)."""
    nodes = {path: node for path, _n, node, _parents in index.defs}
    for path, _n in d.functions:
        for dec in getattr(nodes.get(path), "decorator_list", []):
            head = dec.func if isinstance(dec, ast.Call) else dec
            while isinstance(head, ast.Attribute):
                head = head.value
            if isinstance(head, ast.Name) and head.id in servers:
                return True
    return False


def demo_defs(defs: Iterable[Def], index: Index) -> set[int]:
    """The ``id`` of each of ``defs`` that is a demo's tool (see the module's doc)."""
    defs = list(defs)
    if demo_module(index.module):
        return {id(d) for d in defs if not _registered_template(d, index)}
    servers = _test_servers(index.tree)
    tested = {id(d) for d in defs if _on_test_server(d, index, servers)} if servers else set()
    if tested:
        return tested | demo_defs([d for d in defs if id(d) not in tested], index)
    named = _named(index)
    ranges = named + _guarded(index)
    if not ranges:
        return set()

    def inside(line: int, where: list[tuple[int, int]] = ranges) -> bool:
        return any(a <= line <= b for a, b in where)

    module_level = {s.name: s for s in index.tree.body if isinstance(s, FUNCS)}
    out: set[int] = set()
    uses: dict[str, list[int]] | None = None
    exported = _exported(index.tree)
    for d in defs:
        if not d.spans:
            continue
        start = d.spans[0][0]
        if inside(start):
            out.add(id(d))
            continue
        path = d.functions[0][0] if d.functions else ""
        if path not in module_level or path in exported:
            continue
        if uses is None:
            uses = {}
            for n in ast.walk(index.tree):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in module_level:
                    uses.setdefault(n.id, []).append(n.lineno)
        lines = uses.get(path, [])  # a script's own tools are used under its ``__main__`` guard: only a demo function
        if lines and all(inside(line, named) for line in lines):
            out.add(id(d))
    return out


def left_out(tools: Iterable[Tool], files: Iterable[str]) -> set[int]:
    """The ``id`` of each demo tool a run over ``files`` leaves out (see the module's doc)."""
    demos = [t for t in tools if t.demo]
    if not demos:
        return set()
    others = any(not t.demo for t in tools)
    outside = any(not demo_module(module_name(f)) for f in files)
    return {id(t) for t in demos if (outside if demo_module(module_name(t.path)) else others)}


def note(count: int) -> str:
    """What a run says once when it leaves demo tools out."""
    return (f"{count} tool(s) in example or demo code (a module or package named example(s)/demo(s)/samples or template, a test module, a function so "
            "named, a class named and documented as a test double (Mock*, Fake*: for testing), an `if __name__ == \"__main__\":` block) not listed: the package itself offers them to no model")
