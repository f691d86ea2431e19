"""`smullyan tools` (issue 28, s39): a tool that neither declares its class nor makes a call the facts classify (an SDK
client or a project helper they do not follow) is classed by its name's verb, shown as a guess ("by name"); a write
named for a delete, a set or an update needs no idempotency key; arcade's ``@tool`` returns a raised error to the model
as text (``ToolExecutor.run``); a handler around parsing a body already received (``response.json()``, a dict's
``get``) hides no failure of the tool."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from smullyan.linter import tools
from smullyan.linter.config import Config
from smullyan.linter.tools.report import format_markdown
from smullyan.linter.tools.verbs import name_verb
from tools_support import write_tree


def _run(tmp_path: Path, files: dict[str, str]) -> dict[str, tools.Tool]:
    return {t.name: t for t in tools.run(write_tree(tmp_path, files), Config(), jobs=1).tools}


@pytest.mark.parametrize(("name", "verb"), [
    ("get_best_run", "get"), ("helm_repo_list", "list"), ("tempo_fetch_traces_sample", "fetch"),
    ("getTagById", "get"), ("list-custom-line-item-versions", "list"), ("tcp_check", "check"),
    ("shutdown_guest", "shutdown"), ("DeleteModelAlias", "delete"),
    ("MongoDBAggregate", None), ("browser_click", None), ("run_command", None), ("bash", None),
])
def test_the_verb_of_a_tools_name(name: str, verb: str | None) -> None:
    assert name_verb(name) == verb


SDK = """
    from mcp.server.fastmcp import FastMCP
    from proxmoxer import ProxmoxAPI

    mcp = FastMCP("pve")
    api = ProxmoxAPI("host", user="u", password="p")

    @mcp.tool()
    def list_templates(node: str) -> list:
        return api.nodes(node).storage("local").content.get()

    @mcp.tool()
    def shutdown_guest(node: str, vmid: int) -> str:
        return api.nodes(node).qemu(vmid).status.shutdown.post()

    @mcp.tool()
    def create_wallet(name: str) -> str:
        return api.wallets.post(name=name)

    @mcp.tool()
    def remove_user(user: str) -> str:
        return api.access.users(user).delete()

    @mcp.tool()
    def fiddle(x: str) -> str:
        return api.things(x).frob()

    @mcp.tool()
    def get_page(url: str) -> str:
        import requests
        requests.post(url, json={"a": 1})
        return "ok"
"""


def test_a_tool_nothing_classes_is_classed_by_its_names_verb(tmp_path: Path) -> None:
    rows = _run(tmp_path, {"pve.py": SDK})
    got = {n: (t.classification, t.source, t.evidence, t.key) for n, t in rows.items()}
    assert got["list_templates"] == ("read-safe", "inferred", "by name (list)", "not-needed")
    assert got["shutdown_guest"] == ("idempotent-write", "inferred", "by name (shutdown)", "not-needed")
    assert got["create_wallet"] == ("non-idempotent-write", "inferred", "by name (create)", "missing")
    # a delete is destructive but repeating it leaves it done: no key needed
    assert got["remove_user"] == ("irreversible", "inferred", "by name (remove)", "not-needed")
    assert got["fiddle"][:2] == ("unknown", "unknown")  # no verb: no guess
    # the calls decide when they classify: the name gives way
    assert got["get_page"][:2] == ("non-idempotent-write", "inferred") and "by name" not in got["get_page"][2]


def test_the_table_marks_a_class_read_from_the_name(tmp_path: Path) -> None:
    run = tools.run(write_tree(tmp_path, {"pve.py": SDK}), Config(), jobs=1)
    out = io.StringIO()
    format_markdown(run, out)
    text = out.getvalue()
    line = next(ln for ln in text.splitlines() if "list_templates" in ln)
    assert "read-safe (by name)" in line


DECLARED = """
    from mcp.server.fastmcp import FastMCP
    from mcp.types import ToolAnnotations
    from mlflow import MlflowClient

    mcp = FastMCP("ml")

    @mcp.tool(annotations=ToolAnnotations(destructiveHint=True))
    def delete_model_alias(name: str, alias: str) -> str:
        MlflowClient().delete_registered_model_alias(name, alias)
        return "deleted"

    @mcp.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False))
    def send_note(text: str) -> str:
        return text
