"""`smullyan tools` (issue 28, session 49, batch 22's redmine-mcp-server): a project's server class may be private by
name (``class _AnnotatingFastMCP(FastMCP)``, PEP 8's leading underscore for a non-public name). It is a class all
the same: ``mcp = _AnnotatingFastMCP(...)`` is a server, and ``@mcp.tool()`` in the modules that import it makes
tools, as for ``class JenkinsMCP(FastMCP)``; a parameter annotated with it holds one. A private class that derives
from no server makes nothing, and a private *function* (``_make()``, lower case after the underscore) builds no
instance by its name."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

_SERVER = """
    from fastmcp import FastMCP


    class _AnnotatingFastMCP(FastMCP):
        def tool(self, name_or_fn=None, **kwargs):
            if name_or_fn is not None:
                return super().tool(name_or_fn, **kwargs)
            register = super().tool

            def decorator(fn):
                return register(annotations=None, **kwargs)(fn)

            return decorator


    mcp = _AnnotatingFastMCP("redmine")
"""

_WIKI = """
    from ..server import mcp


    @mcp.tool()
    async def get_wiki_page(name: str) -> str:
        return name
"""


def test_an_object_of_a_private_server_subclass_imported_elsewhere_makes_tools(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "", "pkg/server.py": _SERVER, "pkg/tools/__init__.py": "from . import wiki\n",
             "pkg/tools/wiki.py": _WIKI}
    assert [(f, n) for f, n, _fw, _form in tool_rows(write_tree(tmp_path, files))] == [("wiki.py", "get_wiki_page")]


def test_a_parameter_annotated_with_a_private_server_subclass_makes_tools(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "", "pkg/server.py": _SERVER, "pkg/tools.py": """
        from pkg.server import _AnnotatingFastMCP


        def register(server: _AnnotatingFastMCP) -> None:
            @server.tool()
            def list_issues() -> list[str]:
                return []
    """}
    assert [(f, n) for f, n, _fw, _form in tool_rows(write_tree(tmp_path, files))] == [("tools.py", "list_issues")]


def test_a_private_class_deriving_from_no_server_makes_no_tools(tmp_path: Path) -> None:
    server = _SERVER.replace("from fastmcp import FastMCP", "from opentelemetry.trace import Tracer") \
        .replace("(FastMCP)", "(Tracer)")
    files = {"pkg/__init__.py": "", "pkg/server.py": server, "pkg/tools/__init__.py": "from . import wiki\n",
             "pkg/tools/wiki.py": _WIKI}
    assert tool_rows(write_tree(tmp_path, files)) == []
