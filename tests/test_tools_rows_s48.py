"""`smullyan tools`' class and key columns (issue 28, session 48; batch 20's tool rows read column by column).

- MCP hints a module names once and hands each tool's decorator (``WRITE = ToolAnnotations(idempotent_hint=False)``,
  ``@mcp.tool(annotations=WRITE)``) are declared as the literal hints are (iotamine's ``purchase_ip``, manager's
  ``issue_deposit_invoice``); a name bound twice, or to a parameter, states nothing.
- A path's own predicates (``candidate.is_absolute()``, ``p.is_symlink()``) on a path the function made stay on the
  machine: a workspace glob through the package's ``resolve_path`` is ``local`` (coderill's ``glob``).
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
