"""Issue 24's done means: `smullyan tools`' "failures" column and TFH401/TFH402 agree on every tool.

The column says "text" for a tool exactly when TFH401 reports inside it (the
framework's own stringifying of raised failures, ``failures_by``, aside), and a
TFH402 finding in a tool shows as "swallowed" (an empty answer). Checked over
the rules' own examples and framework forms the examples do not hold.
"""

from __future__ import annotations

import textwrap

import pytest

from smullyan.linter import tools
from smullyan.linter.config import Config
from smullyan.rules.errors.tfh401_stringified_exception import StringifiedException
from smullyan.rules.errors.tfh402_silent_fallback import SilentFallback

OUTSIDE = "/nonexistent-smullyan-test-dir/agent_tools.py"

FORMS = {
    "langchain-exception-object": """
        from langchain_core.tools import BaseTool
        class Search(BaseTool):
            def _run(self, q):
                try:
                    return self.api.search(q)
                except Exception as e:
                    return {"error": e}
        """,
    "mcp-text": """
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("x")
        @mcp.tool()
        def get(key: str) -> str:
            try:
                return client.get(key)
            except Exception as e:
                return f"Error: {e}"
        """,
    "mcp-crafted-message": """
        from mcp.server.fastmcp import FastMCP
        import requests
        mcp = FastMCP("x")
        @mcp.tool()
        def get(key: str) -> str:
            try:
                return requests.get(key, timeout=5).text
            except Exception:
                return "Error: could not fetch"
        """,
    "mcp-type-name": """
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("x")
        @mcp.tool()
        def get(key: str) -> dict:
            try:
                return client.get(key)
            except Exception as e:
                return {"error": type(e).__name__, "status": e.status_code}
        """,
    "langchain-swallowed": """
        from langchain_core.tools import tool
        import requests
        @tool
        def search(q: str) -> list:
            try:
                return requests.get(q, timeout=5).json()
            except Exception:
                return []
        """,
    "local-read-fallback": """
        from langchain_core.tools import tool
        @tool
        def notes(path: str) -> str:
            try:
                with open(path) as f:
                    return f.read()
            except Exception:
                return ""
        """,
    "remote-read-fallback": """
        import asyncpg
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("x")
        db = None
        @mcp.tool()
        async def lookup(key: str) -> list:
            pool: asyncpg.Pool = db
            try:
                return await pool.fetch(key)
            except Exception:
                return []
        """,
    "normalised-text": """
        from mcp.server.fastmcp import FastMCP
        from .wire import normalize_reply
        mcp = FastMCP("x")
        @mcp.tool()
        async def send(cmd: str) -> dict:
            try:
                return await link.send(cmd)
            except Exception as exc:
                return normalize_reply(Reply(ok=False, error=str(exc)).model_dump())
        """,
    "format-repair": """
        import json
        from langchain_core.tools import tool
        @tool
        def parse(s: str) -> dict:
            try:
                return json.loads(s)
            except json.JSONDecodeError as e:
                return {"error": f"invalid JSON: {e}"}
        """,
    "strands-text-after-handler": """
        from strands import tool
        @tool
        def fetch(url: str) -> dict:
            try:
                body = client.get(url)
            except Exception as e:
                body = f"failed: {e}"
            return {"status": "success", "content": [{"text": body}]}
        """,
    "smolagents-returns-exception": """
        from smolagents import Tool
        class Lookup(Tool):
            def forward(self, key):
                try:
                    return self.store.get(key)
                except Exception as e:
                    return [e]
        """,
    # s39: a result class's failure factory, read by the code it carries as TFH401 reads it (hello-agents' ToolResponse)
    "result-kind-code": """
        from mcp.server.fastmcp import FastMCP
        from .errors import ToolErrorCode
        mcp = FastMCP("x")
        @mcp.tool()
        def write(path: str) -> dict:
            try:
                return store.put(path)
            except PermissionError:
                return ToolResponse.error(code=ToolErrorCode.PERMISSION_DENIED, message="no access")
            except TimeoutError as e:
                return ToolResponse.error(code=ToolErrorCode.TIMEOUT, message=f"timed out: {e}")
        """,
    "result-catch-all-code": """
        from mcp.server.fastmcp import FastMCP
        from .errors import ToolErrorCode
        mcp = FastMCP("x")
        @mcp.tool()
        def edit(path: str) -> dict:
            try:
                return store.put(path)
            except Exception as e:
                return ToolResponse.error(code=ToolErrorCode.INTERNAL_ERROR, message=f"failed: {str(e)}")
        """,
    "result-catch-all-crafted": """
        from mcp.server.fastmcp import FastMCP
        from .errors import ToolErrorCode
        mcp = FastMCP("x")
        @mcp.tool()
        def edit(path: str) -> dict:
            try:
                return store.put(path)
            except Exception:
                return ToolResponse.error(code=ToolErrorCode.INTERNAL_ERROR, message="could not edit")
        """,
    # ... but a parse of a body already received says nothing of a failure outside (meta-ads' non-JSON answer)
    "local-parse-status": """
        import requests
        from langchain_core.tools import tool
        @tool
        def fetch(url: str) -> dict:
            response = requests.get(url, timeout=5)
            try:
                return response.json()
            except ValueError:
                return {"text_response": response.text, "status_code": response.status_code}
        """,
}

