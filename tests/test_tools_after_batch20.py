"""`smullyan tools` (issue 28, session 47, after batch 20's blind run): two tool forms batch 20 missed.

- A decorator factory of the file that hands back a framework's tool decorator: ``def _tool(annotations): return
  mcp_server.tool(annotations=annotations)`` applied as ``@_tool(READ_ONLY)`` (odoo-safe-mcp, batch 20), ``def
  tool(read_only=True): return server.tool(annotations=...)`` beside the tools in a server's factory (surface-mcp,
  batch 18). A function that returns the function it is given on some path (``return fn``: a no-op) makes no
  decorator here; a factory defined in another function's scope does not reach a function outside it.
- A registry decorator that stores an object of a tool class built around the function (``tool = Tool(name,
  description, params, fn); REGISTRY[name] = tool; return fn``: ajna-cli's ``@register(name, description,
  properties)``, batch 20), however the registry is named. An object of another class (``Hook(fn)``) stays silent.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows, tools_by_name

_FACTORY = '''
    try:
        from mcp.server.mcpserver import MCPServer

        mcp_server = MCPServer(name="odoo")
    except ImportError:
        from mcp.server.fastmcp import FastMCP

        mcp_server = FastMCP("odoo")

    READ_ONLY = {"readOnlyHint": True}


    def _tool(annotations):
        try:
            return mcp_server.tool(annotations=annotations)
        except TypeError:
            return mcp_server.tool()


    @_tool(READ_ONLY)
    def odoo_search(model: str, domain: str) -> str:
        return model + domain
'''


def test_a_decorator_factory_of_the_module() -> None:
    assert source_rows(_FACTORY) == [("odoo_search", "mcp", "@_tool")]


def test_a_decorator_factory_in_the_servers_factory() -> None:
    code = '''
        from mcp.server import MCPServer


        def create_server(service):
            server = MCPServer("Surface")

            def tool(read_only=True):
                return server.tool(annotations={"readOnlyHint": read_only})

            @tool()
            async def surface_list_resources() -> dict:
                return await service.execute("list_resources")

            @tool(False)
            async def surface_start_scan(target: str) -> dict:
                return await service.execute("start_scan", target=target)

            return server
    '''
    assert source_rows(code) == [("surface_list_resources", "mcp", "@tool"), ("surface_start_scan", "mcp", "@tool")]


def test_a_factory_that_may_return_the_function_itself_makes_no_decorator() -> None:
    code = _FACTORY.replace("        except TypeError:\n            return mcp_server.tool()",
                            "        except TypeError:\n            return annotations")
    assert source_rows(code) == []


def test_a_factory_of_another_scope_does_not_reach() -> None:
    code = '''
        from mcp.server.fastmcp import FastMCP


        def build():
            server = FastMCP("x")

            def tool():
                return server.tool()

            return server


        def tool(fn):
            return fn


        @tool
        def helper(x: str) -> str:
            return x
    '''
    assert source_rows(code) == []


_REGISTRY = {
    "ajna/__init__.py": "",
    "ajna/tools/__init__.py": '''
REGISTRY = {}
ORDER = []


class Tool:
    def __init__(self, name, description, parameters, fn, concurrent=True):
        self.name, self.description, self.parameters, self.fn = name, description, parameters, fn


def register(name, description, properties, required=(), concurrent=True):
    """Decorator that adds a function to the registry."""

    def deco(fn):
        params = {"type": "object", "properties": properties, "required": list(required)}
        tool = Tool(name, description.strip(), params, fn, concurrent=concurrent)
        REGISTRY[name] = tool
        ORDER.append(name)
        return fn

    return deco


def run(name, args):
    return REGISTRY[name].fn(**args)
''',
    "ajna/tools/files.py": '''
from . import register


@register("read", "Read a file.", {"path": {"type": "string"}}, required=["path"])
def read(ctx, path):
    with open(path) as f:
        return f.read()
''',
}


def test_a_registry_decorator_storing_a_tool_object(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, _REGISTRY)
    assert sorted(found) == ["read"]
    assert found["read"].form == "@register"


def test_a_registry_decorator_storing_another_object(tmp_path: Path) -> None:
    files = {k: v.replace("Tool", "Hook") for k, v in _REGISTRY.items()}
    assert tools_by_name(tmp_path, files) == {}
