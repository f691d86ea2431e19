"""`smullyan tools` (issue 28, session 53, late): forms batch 26's reading counted and the run missed (tuned on
batch 26 after its blind measurement).

- A project decorator factory whose decorator hands the function to a tool-named call of another library given the
  run's tool server (node804-freshservice-mcp: ``def conditional_tool(): def decorator(func): ...; return
  gate.tool(mcp, required=required)(func)``, ``gate`` a third-party mode gate, ``mcp = FastMCP(...)``): each
  function ``@conditional_tool()`` decorates, in any module, is a tool of the server's framework.
- ``mcp.add_tool(fn)`` in a loop over a tuple of this module naming other modules' functions (plugvan-mcp:
  ``TOOLS = (tasks.create_task, ...)``; ``for _tool in TOOLS: mcp.add_tool(_tool, ...)``): each is a tool, a row
  at its own ``def``.
- A subclass of the Anthropic SDK's computer or browser toolset (daytona-claude-toolsets): each member it overrides
  (``screenshot``, ``left_click``, ``navigate``) is a tool; its own helpers and ``close`` are not.
- A hand-written server's ``tools/call`` answer looking the called name up in a dict literal of its own (mosaic-sandbox:
  ``static_admin = {"mos_get_policy": ("GET", "/v1/admin/policy", None), ...}``; ``if name in static_admin: ...``):
  each literal key is a tool the branch answers.

Negative examples: a gate's ``tool(...)`` handed no server, a loop over a tuple handing its functions to a non-tool
call, a class with member-named methods deriving from no toolset, and a table with a computed key stay without tools.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

_SERVER = '''
    from mcp.server.fastmcp import FastMCP
    from gatekit import ModeGate

    mcp = FastMCP("svc")
    gate = ModeGate.from_env(env_var="SVC_MODE")


    def conditional_tool():
        def decorator(func):
            if func.__name__.startswith("x"):
                return func
            return gate.tool({server}required="write")(func)

        return decorator
'''

_TICKETS = '''
    from ..server import conditional_tool


    @conditional_tool()
    async def get_ticket(ticket_id: int) -> dict:
        """Get a ticket."""
        return {"id": ticket_id}


    @conditional_tool()
    async def close_ticket(ticket_id: int) -> dict:
        """Close a ticket."""
        return {"id": ticket_id}
'''


def _gated(tmp_path: Path, server: str) -> dict[str, object]:
    return tools_by_name(tmp_path, {"svc/__init__.py": "", "svc/server.py": _SERVER.format(server=server),
                                    "svc/tools/__init__.py": "", "svc/tools/tickets.py": _TICKETS})


def test_a_project_decorator_handing_the_function_to_a_gate_given_the_server(tmp_path: Path) -> None:
    rows = _gated(tmp_path, "mcp, ")
    assert sorted(rows) == ["close_ticket", "get_ticket"]
    assert {t.framework for t in rows.values()} == {"mcp"}  # type: ignore[attr-defined]
    assert {t.form for t in rows.values()} == {"@conditional_tool"}  # type: ignore[attr-defined]


def test_a_gate_handed_no_server_makes_no_tool(tmp_path: Path) -> None:
    assert _gated(tmp_path, "") == {}


_TASKS = '''
    def create_task(title: str) -> str:
        """Create a task."""
        return title


    def list_tasks() -> list:
        """List tasks."""
        return []
'''

_LOOP = '''
    from mcp.server.fastmcp import FastMCP

    from plug.tools import tasks

    mcp = FastMCP("todo")

    TOOLS = (
        tasks.create_task,
        tasks.list_tasks,
    )

    for _tool in TOOLS:
        {call}(_tool, description=_tool.__doc__)
'''


def _looped(tmp_path: Path, call: str) -> dict[str, object]:
    return tools_by_name(tmp_path, {"plug/__init__.py": "", "plug/tools/__init__.py": "", "plug/tools/tasks.py": _TASKS,
                                    "plug/server.py": _LOOP.format(call=call)})


def test_add_tool_over_this_modules_tuple_of_another_modules_functions(tmp_path: Path) -> None:
    rows = _looped(tmp_path, "mcp.add_tool")
    assert sorted(rows) == ["create_task", "list_tasks"]
    assert {Path(t.path).name for t in rows.values()} == {"tasks.py"}  # type: ignore[attr-defined]
    assert {t.framework for t in rows.values()} == {"mcp"}  # type: ignore[attr-defined]


def test_a_loop_handing_them_to_a_non_tool_call_makes_no_tool(tmp_path: Path) -> None:
    assert _looped(tmp_path, "print") == {}


_TOOLSET = '''
    from anthropic.tools.computer import BetaAbstractComputerToolset20260801, BetaToolsetCallContext
    from anthropic.tools.browser import BetaAsyncAbstractBrowserToolset20260801


    class {name}({base}):
        def screenshot(self, context: BetaToolsetCallContext, input: object) -> bytes:
            return self._grab()

        def left_click(self, context: BetaToolsetCallContext, input: object) -> None:
            self._click(1)

        def _grab(self) -> bytes:
            return b""

        def _click(self, button: int) -> None:
            pass

        def close(self) -> None:
            pass


    class Browser(BetaAsyncAbstractBrowserToolset20260801):
        async def navigate(self, context: BetaToolsetCallContext, input: object) -> None:
            pass
'''


def test_the_members_an_anthropic_toolset_subclass_overrides(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"box/computer.py": _TOOLSET.format(name="Computer", base="BetaAbstractComputerToolset20260801")})
    assert sorted(rows) == ["left_click", "navigate", "screenshot"]
    assert {t.framework for t in rows.values()} == {"anthropic"}  # type: ignore[attr-defined]


def test_member_named_methods_of_a_class_deriving_from_no_toolset_are_no_tools(tmp_path: Path) -> None:
    code = _TOOLSET.format(name="Computer", base="object").split("class Browser")[0]
    assert tools_by_name(tmp_path, {"box/computer.py": code}) == {}


_STDIO = '''
    import json
    import sys


    def _http(method, path, payload=None):
        return {{"method": method, "path": path}}


    def call_tool(name, args):
        if name == "get_box":
            return _http("GET", "/v1/boxes/" + args["id"])
        if name == "list_boxes":
            return _http("GET", "/v1/boxes")
        static_admin = {{
            "get_policy": ("GET", "/v1/admin/policy", None),
            "create_approval": ("POST", "/v1/admin/approvals", args),
            {extra}
        }}
        if name in static_admin:
            method, path, payload = static_admin[name]
            return _http(method, path, payload)
        raise ValueError(name)


    def main():
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["method"] == "tools/call":
                result = call_tool(msg["params"]["name"], msg["params"].get("arguments", {{}}))
                print(json.dumps({{"id": msg["id"], "result": result}}))
'''


def test_a_dispatchers_local_table_looked_up_by_the_called_name(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"srv/server.py": _STDIO.format(extra="")})
    assert {"get_policy", "create_approval"} <= set(rows)
    assert rows["get_policy"].form == "tools/call: if on the called name"  # type: ignore[attr-defined]


def test_a_local_table_with_a_computed_key_is_no_tool_table(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"srv/server.py": _STDIO.format(extra='args["kind"]: ("GET", "/v1/x", None),')})
    assert "get_box" in rows and "get_policy" not in rows