EXAMPLES = {
    f"{rule.code}-{kind}-{i}": code
    for rule in (StringifiedException, SilentFallback)
    for kind, codes in (("valid", rule.VALID), ("invalid", rule.INVALID))
    for i, code in enumerate(codes)
}


def _tools(code: str) -> list[tools.Tool]:
    return tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools


@pytest.mark.parametrize("name", [*FORMS, *EXAMPLES])
def test_failures_column_agrees_with_the_rules(name: str) -> None:
    found = _tools(FORMS.get(name) or EXAMPLES[name])
    for t in found:
        text = "text" in t.failures and t.failures_by is None
        assert text == ("TFH401" in t.findings), (t.name, t.failures, t.findings)
        if "TFH402" in t.findings:
            assert "swallowed" in t.failures, (t.name, t.failures, t.findings)


def test_the_forms_hold_tools_of_each_kind() -> None:
    """The comparison above is not vacuous: the forms give tools, with and without text failures."""
    rows = {name: _tools(code) for name, code in FORMS.items()}
    assert all(rows.values()), [n for n, r in rows.items() if not r]
    assert rows["langchain-exception-object"][0].findings == {"TFH401": 1}
    # a remote read's empty answer is TFH402 and "swallowed"; a local file's empty answer is "swallowed" only
    assert rows["remote-read-fallback"][0].findings == {"TFH402": 1}
    assert "swallowed" in rows["local-read-fallback"][0].failures and not rows["local-read-fallback"][0].findings
    assert rows["normalised-text"][0].findings == {"TFH401": 1} and "text" in rows["normalised-text"][0].failures
    assert rows["smolagents-returns-exception"][0].failures == ["text"]
    assert rows["mcp-crafted-message"][0].failures == ["fallback"]
    assert rows["langchain-swallowed"][0].failures == ["swallowed"]
    assert "TFH402" in rows["langchain-swallowed"][0].findings
    assert rows["strands-text-after-handler"][0].failures == ["text"]
    # the code a result carries decides as in TFH401: a kind types it, a catch-all code with the text is text
    assert rows["result-kind-code"][0].failures == ["typed"] and not rows["result-kind-code"][0].findings
    assert rows["result-catch-all-code"][0].failures == ["text"]
    assert rows["result-catch-all-crafted"][0].failures == ["fallback"]
    assert rows["local-parse-status"][0].failures == ["raised"]
    assert any(_tools(code) for code in EXAMPLES.values())
