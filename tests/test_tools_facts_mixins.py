"""`smullyan tools` (issue 28, session 43): calls a tool makes through an API client the run builds from mixins
(batch 15's immich and portainer rows): a method called straight on what a run function returns (``_client(ctx).update_tag(...)``),
a method the client's class inherits from a mixin base, the mixin's ``self._request(...)`` that only the class mixing
it in defines (through its other base), and the client handed to a same-module helper (``_append_note(_client(ctx),
...)``); a tool classed by the HTTP method a client's verb method hands its request helper (``self.request("POST",
...)``)."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config
from tools_support import write_tree

BASE = """
    import httpx


    class ApiBase:
        def __init__(self, url: str) -> None:
            self.url = url

        async def _request(self, method: str, path: str, json: dict | None = None) -> dict:
            async with httpx.AsyncClient(timeout=30.0) as client:
                response = await client.request(method, self.url + path, json=json)
                response.raise_for_status()
                return response.json()
"""

TAGS = """
    class TagsApi:
        async def update_tag(self, tag_id: str, **fields) -> dict:
            return await self._request("PUT", f"/tags/{tag_id}", json=fields)

        async def upsert_note(self, asset_id: str, note: dict) -> dict:
            return await self._request("PUT", f"/assets/{asset_id}/metadata", json=note)
"""

CLIENT = """
    from .base import ApiBase
    from .tags import TagsApi


    class PhotoClient(ApiBase, TagsApi):
        pass
"""

APP = """
    from mcp.server.fastmcp import FastMCP

    from .client import PhotoClient

    mcp = FastMCP("photos")


    def _client(ctx) -> PhotoClient:
        return ctx.request_context.lifespan_context["client"]
"""


def _rows(tmp_path: Path, tools_py: str) -> dict[str, tools.Tool]:
    paths = write_tree(tmp_path, {"photos/__init__.py": "", "photos/base.py": BASE, "photos/tags.py": TAGS,
                                  "photos/client.py": CLIENT, "photos/app.py": APP, "photos/tools.py": tools_py})
    return {t.name: t for t in tools.run(paths, Config()).tools}


def test_a_mixin_method_on_a_returned_client_reaches_the_request_its_sibling_base_sends(tmp_path: Path) -> None:
    rows = _rows(tmp_path, """
        from .app import mcp, _client


        @mcp.tool()
        async def update_tag(ctx, tag_id: str, color: str) -> dict:
            return await _client(ctx).update_tag(tag_id, color=color)


        async def _append_note(client, asset_id: str, note: dict) -> None:
            await client.upsert_note(asset_id, note)


        @mcp.tool()
        async def record_action(ctx, asset_id: str, action: str) -> str:
            await _append_note(_client(ctx), asset_id, {"action": action})
            return "ok"
    """)
    # _client(ctx) -> PhotoClient; update_tag is TagsApi's (a base); its self._request is ApiBase's (PhotoClient's
    # other base), with the AsyncClient's timeout
    for name in ("update_tag", "record_action"):
        assert [(c.what, c.timeout, c.timeout_value, c.helper) for c in rows[name].calls] == [
            ("httpx.AsyncClient.request", "value", "30.0", "_request")], name


def test_a_method_no_class_of_the_run_defines_or_two_mixers_define_differently_is_not_followed(tmp_path: Path) -> None:
    rows = _rows(tmp_path, """
        from .app import mcp, _client


        @mcp.tool()
        async def rename(ctx, tag_id: str, name: str) -> dict:
            return await _client(ctx).rename_tag(tag_id, name)
    """)
    assert rows["rename"].calls == []


def test_the_http_method_a_clients_verb_method_hands_its_request_helper_classes_the_tool(tmp_path: Path) -> None:
    paths = write_tree(tmp_path, {
        "ops/__init__.py": "",
        "ops/client.py": """
            import httpx


            class OpsClient:
                async def request(self, method: str, path: str, **kwargs) -> httpx.Response:
                    async with httpx.AsyncClient(timeout=30.0) as client:
                        return await client.request(method, "https://ops.example.com" + path, **kwargs)

                async def get(self, path: str, **kwargs) -> dict:
                    return (await self.request("GET", path, **kwargs)).json()

                async def post(self, path: str, **kwargs) -> dict:
                    return (await self.request(method="POST", path=path, **kwargs)).json()


            _client = None


            def get_client() -> OpsClient:
                global _client
                if _client is None:
                    _client = OpsClient()
                return _client
        """,
        "ops/server.py": """
            from mcp.server.fastmcp import FastMCP

            from .client import get_client

            mcp = FastMCP("ops")


            @mcp.tool()
            async def stack_deploy(name: str) -> dict:
                client = get_client()
                await client.get(f"/api/stacks/{name}")
                return await client.post("/api/stacks", json={"Name": name})


            @mcp.tool()
            async def stack_yaml(name: str) -> dict:
                return await get_client().get(f"/api/stacks/{name}")


            @mcp.tool()
            async def search_stacks(query: str) -> dict:
                return await get_client().post("/api/stacks/search", json={"q": query})
        """,
    })
    rows = {t.name: t for t in tools.run(paths, Config()).tools}
    # the request helper's method is a parameter: the literal each verb method hands it says what the tool does
    deploy, show = rows["stack_deploy"], rows["stack_yaml"]
    assert (deploy.classification, deploy.source, deploy.evidence, deploy.key) == (
        "non-idempotent-write", "inferred", "POST through post()", "missing")
    assert (show.classification, show.evidence, show.key) == ("read-safe", "GET through get()", "not-needed")
    # a name with a verb the tables know keeps its guess: a search sent as POST is a read
    assert (rows["search_stacks"].classification, rows["search_stacks"].evidence) == ("read-safe", "by name (search)")
    assert [(c.what, c.timeout, c.helper) for c in show.calls] == [("httpx.AsyncClient.request", "unknown", "request")]  # **kwargs handed in


def test_a_method_on_a_helpers_value_of_no_run_class_keeps_a_local_tool_local(tmp_path: Path) -> None:
    paths = write_tree(tmp_path, {
        "scen/__init__.py": "",
        "scen/service.py": """
            from pathlib import Path


            class ScenarioService:
                def __init__(self, base: Path) -> None:
                    self._dir = base / "scenarios"

                def _path(self, scenario_id: str) -> Path:
                    return self._dir / f"{scenario_id}.json"

                def delete(self, scenario_id: str) -> None:
                    self._path(scenario_id).unlink()
        """,
        "scen/tools.py": """
            from pathlib import Path

            from langchain_core.tools import BaseTool

            from .service import ScenarioService


            class DeleteScenarioTool(BaseTool):
                name: str = "delete_scenario"
                description: str = "Delete a scenario"

                def __init__(self, base: Path) -> None:
                    super().__init__()
                    self._service = ScenarioService(base)

                def _run(self, scenario_id: str) -> str:
                    self._service.delete(scenario_id)
                    return "deleted"
        """,
    })
    row = {t.name: t for t in tools.run(paths, Config()).tools}["delete_scenario"]
    # ``self._path(x).unlink()``: a Path's method on the helper's value, no function of the run
    assert (row.classification, row.source) == ("local", "inferred")