"""


def test_a_declared_write_named_for_a_delete_needs_no_key(tmp_path: Path) -> None:
    rows = _run(tmp_path, {"ml.py": DECLARED})
    assert (rows["delete_model_alias"].classification, rows["delete_model_alias"].key) == ("irreversible", "not-needed")
    assert (rows["send_note"].classification, rows["send_note"].key) == ("non-idempotent-write", "missing")


ARCADE = """
    import httpx
    from arcade_tdk import ToolContext, tool

    @tool(requires_auth=None)
    async def get_lists_for_folder(context: ToolContext, folder_id: str) -> dict:
        async with httpx.AsyncClient(timeout=10) as client:
            response = await client.get(f"https://api.clickup.com/folder/{folder_id}/list")
            response.raise_for_status()
            return response.json()
"""


def test_arcade_returns_a_raised_error_to_the_model_as_text(tmp_path: Path) -> None:
    t = _run(tmp_path, {"clickup.py": ARCADE})["get_lists_for_folder"]
    assert t.framework == "arcade"
    assert t.failures == ["text"] and t.failures_by == "arcade_core.executor.ToolExecutor.run"


SDKS = """
    from mcp.server.fastmcp import FastMCP
    from mlflow.tracking import MlflowClient
    from slack_sdk.web.async_client import AsyncWebClient

    mcp = FastMCP("sdk")

    @mcp.tool()
    def best(experiment: str) -> str:
        client = MlflowClient()
        return str(client.search_runs([experiment], max_results=1))

    @mcp.tool()
    def tag(run_id: str, key: str, value: str) -> str:
        client = MlflowClient()
        client.set_tag(run_id, key, value)
        return "ok"

    @mcp.tool()
    async def members(token: str, channel: str) -> list:
        slack_client = AsyncWebClient(token=token)
        response = await slack_client.conversations_members(channel=channel)
        return response["members"]
"""


def test_mlflow_and_slack_sdk_client_calls_are_listed_and_class_the_tool(tmp_path: Path) -> None:
    rows = _run(tmp_path, {"sdk.py": SDKS})
    got = {n: ([(c.what, c.cls, c.timeout) for c in t.calls], t.classification, t.source) for n, t in rows.items()}
    assert got["best"] == ([("MlflowClient.search_runs", "read-safe", "unknown")], "read-safe", "inferred")
    assert got["tag"] == ([("MlflowClient.set_tag", "idempotent-write", "unknown")], "idempotent-write", "inferred")
    assert got["members"] == ([("WebClient.conversations_members", "read-safe", "unknown")], "read-safe", "inferred")


PARSE = """
    import httpx
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("ads")

    @mcp.tool()
    def duplicate_thing(thing_id: str) -> str:
        response = httpx.post(f"https://api.example/things/{thing_id}/copies", timeout=30)
        if response.status_code != 200:
            detail = response.text
            try:
                detail = response.json().get("message", detail)
            except Exception:
                pass
            raise RuntimeError(f"duplication failed: {detail}")
        return response.text

    @mcp.tool()
    def fetch_thing(thing_id: str) -> str:
        try:
            return httpx.get(f"https://api.example/things/{thing_id}", timeout=30).text
        except Exception:
            pass
        return ""
"""


def test_a_handler_around_parsing_a_received_body_is_no_swallowed_failure(tmp_path: Path) -> None:
    rows = _run(tmp_path, {"ads.py": PARSE})
    assert "swallowed" not in rows["duplicate_thing"].failures  # the error body's parse: the failure is raised
    assert "swallowed" in rows["fetch_thing"].failures  # the request itself: a failure hidden
