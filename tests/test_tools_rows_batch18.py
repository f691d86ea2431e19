"""`smullyan tools` rows (issue 28, session 46; batch 18's rows read column by column): a handler handing the caught
exception to a helper that never returns (``except ApiError as e: raise_tool_error(e)``, the helper ``-> NoReturn`` or
ending in ``raise ToolError(...)`` on every path) gives the model what that helper raises, not silence."""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

ERRORS = """
    from typing import NoReturn

    from fastmcp.exceptions import ToolError


    def format_error(err):
        return f"{type(err).__name__}: {err}"


    def raise_tool_error(err) -> NoReturn:
        raise ToolError(format_error(err)) from err


    def fail(err):
        if isinstance(err, TimeoutError):
            raise ToolError("timed out") from err
        else:
            raise ToolError(format_error(err)) from err


    def reraise(err) -> NoReturn:
        raise RuntimeError(str(err))


    def note(err):
        print(err)
"""

SERVER = """
    import httpx
    from fastmcp import FastMCP

    from .errors import fail, note, raise_tool_error, reraise

    mcp = FastMCP("x")


    @mcp.tool()
    def get_item(item_id: str) -> str:
        try:
            return httpx.get(f"https://api.example.com/items/{item_id}", timeout=10).text
        except httpx.HTTPError as e:
            raise_tool_error(e)


    @mcp.tool()
    def put_item(item_id: str, body: str) -> str:
        try:
            return httpx.put(f"https://api.example.com/items/{item_id}", content=body, timeout=10).text
        except httpx.HTTPError as e:
            fail(e)


    @mcp.tool()
    def del_item(item_id: str) -> str:
        try:
            return httpx.delete(f"https://api.example.com/items/{item_id}", timeout=10).text
        except httpx.HTTPError as e:
            reraise(e)


    @mcp.tool()
    def head_item(item_id: str) -> str:
        try:
            return httpx.head(f"https://api.example.com/items/{item_id}", timeout=10).text
        except httpx.HTTPError as e:
            note(e)
"""


def test_a_handler_handing_the_exception_to_a_helper_that_always_raises_is_no_swallow(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/errors.py": ERRORS, "x/server.py": SERVER})
    # ``-> NoReturn`` raising a ToolError, and a helper whose every branch raises one: the model reads a typed error
    assert rows["get_item"].failures == ["typed"]
    assert rows["put_item"].failures == ["typed"]
    # a helper raising anything else: the framework gets the exception (FastMCP renders it as text)
    assert "swallowed" not in rows["del_item"].failures and rows["del_item"].failures in (["raised"], ["text"])
    # a helper that returns (prints the error): the handler still swallows it
    assert rows["head_item"].failures == ["swallowed"]


def test_a_same_module_helper_that_always_raises(tmp_path: Path) -> None:
    server = ERRORS + SERVER.replace("from .errors import fail, note, raise_tool_error, reraise\n", "")
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/server.py": server})
    assert rows["get_item"].failures == ["typed"]
    assert rows["put_item"].failures == ["typed"]
    assert "swallowed" not in rows["del_item"].failures
    assert rows["head_item"].failures == ["swallowed"]


CLIENT = """
    from devhelm import Devhelm
    from hcloud import Client


    def get_client(token=None) -> Devhelm:
        return Devhelm(token=token or "t")


    def cloud(token):
        return Client(token=token)


    def settings(name):
        return {"name": name}
"""

SDK_TOOLS = """
    from fastmcp import FastMCP

    from .client import cloud, get_client, settings

    mcp = FastMCP("x")


    def _pages(token):
        return get_client(token).status_pages


    @mcp.tool()
    def get_service(slug: str) -> dict:
        return get_client().services.get(slug)


    @mcp.tool()
    def remove_domain(page: str, domain: str) -> str:
        _pages(None).domains.remove(page, domain)
        return "removed"


    @mcp.tool()
    def delete_server(server_id: int) -> str:
        cloud("t").servers.delete(server_id)
        return "deleted"


    @mcp.tool()
    def setting(name: str) -> str:
        return settings(name).get("name")
"""


def test_calls_on_an_sdk_client_a_function_of_the_run_returns_are_calls_out(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/client.py": CLIENT, "x/server.py": SDK_TOOLS})
    assert [c.what for c in rows["get_service"].calls] == ["Devhelm.services.get"]
    # through a same-module helper returning a namespace of the client another module's function builds
    assert [c.what for c in rows["remove_domain"].calls] == ["Devhelm.status_pages.domains.remove"]
    assert "Client.servers.delete" in [c.what for c in rows["delete_server"].calls]
    assert all(c.cls is None and c.timeout == "unknown" for c in rows["get_service"].calls)  # the SDK's own
    # a function returning a plain dict: ``.get`` on it is no call out
    assert rows["setting"].calls == []


def test_sdk_clients_built_in_a_try_at_the_top_or_by_an_annotated_method(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/server.py": """
        from atlassian import ServiceDesk
        from fastmcp import FastMCP
        from kubernetes import client

        mcp = FastMCP("x")

        try:
            custom = client.CustomObjectsApi()
        except Exception:
            custom = None


        class Desk:
            def __init__(self, url):
                self._sd = self._build(url)

            @staticmethod
            def _build(url) -> ServiceDesk:
                return ServiceDesk(url=url)

            def add_users(self, org, users):
                return self._sd.add_users_to_organization(org, users_list=users)


        desk = Desk("https://jira.example.com")


        @mcp.tool()
        def list_taskruns(namespace: str) -> dict:
            return custom.list_namespaced_custom_object("tekton.dev", "v1", namespace, "taskruns")


        @mcp.tool()
        def add_users(org: str, users: list[str]) -> str:
            return str(desk.add_users(org, users))
    """})
    assert [c.what for c in rows["list_taskruns"].calls] == ["CustomObjectsApi.list_namespaced_custom_object"]
    assert "ServiceDesk.add_users_to_organization" in [c.what for c in rows["add_users"].calls]
