"""``smullyan tools`` (s52): a project's registry decorator whose decorator hands a *wrapper* of the function it is
given to a tool decorator on a parameter (``def audited_tool(mcp, name, **kw): def decorator(func): ... mcp.tool(
name=name, **kw)(wrapper); return wrapper``) is a registry like one on a module's server (``registries._registers``:
the receiver read by ``verb_framework``), and such a registry applied by a call, ``audited_tool(mcp, "create_job")(
self.create_job)`` in another module, makes the function it is applied to the tool, named by the registry's ``name``
argument (``linter/tools/applied_registries.py``): not the registry's inner ``wrapper`` (awslabs-aws-transform-mcp-
server, batch 24; the same registry on a parameter in mcp-tmux's ``toolset_gate``, workspace-mcp's ``conditional_tool``
and kubectl-mcp-server's ``ToolsetServer.tool``, batches 1-18)."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

AUDIT = '''
import functools


def audited_tool(mcp, name, **tool_kwargs):
    """Register an MCP tool with audit logging."""

    def decorator(func):
        @functools.wraps(func)
        async def wrapper(*args, **kwargs):
            try:
                return await func(*args, **kwargs)
            except Exception:
                raise

        mcp.tool(name=name, **tool_kwargs)(wrapper)
        return wrapper

    return decorator
'''

TREE = {
    "proj/__init__.py": "",
    "proj/audit.py": AUDIT,
    "proj/server.py": '''
        from mcp.server.fastmcp import FastMCP

        from proj.handlers import JobHandler

        mcp = FastMCP("jobs")
        JobHandler(mcp)
    ''',
    "proj/handlers.py": '''
        from proj.audit import audited_tool


        class JobHandler:
            def __init__(self, mcp):
                audited_tool(mcp, "create_job", title="Create a job")(self.create_job)
                audited_tool(mcp, "list_jobs")(self.list_jobs)

            async def create_job(self, name: str) -> dict:
                return {"name": name}

            async def list_jobs(self) -> list:
                return []
    ''',
}


def test_a_registry_applied_by_a_call_makes_the_function_it_is_applied_to_the_tool(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, TREE)) == [
        ("handlers.py", "create_job", "mcp", "audited_tool(...)"),
        ("handlers.py", "list_jobs", "mcp", "audited_tool(...)"),
    ]


def test_a_factory_handing_the_function_to_no_tool_decorator_makes_no_tool(tmp_path: Path) -> None:
    # the same shape handing the wrapper to a web route (``app.route``): no registry, no tool
    tree = {**TREE, "proj/audit.py": AUDIT.replace("mcp.tool(name=name, **tool_kwargs)(wrapper)",
                                                   "mcp.route(name, **tool_kwargs)(wrapper)")}
    assert tool_rows(write_tree(tmp_path, tree)) == []
