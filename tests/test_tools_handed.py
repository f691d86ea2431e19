"""`smullyan tools` (issue 28, session 35): tools whose registration the run shows by what it hands over: a server
wrapped by the project's own class and handed to registering functions (some called through a loop over a tuple of
them), whose server parameter is untyped or annotated with a string the module never imports."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

# a server that wraps FastMCP in a filter of its own and hands the wrapper to each module's registering function
WRAPPED = {
    "k8srv/__init__.py": "",
    "k8srv/toolsets.py": """
        class ToolsetServer:
            def __init__(self, server, enabled):
                self._server = server
                self.enabled = frozenset(enabled)

            def tool(self, **kwargs):
                def decorator(fn):
                    if fn.__name__ not in self.enabled:
                        return fn
                    return self._server.tool(**kwargs)(fn)
                return decorator
    """,
    "k8srv/server.py": """
        from fastmcp import FastMCP
        from k8srv.toolsets import ToolsetServer
        from k8srv.tools import register_pod_tools, register_helm_tools, register_node_tools

        class Server:
            def __init__(self, enabled):
                self.server = FastMCP("k8s")
                self.enabled = enabled

            def setup_tools(self):
                registrar = ToolsetServer(self.server, self.enabled)
                register_pod_tools(registrar, False)
                for register in (register_helm_tools, register_node_tools, register_local_tools):
                    register(registrar, False)

        def register_local_tools(server, flag):
            @server.tool(name="version")
            def version() -> str:
                return "1"
    """,
    "k8srv/tools/__init__.py": """
        from .pods import register_pod_tools
        from .helm import register_helm_tools
        from .nodes import register_node_tools
    """,
    "k8srv/tools/pods.py": """
        def register_pod_tools(server: "FastMCP", non_destructive: bool):
            @server.tool(name="get_pods")
            def get_pods(namespace: str = "") -> dict:
                return {}
    """,
    "k8srv/tools/helm.py": """
        def register_helm_tools(server, non_destructive: bool):
            @server.tool()
            def install_helm_chart(name: str) -> dict:
                return {}
    """,
    "k8srv/tools/nodes.py": """
        def register_node_tools(server: "FastMCP", non_destructive: bool):
            @server.tool()
            def get_nodes() -> dict:
                return {}
    """,
    # handed no server: a plain object wrapping a dict, and a function the run never calls
    "k8srv/other.py": """
        class Cache:
            def __init__(self, store):
                self.store = store

        def build():
            cache = Cache({})
            attach(cache)

        def attach(registry):
            @registry.tool()
            def not_a_tool() -> None: ...
    """,
}


def test_a_wrapped_server_handed_to_registering_functions_directly_and_through_a_loop(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, WRAPPED))
    assert rows == [("helm.py", "install_helm_chart", "mcp", "@server.tool"),
                    ("nodes.py", "get_nodes", "mcp", "@server.tool"),
                    ("pods.py", "get_pods", "mcp", "@server.tool"),
                    ("server.py", "version", "mcp", "@server.tool")]


def test_an_unwrapped_registrar_is_not_a_server(tmp_path: Path) -> None:
    files = dict(WRAPPED)
    files["k8srv/server.py"] = files["k8srv/server.py"].replace('FastMCP("k8s")', 'dict(name="k8s")')
    assert tool_rows(write_tree(tmp_path, files)) == []
