"""Session 57: the Anthropic SDK's runners answer what a tool raises with text (failures ``text``, not ``raised``).

``client.beta.messages.tool_runner`` runs a ``@beta_tool`` / ``@beta_async_tool`` in ``_run_tool``, whose
``except Exception`` answers an ``is_error`` tool result with the exception's text; a toolset subclass's members
(``BetaAbstractComputerToolset20260801`` ...) are run by ``BaseToolset._toolset_run``, and every exception but the
SDK's own misuse reaches the model as an ``is_error`` result. Seen on plimsoll-client (b27), daytona-claude-toolsets
(b26), e2b-claude-toolsets (b29) and browser-use (tuning)."""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

_DECORATED = '''
    import httpx
    from anthropic import {decorator}


    @{decorator}
    async def read(path: str) -> str:
        """Read a file of the workspace."""
        async with httpx.AsyncClient(timeout=10) as c:
            r = await c.get("https://ws.example/files/" + path)
            r.raise_for_status()
            return r.text
'''


def test_a_beta_tool_that_raises_is_answered_with_text_by_the_tool_runner(tmp_path: Path) -> None:
    for decorator, runner in (("beta_async_tool", "BaseAsyncToolRunner"), ("beta_tool", "BaseSyncToolRunner")):
        t = tools_by_name(tmp_path / decorator, {"ws/tools.py": _DECORATED.format(decorator=decorator)})["read"]
        assert t.failures == ["text"]
        assert t.failures_by == f"anthropic.lib.tools._beta_runner.{runner}._run_tool"


_TOOLSET = '''
    import subprocess
    from anthropic.tools.computer import {base}, BetaToolsetCallContext


    class Computer({base}):
        def screenshot(self, context: BetaToolsetCallContext, input: object) -> bytes:
            return subprocess.run(["scrot", "-"], capture_output=True, check=True, timeout=5).stdout

        def wait(self, context: BetaToolsetCallContext, input: object) -> None:
            raise RuntimeError("not supported")
'''


def test_a_toolset_member_that_raises_is_answered_with_text_by_the_toolset(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"box/computer.py": _TOOLSET.format(base="BetaAbstractComputerToolset20260801")})
    assert sorted(rows) == ["screenshot", "wait"]
    for t in rows.values():
        assert t.failures == ["text"], t.name
        assert t.failures_by == "anthropic.lib.tools._toolsets._base.BaseToolset._toolset_run"


def test_a_langchain_tool_that_raises_stays_raised(tmp_path: Path) -> None:
    # langchain's BaseTool.run turns only a ToolException into text: the same body under its ``@tool`` is raised
    code = _DECORATED.format(decorator="beta_async_tool").replace("from anthropic import beta_async_tool",
                                                                  "from langchain_core.tools import tool")
    t = tools_by_name(tmp_path, {"ws/tools.py": code.replace("@beta_async_tool", "@tool")})["read"]
    assert t.failures == ["raised"]
    assert t.failures_by is None


_SHIELD = '''
    import asyncio
    import subprocess
    from anthropic.tools.computer import BetaAsyncAbstractComputerToolset20260801


    async def finish_cleanup(operation):
        task = asyncio.ensure_future(operation)
        while True:
            try:
                return await asyncio.shield(task)
            except {caught}:
                if task.cancelled():
                    raise


    class Computer(BetaAsyncAbstractComputerToolset20260801):
        async def scroll(self, context, input):
            await finish_cleanup(asyncio.to_thread(subprocess.run, ["xdotool", "click", "4"], timeout=5))
'''


def test_a_loop_going_round_only_on_a_cancellation_is_no_retry(tmp_path: Path) -> None:
    # e2b-claude-toolsets (b29) finish_cleanup: a shield loop re-awaits the same task, re-running nothing
    t = tools_by_name(tmp_path, {"box/computer.py": _SHIELD.format(caught="asyncio.CancelledError")})["scroll"]
    assert t.retries == []


def test_a_loop_going_round_on_a_failure_stays_a_retry(tmp_path: Path) -> None:
    t = tools_by_name(tmp_path, {"box/computer.py": _SHIELD.format(caught="OSError")})["scroll"]
    assert len(t.retries) == 1
