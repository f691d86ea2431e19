"""`smullyan tools` (issue 28, session 55): forms the reading tables of batches 4-27 counted and the base missed, each
seen in packages of two batches (tuned on batches 1-27, not blind); and one precision fix.

- A registration in a loop over a literal table: ``for fn, name, hints in ((tools.status, "x_status", ro), ...):
  server.add_tool(fn, name=name, annotations=hints)`` (mergetrain, batch 22), and ``for name in tool_names(tools):
  method = getattr(tools, name); server.add_tool(_as_tool(method, name), name=name)`` over module tuples of names
  (zenmap, batch 27): a row per literal name, run by the method it names.
- ``getattr(self, name)`` in a dispatcher of a class, over the module's tool schemas (``TOOLS = [{"name": ...,
  "inputSchema": ...}]``: agent-switchboard, batch 27): the methods the schemas name.
- A decorator factory returning ``mcp.tool(*args, **kwargs)``, or in another mode a nested decorator handing the function
  back unchanged (github-mcp-server's ``@conditional_tool``, batch 9; influencers-club-mcp's ``@stdio_only_tool``, batch 27).
- Precision: a sandbox's ``match function_name:`` answering Python's own OS calls (``case 'Path.exists'``,
  ``case 'os.getenv'``: pydantic-monty-client, batch 27) is no tool table.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

_LOOP_TABLE = '''
    from mcp.server.fastmcp import FastMCP


    class Tools:
        def status(self) -> dict:
            """The queue's state."""
            return {}

        def enqueue(self, ref: str) -> dict:
            """Queue a change."""
            return {"ref": ref}

        def _helper(self) -> None:
            return None


    def build() -> FastMCP:
        tools = Tools()
        server = FastMCP("x")
        for fn, name, hints in (
            (tools.status, "x_status", None),
            (tools.enqueue, "x_enqueue", None),
        ):
            server.add_tool(fn, name=name, annotations=hints)
        return server
'''


def test_add_tool_in_a_loop_over_a_literal_table_gives_a_row_per_row(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"srv.py": _LOOP_TABLE})
    assert sorted(found) == ["x_enqueue", "x_status"]
    assert found["x_status"].qualname == "srv.Tools.status"


_LOOP_NAMES = '''
    from mcp.server.fastmcp import FastMCP


    class Tools:
        def status(self) -> dict:
            return {}

        def push(self, path: str) -> dict:
            return {"path": path}

        def query(self, q: str) -> dict:
            return {"q": q}


    class WorkspaceTools(Tools):
        def workspace(self) -> dict:
            return {}

        def delete_layer(self, layer: str) -> dict:
            return {"layer": layer}


    TOOL_NAMES = ("status", "push")
    WORKSPACE_NAMES = ("workspace", "status")
    SCOPED = {"delete_layer": "delete"}


    def tool_names(tools: Tools) -> tuple[str, ...]:
        if not isinstance(tools, WorkspaceTools):
            return TOOL_NAMES
        return WORKSPACE_NAMES + tuple(name for name, needs in SCOPED.items() if needs)


    def _as_tool(method, name):
        def call(*args, **kwargs):
            return method(*args, **kwargs)
        call.__name__ = name
        return call


    def serve(tools: Tools) -> FastMCP:
        server = FastMCP("x")
        for name in {names}:
            method = getattr(tools, name)
            server.add_tool(_as_tool(method, name), name=name)
        return server
'''


def test_add_tool_in_a_loop_over_literal_names_looked_up_by_getattr(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"srv.py": _LOOP_NAMES.replace("{names}", "tool_names(tools)")})
    assert sorted(found) == ["delete_layer", "push", "status", "workspace"]  # never ``query``: no table names it
    assert found["delete_layer"].qualname == "srv.WorkspaceTools.delete_layer"


def test_a_loop_over_names_it_cannot_read_gives_none(tmp_path: Path) -> None:
    assert tools_by_name(tmp_path, {"srv.py": _LOOP_NAMES.replace("{names}", "sorted(dir(tools))")}) == {}


_SCHEMA_DISPATCH = '''
    TOOLS = [
        {"name": "say", "description": "Post.", "inputSchema": {"type": "object"}},
        {"name": "read", "description": "Read.", "inputSchema": {"type": "object"}},
        {"name": "leave", "description": "Leave.", "inputSchema": {"type": "object"}},
    ]


    class Bridge:
        def dispatch(self, name: str, arguments: dict) -> object:
            handler = getattr(self, name, None)
            if handler is None or name not in {t["name"] for t in TOOLS}:
                raise ValueError(f"unknown tool: {name}")
            return handler(**arguments)

        def say(self, text: str) -> dict:
            return {"text": text}

        def read(self) -> list:
            return []

        def leave(self) -> None:
            return None

        def close(self) -> None:
            return None
'''


def test_getattr_self_name_over_the_modules_tool_schemas(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"bridge.py": _SCHEMA_DISPATCH})
    assert sorted(found) == ["leave", "read", "say"]
    assert found["say"].form == "getattr(self, name)"


def test_getattr_self_name_without_tool_schemas_gives_none(tmp_path: Path) -> None:
    plain = _SCHEMA_DISPATCH.replace('"inputSchema"', '"schema"')
    assert tools_by_name(tmp_path, {"bridge.py": plain}) == {}


_MODE_DECORATOR = '''
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("x")
    HTTP_MODE = False


    def stdio_only_tool(*args, **kwargs):
        if HTTP_MODE:
            def _passthrough(fn):
                return {passed}
            return _passthrough
        return mcp.tool(*args, **kwargs)


    @stdio_only_tool(name="upload_file")
    def upload(path: str) -> str:
        return path


    @mcp.tool()
    def search(q: str) -> str:
        return q
'''


def test_a_factory_returning_mcp_tool_or_an_identity_decorator_makes_tools(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"srv.py": _MODE_DECORATOR.replace("{passed}", "fn")})
    assert sorted(found) == ["search", "upload_file"]


def test_a_factory_whose_other_mode_wraps_the_function_makes_none(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"srv.py": _MODE_DECORATOR.replace("{passed}", "print(fn)")})
    assert sorted(found) == ["search"]


_OS_CALLS = '''
    class AbstractOS:
        def dispatch(self, function_name: str, args: tuple) -> object:
            match function_name:
                case 'Path.exists':
                    return self.path_exists(*args)
                case 'Path.read_text':
                    return self.path_read_text(*args)
                case 'os.getenv':
                    return self.getenv(*args)
                case 'time.sleep':
                    return self.sleep(*args)
                case 'system.sleep':
                    return self.sleep(*args)
'''


def test_a_match_answering_pythons_own_os_calls_is_no_tool_table(tmp_path: Path) -> None:
    assert tools_by_name(tmp_path, {"os_access.py": _OS_CALLS}) == {}


def test_a_match_on_tool_names_still_gives_rows(tmp_path: Path) -> None:
    tools = _OS_CALLS.replace("'Path.exists'", "'read_file'").replace("'Path.read_text'", "'write_file'") \
        .replace("'os.getenv'", "'run_shell'")
    assert sorted(tools_by_name(tmp_path, {"os_access.py": tools})) == ["read_file", "run_shell", "system.sleep",
                                                                         "time.sleep", "write_file"]
