"""`smullyan tools` (issue 28, session 44, after batch 17's blind run): a project's decorator handing the function
to a tool decorator of a server another module of the run builds (clr-sentry-mcp's ``annotations.py``: ``from
pkg.server import mcp``; ``def read_tool(fn): return mcp.tool(annotations=_READ)(fn)``, ``@read_tool`` on the
server's functions): a registry once the run knows ``mcp`` is a server; not when the object is none."""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows, tool_rows, write_tree

_SERVED = {
    "pkg/__init__.py": "",
    "pkg/server.py": '''
        from fastmcp import FastMCP

        mcp = FastMCP("Sentry")

        from pkg.annotations import read_tool, write_tool  # noqa: E402


        @read_tool
        def get_issue(identifier: str) -> dict:
            return {"id": identifier}


        @write_tool
        def update_issue(identifier: str, status: str) -> dict:
            return {"id": identifier, "status": status}
    ''',
    "pkg/annotations.py": '''
        from pkg.server import mcp

        _READ = {"readOnlyHint": True}
        _WRITE = {"readOnlyHint": False}


        def read_tool(fn):
            """Register ``fn`` as a read-only MCP tool."""
            return mcp.tool(annotations=_READ)(fn)


        def write_tool(fn):
            return mcp.tool(annotations=_WRITE)(fn)
    ''',
}


def test_a_decorator_handing_functions_to_another_modules_server(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, _SERVED))
    assert [(f, n, fw) for f, n, fw, _form in rows] == [("server.py", "get_issue", "mcp"), ("server.py", "update_issue", "mcp")]


def test_not_when_the_other_modules_object_is_no_server(tmp_path: Path) -> None:
    files = dict(_SERVED)
    files["pkg/server.py"] = files["pkg/server.py"].replace('from fastmcp import FastMCP', 'from pkg.store import Store') \
        .replace('FastMCP("Sentry")', 'Store("Sentry")')
    files["pkg/store.py"] = '''
        class Store:
            def __init__(self, name):
                self.items = []

            def tool(self, **kw):
                return lambda fn: self.items.append(fn) or fn
    '''
    assert tool_rows(write_tree(tmp_path, files)) == []


_CLI = {
    "cli/__init__.py": "",
    "cli/commands/__init__.py": "",
    "cli/commands/vm.py": '''
        import subprocess

        import typer

        app = typer.Typer(name="vm")
        _scan = typer.Typer(help="scans")
        app.add_typer(_scan, name="scan")


        @_scan.command("list")
        def scan_list(limit: int = typer.Option(10, "--limit")) -> None:
            subprocess.run(["curl", "https://example.com/scans"], check=True)


        @app.command()
        def purge_cache() -> None:
            pass
    ''',
    "cli/main.py": '''
        import typer

        from .commands import vm

        app = typer.Typer()
        app.add_typer(vm.app)


        @app.command("configure")
        def configure() -> None:
            pass
    ''',
    "cli/mcp_server.py": '''
        import subprocess

        import typer


        def _walk(t: typer.Typer, prefix: str = ""):
            out = []
            for c in t.registered_commands or []:
                out.append((f"{prefix} {c.name}".strip(), c.callback))
            for g in t.registered_groups or []:
                out.extend(_walk(g.typer_instance, g.name))
            return out


        def catalog():
            from .main import app
            return [{"name": full.replace(" ", "_"), "inputSchema": {"type": "object"}} for full, _cb in _walk(app)]


        def invoke(name: str) -> str:
            return subprocess.run(["cli", *name.split("_")], capture_output=True, text=True, check=False).stdout
    ''',
}


def test_a_typer_apps_commands_a_module_serves_as_tools(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, _CLI))
    assert [(f, n, fw) for f, n, fw, _form in rows] == [("vm.py", "list", "typer"), ("vm.py", "purge-cache", "typer")]


def test_not_a_typer_cli_no_module_serves(tmp_path: Path) -> None:
    files = dict(_CLI)
    files["cli/mcp_server.py"] = files["cli/mcp_server.py"].replace('"inputSchema": {"type": "object"}', '"help": ""')
    assert tool_rows(write_tree(tmp_path, files)) == []


_RUN_TOOL_MATCH = '''
    import subprocess
    from pathlib import Path


    def _file_read(path: str) -> str:
        return Path(path).read_text()


    def _bash(command: str) -> str:
        return subprocess.run(command, shell=True, capture_output=True, text=True, timeout=60).stdout


    def run_tool(name: str, inputs: dict) -> str:
        try:
            match name:
                case "file_read":  return _file_read(**inputs)
                case "bash":       return _bash(**inputs)
                case "ls":         return "\\n".join(p.name for p in Path(inputs["path"]).iterdir())
                case _:            return f"Unknown tool: {name}"
        except Exception as e:
            return f"Tool error [{name}]: {e}"
'''


def test_a_match_on_the_name_a_tool_runner_is_handed() -> None:
    assert source_rows(_RUN_TOOL_MATCH) == [("bash", "dispatch", "match on the called name"),
                                            ("file_read", "dispatch", "match on the called name"),
                                            ("ls", "dispatch", "match on the called name")]


def test_not_a_match_on_a_parameter_of_a_function_not_named_to_run_tools() -> None:
    assert source_rows(_RUN_TOOL_MATCH.replace("def run_tool(", "def render(")) == []


def test_not_a_runners_match_whose_cases_only_give_values() -> None:
    assert source_rows('''
        def run_tool(name: str, inputs: dict) -> str:
            match name:
                case "file_read":  return "read"
                case "bash":       return "shell"
                case "ls":         return "list"
            return name
    ''') == []


def test_a_tool_object_handed_the_function_it_executes() -> None:
    rows = source_rows('''
        from pathlib import Path

        from pi_agent.types import AgentTool, AgentToolResult


        def create_read_tool(cwd: str) -> AgentTool:
            async def execute(tool_call_id: str, params: dict) -> AgentToolResult:
                return AgentToolResult(content=Path(cwd, params["path"]).read_text())

            return AgentTool(name="read", description="Read a file", parameters={"type": "object"}, execute=execute)
    ''')
    assert rows == [("execute", "pi-agent", "AgentTool(execute=...)")]


def test_not_a_tool_object_told_to_execute_by_a_flag() -> None:
    assert source_rows('''
        from pi_agent.types import AgentTool

        def make() -> AgentTool:
            return AgentTool(name="read", description="Read a file", execute=True)
    ''') == []
