"""`smullyan tools` (issue 28, session 54): forms the reading tables of batches 1-26 counted and the base missed,
each seen in packages of two batches at least (tuned on batches 1-26, not blind).

- A project decorator that returns an object of its own tool class built around the function, handed first by
  position (stcode, batch 21: ``def tool(fn=None, /, *, permission=...): def decorate(target): return Tool(target,
  ...); return decorate(fn) if fn is not None else decorate``; tank-ai, batch 17: ``def decorator(f): return Tool(f,
  name=name)``): each function it decorates, in any module, is a tool.

Negative examples: the same decorator building an object of a class whose name does not say tool
(``Handler(target)``) finds nothing.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

_BASE = '''
    class {cls}:
        def __init__(self, fn, name=None, permission=None):
            self.fn = fn
            self.name = name or fn.__name__


    def tool(fn=None, /, *, name=None, permission="read"):
        """Turn a function into a tool."""

        def decorate(target):
            return {cls}(target, name=name, permission=permission)

        return decorate(fn) if fn is not None else decorate
'''

_FILES = '''
    from pkg.base import tool


    @tool(permission="read")
    async def read(path: str) -> str:
        """Read a file."""
        with open(path) as fh:
            return fh.read()


    @tool
    def write(path: str, text: str) -> None:
        """Write a file."""
        with open(path, "w") as fh:
            fh.write(text)
'''


def _tree(cls: str) -> dict[str, str]:
    return {"pkg/__init__.py": "", "pkg/base.py": _BASE.format(cls=cls), "pkg/files.py": _FILES}


def test_a_decorator_returning_its_tool_class_built_around_the_function_makes_tools(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, _tree("Tool"))
    assert sorted(found) == ["read", "write"]
    assert {Path(t.path).name for t in found.values()} == {"files.py"}


def test_a_decorator_returning_another_class_around_the_function_makes_none(tmp_path: Path) -> None:
    assert tools_by_name(tmp_path, _tree("Handler")) == {}
