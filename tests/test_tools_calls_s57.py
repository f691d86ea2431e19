"""`smullyan tools` rows (issue 28, session 57): a method awaited on another package's object is a call out, whatever
the object's class is called (tuned on batches 24-29's 20-row tables, not blind).

The object's class is resolved through the file's imports to an imported third-party package (not the run's own, not
the standard library, not one the client tables already read) from: its constructor or a classmethod factory
(``await Sandbox.connect(sid)``, opensandbox-mcp b24), one of the module's functions annotated to return it
(``async def _get_or_connect(sid) -> Sandbox``), an ``async with``, or a constructor called inline
(``await NotebookActions(manager).variable_get(name)``, mcp-jupyter-notebook b29). Only an awaited method counts: a
pure helper's object (a parsed model, a formatter) is not waited on; a sync method of such an object stays unlisted.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name


def _whats(rows: dict, name: str) -> list[str]:  # type: ignore[type-arg]
    return [c.what.rsplit(" ", 1)[-1] for c in rows[name].calls]


def test_an_awaited_method_of_an_object_a_factory_or_an_annotated_helper_gives(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": """
        from mcp.server.fastmcp import FastMCP
        from opensandbox import Sandbox

        mcp = FastMCP("s")

        async def _get_or_connect(sandbox_id: str) -> Sandbox:
            return await Sandbox.connect(sandbox_id)

        @mcp.tool()
        async def file_write(sandbox_id: str, path: str, content: str) -> str:
            \"\"\"Write a file in the sandbox.\"\"\"
            sandbox = await _get_or_connect(sandbox_id)
            await sandbox.files.write_file(path, content)
            return "written"

        @mcp.tool()
        async def sandbox_metrics(sandbox_id: str) -> dict:
            \"\"\"The sandbox's metrics.\"\"\"
            sandbox = await Sandbox.connect(sandbox_id)
            return await sandbox.get_metrics()

        @mcp.tool()
        async def sandbox_ping(sandbox_id: str) -> bool:
            \"\"\"Whether the sandbox answers.\"\"\"
            async with Sandbox(sandbox_id) as sandbox:
                return await sandbox.is_healthy()
    """})
    assert _whats(rows, "file_write") == ["Sandbox.files.write_file"]
    assert _whats(rows, "sandbox_metrics") == ["Sandbox.get_metrics"]
    assert _whats(rows, "sandbox_ping") == ["Sandbox.is_healthy"]


def test_an_awaited_method_of_an_object_built_inline(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": """
        from mcp.server.fastmcp import FastMCP
        from agent_jupyter_toolkit.actions import NotebookActions

        mcp = FastMCP("j")

        @mcp.tool()
        async def notebook_variable_get(name: str, manager: object) -> dict:
            \"\"\"A kernel variable's value.\"\"\"
            return await NotebookActions(manager).variable_get(name=name)
    """})
    assert _whats(rows, "notebook_variable_get") == ["NotebookActions.variable_get"]


def test_a_sync_method_of_a_helper_object_the_stdlib_and_the_own_package_stay_unlisted(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/model.py": """
        class Report:
            async def render(self) -> str:
                return "r"
    """, "pkg/server.py": """
        import asyncio
        from mcp.server.fastmcp import FastMCP
        from pydantic import BaseModel
        from bs4 import BeautifulSoup
        from pkg.model import Report

        mcp = FastMCP("h")

        class Item(BaseModel):
            name: str

        @mcp.tool()
        async def summarize(html: str) -> str:
            \"\"\"The page's title.\"\"\"
            soup = BeautifulSoup(html, "html.parser")
            lock = asyncio.Lock()
            await lock.acquire()
            report = Report()
            text = await report.render()
            return soup.title.get_text() + text + Item(name="x").model_dump_json()
    """})
    assert _whats(rows, "summarize") == []


def test_a_class_whose_methods_the_call_tables_classify_keeps_its_reading(tmp_path: Path) -> None:
    """aiokafka's producer (batch 30's kafka MCP server, seen after its blind lint): ``send_and_wait`` is a known
    non-idempotent write; the awaited-object reading must not list it again unclassified in its place."""
    rows = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": """
        from aiokafka import AIOKafkaProducer
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("k")

        @mcp.tool()
        async def produce(topic: str, value: bytes) -> str:
            \"\"\"Send one message.\"\"\"
            producer = AIOKafkaProducer(bootstrap_servers="localhost:9092")
            await producer.start()
            await producer.send_and_wait(topic, value)
            return "sent"
        """})
    assert rows["produce"].classification == "non-idempotent-write"
    assert "AIOKafkaProducer.send_and_wait" not in _whats(rows, "produce")
