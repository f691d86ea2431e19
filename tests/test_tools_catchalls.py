"""`smullyan tools` rows (issue 28, session 47; batch 19's rows read column by column): the run's own catch-alls the
model reads when a tool raises, and a per-item error list, agree with TFH401 in the failures and findings columns.

- a decorator of the module, applied below the tool's own, whose wrapper runs the tool in a ``try`` answering the
  exception's text (``@handle_errors``): failures ``text`` by that decorator, and its TFH401 in the row's findings;
- a method building a dispatch dict, looking the tool up in it and calling it in such a ``try`` (``ToolExecutor.execute``):
  the same, for each tool of the dict that raises;
- a handler appending the exception's text to a list the tool returns (``errors.append({"error": str(e)})``): ``text``,
  where TFH401 reports the returned list, not ``swallowed``."""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

DECORATED = """
    import functools
    import json

    import httpx
    from fastmcp import FastMCP

    mcp = FastMCP("x")


    def handle_errors(func):
        @functools.wraps(func)
        async def wrapper(*args, **kwargs):
            try:
                return await func(*args, **kwargs)
            except Exception as e:
                return json.dumps({"error": True, "message": f"Error: {str(e)}"})

        return wrapper


    def traced(func):
        @functools.wraps(func)
        async def wrapper(*args, **kwargs):
            print("calling", func.__name__)
            return await func(*args, **kwargs)

        return wrapper


    @mcp.tool()
    @handle_errors
    async def get_order(order_id: str) -> str:
        async with httpx.AsyncClient(timeout=10) as client:
            return (await client.get(f"https://api.example.com/orders/{order_id}")).text


    @mcp.tool()
    @traced
    async def get_shop(shop_id: str) -> str:
        async with httpx.AsyncClient(timeout=10) as client:
            return (await client.get(f"https://api.example.com/shops/{shop_id}")).text


    @handle_errors
    @mcp.tool()
    async def get_item(item_id: str) -> str:
        async with httpx.AsyncClient(timeout=10) as client:
            return (await client.get(f"https://api.example.com/items/{item_id}")).text
"""


