"""`smullyan tools`' class and key columns (issue 28, session 48; batch 20's tool rows read column by column).

- MCP hints a module names once and hands each tool's decorator (``WRITE = ToolAnnotations(idempotent_hint=False)``,
  ``@mcp.tool(annotations=WRITE)``) are declared as the literal hints are (iotamine's ``purchase_ip``, manager's
  ``issue_deposit_invoice``); a name bound twice, or to a parameter, states nothing.
- The HTTP method a function the tool reaches below the first one hands the run's request helper
  (``_post(client, ...)`` -> ``Client.post`` -> ``self._send("POST", ...)``) classes a row nothing else classes, as
  the method handed by a function the tool calls itself did.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

HINTS = """
    from mcp.server.fastmcp import FastMCP
    from mcp.types import ToolAnnotations

    READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True)
    WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False)
    DESTRUCTIVE = {"readOnlyHint": False, "destructiveHint": True}
    TWICE = ToolAnnotations(readOnlyHint=True)
    TWICE = ToolAnnotations(readOnlyHint=False, idempotentHint=False)

    mcp = FastMCP("x")


    def register(client, hints):
        @mcp.tool(annotations=WRITE)
        def purchase_ip(pop: int) -> dict:
            return client.post("ip-addresses/purchase/", json={"pop": pop})

        @mcp.tool(annotations=READ_ONLY)
        def list_ips() -> dict:
            return client.get("ip-addresses/")

        @mcp.tool(annotations=DESTRUCTIVE)
        def release_ip(ip: str) -> dict:
            return client.delete(f"ip-addresses/{ip}/")

        @mcp.tool(annotations=TWICE)
        def rebound(ip: str) -> dict:
            return client.get(f"ip-addresses/{ip}/")

        @mcp.tool(annotations=hints)
        def handed(ip: str) -> dict:
            return client.get(f"ip-addresses/{ip}/")
"""


def test_hints_a_module_constant_holds_are_declared(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/server.py": HINTS})
    got = {n: (rows[n].classification, rows[n].source, rows[n].key) for n in ("purchase_ip", "list_ips", "release_ip")}
    assert got == {"purchase_ip": ("non-idempotent-write", "declared", "missing"),
                   "list_ips": ("read-safe", "declared", "not-needed"),
                   "release_ip": ("irreversible", "declared", "missing")}


def test_a_name_bound_twice_or_a_parameter_declares_nothing(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/server.py": HINTS})
    assert rows["rebound"].source != "declared" and rows["handed"].source != "declared"


CLIENT = """
    import httpx


    class ShopClient:
        def __init__(self) -> None:
            self._client = httpx.Client(base_url="https://shop.example", timeout=30)

        def get(self, path: str):
            return self._send("GET", path)

        def post(self, path: str, json=None):
            return self._send("POST", path, json=json)

        def _send(self, method: str, path: str, json=None):
            method = method.upper()
            return self._client.request(method, path, json=json).json()
"""

TASKS = """
    from .client import ShopClient


    def _create(client: ShopClient, path: str, fields: dict) -> dict:
        body = client.post(path, json=fields)
        return client.get(f"{path}/{body['key']}")


    def _read(client: ShopClient, path: str) -> dict:
        return client.get(path)


    def open_quote(client: ShopClient, fields: dict) -> dict:
        return _create(client, "/quotes", fields)


    def show_quote(client: ShopClient, key: str) -> dict:
        return _read(client, f"/quotes/{key}")
"""

SERVER = """
    from fastmcp import FastMCP

    from . import tasks
    from .client import ShopClient

    mcp = FastMCP("x")
    CLIENT = ShopClient()


    @mcp.tool()
    def deposit_quote(fields: dict) -> dict:
        return tasks.open_quote(CLIENT, fields)


    @mcp.tool()
    def quote_details(key: str) -> dict:
        return tasks.show_quote(CLIENT, key)
"""


def test_a_method_handed_the_request_helper_two_functions_down_classes_the_row(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/client.py": CLIENT, "x/tasks.py": TASKS,
                                    "x/server.py": SERVER})
    got = {n: (rows[n].classification, rows[n].key) for n in ("deposit_quote", "quote_details")}
    assert got == {"deposit_quote": ("non-idempotent-write", "missing"), "quote_details": ("read-safe", "not-needed")}


BASE = """
    from pathlib import Path


    class ToolError(Exception):
        pass


    def resolve_path(root: Path, path: str) -> Path:
        candidate = Path(path).expanduser()
        if not candidate.is_absolute():
            candidate = root / candidate
        resolved = candidate.resolve()
        if resolved != root and root not in resolved.parents:
            raise ToolError(f"path '{path}' is outside the workspace root")
        return resolved
"""

GLOB = """
    from pathlib import Path

    from fastmcp import FastMCP

    from .base import resolve_path

    mcp = FastMCP("x")
    ROOT = Path.cwd()


    @mcp.tool()
    def glob(pattern: str, path: str = ".") -> str:
        base = resolve_path(ROOT, path)
        matches = [p for p in base.glob(pattern) if p.is_file() and not p.is_symlink()]
        return "\\n".join(str(p) for p in matches)


    @mcp.tool()
    def pathwork(path: str, client) -> str:
        base = resolve_path(ROOT, path)
        return client.is_absolute(str(base))
"""


def test_a_path_s_own_predicates_stay_on_the_machine(tmp_path: Path) -> None:
    """``candidate.is_absolute()``, ``p.is_symlink()`` on a path the function made: a workspace glob is ``local``;
    the same method on a parameter of unknown type (``client.is_absolute(...)``) keeps the row unknown."""
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/base.py": BASE, "x/server.py": GLOB})
    assert (rows["glob"].classification, rows["glob"].key) == ("local", "not-needed")
    assert rows["pathwork"].classification == "unknown"