def test_a_decorator_of_the_module_answering_text_is_the_rows_runner(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/server.py": DECORATED})
    order = rows["get_order"]
    assert order.failures == ["text"] and order.failures_by == "x.server.handle_errors"
    assert order.findings == {"TFH401": 1}  # the wrapper's catch-all: what the model reads
    # a decorator that catches nothing, and one above the registering decorator (it wraps what FastMCP took): the
    # framework's text, no finding of the run
    for name in ("get_shop", "get_item"):
        assert rows[name].failures_by != "x.server.handle_errors" and rows[name].findings == {}, name


EXECUTOR = """
    import subprocess
    from pathlib import Path

    SCHEMAS = [
        {"type": "function", "function": {"name": "read_file", "parameters": {}}},
        {"type": "function", "function": {"name": "run_command", "parameters": {}}},
        {"type": "function", "function": {"name": "list_dir", "parameters": {}}},
    ]


    class ToolExecutor:
        def __init__(self, root: Path) -> None:
            self.root = root

        def execute(self, tool_name: str, args: dict) -> str:
            dispatch = {
                "read_file": self._read_file,
                "run_command": self._run_command,
                "list_dir": self._list_dir,
            }
            handler = dispatch.get(tool_name)
            if handler is None:
                return f"Error: Unknown tool '{tool_name}'"
            try:
                return handler(args)
            except Exception as exc:
                return f"Error: {exc}"

        def _read_file(self, args: dict) -> str:
            return (self.root / args["path"]).read_text()

        def _run_command(self, args: dict) -> str:
            return subprocess.run(args["cmd"], shell=True, capture_output=True, text=True, timeout=30).stdout

        def _list_dir(self, args: dict) -> str:
            try:
                return "\\n".join(p.name for p in (self.root / args["path"]).iterdir())
            except OSError:
                return ""
"""


def test_a_method_running_its_own_dispatch_dict_in_a_try_answering_text(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/executor.py": EXECUTOR})
    for name in ("read_file", "run_command"):
        assert rows[name].failures == ["text"], name
        assert rows[name].failures_by == "x.executor.ToolExecutor.execute", name
        assert rows[name].findings.get("TFH401") == 1, name
    # a tool that answers its failures itself leaves nothing for the runner: not named, no runner finding
    assert rows["list_dir"].failures_by is None and "TFH401" not in rows["list_dir"].findings


PER_ITEM = """
    import json

    import httpx
    from fastmcp import FastMCP

    mcp = FastMCP("x")
    SHOPS = ["a", "b"]


    @mcp.tool()
    def refresh_all() -> str:
        results, errors = [], []
        for shop in SHOPS:
            try:
                results.append(httpx.post(f"https://api.example.com/{shop}/refresh", timeout=10).json())
            except Exception as e:
                errors.append({"shop": shop, "error": str(e)})
        return json.dumps({"results": results, "errors": errors})


    @mcp.tool()
    def ping_all() -> str:
        results, failed = [], []
        for shop in SHOPS:
            try:
                results.append(httpx.get(f"https://api.example.com/{shop}/ping", timeout=10).json())
            except Exception:
                failed.append(shop)
        return json.dumps({"results": results, "failed": failed})
"""


def test_a_handler_appending_the_text_to_a_returned_list_is_text(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/server.py": PER_ITEM})
    assert rows["refresh_all"].failures == ["text"] and rows["refresh_all"].findings == {"TFH401": 1}
    # the item's name only, no text: as before (no TFH401, not text)
    assert "text" not in rows["ping_all"].failures and rows["ping_all"].findings == {}


TOOL_BASE = """
    from typing import Any, Dict


    class Tool:
        name: str = "tool"
        description: str = ""
        parameters: Dict[str, Any] = {}

        def execute(self, args: Dict[str, Any]) -> Dict[str, Any]:
            raise NotImplementedError
"""

TOOLS = """
    import httpx

    from . import Tool


    class FetchTool(Tool):
        name = "fetch"
        description = "Fetch a page."

        def execute(self, args):
            return {"text": httpx.get(args["url"], timeout=10).text}


    class PingTool(Tool):
        name = "ping"
        description = "Ping a host."

        def execute(self, args):
            try:
                return {"ok": httpx.get(args["url"], timeout=10).is_success}
            except httpx.HTTPError:
                return {"ok": False}
"""

RUNTIME = """
    from typing import Any, Dict

    from .tools import Tool


    class Runtime:
        def __init__(self, registry: Dict[str, Tool]) -> None:
            self.registry = registry

        def dispatch_tool(self, name: str, args: Dict[str, Any]) -> Dict[str, Any]:
            tool = self.registry.get(name)
            if not tool:
                return {"error": f"unknown tool: {name}"}
            try:
                return tool.execute(args)
            except Exception as exc:
                return {"error": f"tool {name} raised: {exc}"}
"""


def test_a_runner_calling_tools_looked_up_in_a_table_of_their_class(tmp_path: Path) -> None:
    files = {"x/__init__.py": "", "x/tools/__init__.py": TOOL_BASE, "x/tools/web.py": TOOLS}
    alone = tools_by_name(tmp_path / "alone", files)
    assert alone["fetch"].failures == ["raised"] and alone["fetch"].findings == {}  # no runner in the run
    rows = tools_by_name(tmp_path / "run", {**files, "x/runtime.py": RUNTIME})
    assert rows["fetch"].failures == ["text"] and rows["fetch"].failures_by == "x.runtime.Runtime.dispatch_tool"
    assert rows["fetch"].findings == {"TFH401": 1}  # the runner's catch-all: what the model reads
    # a tool answering its failures itself: the runner's text is not its answer
    assert rows["ping"].failures_by is None and rows["ping"].findings == {}
    # a table of other objects (no annotation naming the tools' class): no runner
    plain = tools_by_name(tmp_path / "plain", {**files, "x/runtime.py": RUNTIME.replace("Dict[str, Tool]", "dict")})
    assert plain["fetch"].failures == ["raised"] and plain["fetch"].findings == {}


PER_ITEM_SKIP = TOOLS + """

    class FilesTool(Tool):
        name = "files"
        description = "List a directory's files by size."

        def execute(self, args):
            sizes = []
            for p in httpx.get(args["url"], timeout=10).json():
                if p:
                    try:
                        sizes.append(httpx.head(p, timeout=10).headers["content-length"])
                    except httpx.HTTPError:
                        continue
            return {"sizes": sizes}
"""


def test_a_handler_skipping_one_item_of_a_loop_catches_none_of_the_tools_other_failures(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/tools/__init__.py": TOOL_BASE, "x/tools/web.py": PER_ITEM_SKIP,
                                    "x/runtime.py": RUNTIME})
    # the item's skip is kept (swallowed); the request before the loop fails to the runner, which answers text
    files = rows["files"]
    assert set(files.failures) == {"text", "swallowed"} and files.failures_by == "x.runtime.Runtime.dispatch_tool"
    assert files.findings == {"TFH401": 1}
    assert rows["ping"].failures_by is None  # a handler around the tool's one call (no loop): as before
