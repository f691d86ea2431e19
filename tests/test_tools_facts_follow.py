"""`smullyan tools` (issue 28): a tool's facts follow the run's own helpers in other modules (``follow.py``):
calls out, findings and failure modes of ``from .utils import run_cli``-style helpers, a few levels deep, through a
package's re-export, ``utils.helper(...)`` after ``from pkg import utils``; and the standalone ``fastmcp`` server
turning a raised exception into text. The per-file ``lint`` is not changed by any of it."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_path
from tools_support import write_tree

UTILS = """
    import json
    import subprocess

    def run_cli(args, timeout=60):
        try:
            out = subprocess.run(["kubectl", *args], capture_output=True, text=True, timeout=timeout)
            return {"success": True, "output": out.stdout}
        except Exception as e:
            return {"success": False, "error": str(e)}

    def is_name(text):
        try:
            return text.isidentifier() and len(text) < 64
        except Exception:
            return False

    def list_items(kind):
        result = run_cli(["get", kind])
        return result.get("output", "").split()

    def parsed_items(kind):
        result = run_cli(["get", kind, "-o", "json"])
        if result["success"]:
            data = json.loads(result["output"])
            return data.get("items", [])
        return []
"""

PROBE = """
    import subprocess

    def exists(name):
        try:
            return subprocess.run(["kubectl", "get", "crd", name], timeout=10).returncode == 0
        except Exception:
            return False
"""


def _run(tmp_path: Path, files: dict[str, str]) -> dict[str, tools.Tool]:
    paths = write_tree(tmp_path, files)
    return {t.name: t for t in tools.run(paths, Config()).tools}


def test_an_imported_helper_gives_its_calls_findings_and_failures(tmp_path: Path) -> None:
    rows = _run(tmp_path, {
        "agent_tools/__init__.py": "",
        "agent_tools/utils.py": UTILS,
        "agent_tools/probe.py": PROBE,
        "agent_tools/server.py": """
            from mcp.server.fastmcp import FastMCP
            from .probe import exists
            from .utils import is_name, run_cli, list_items, parsed_items

            mcp = FastMCP("k8s")

            @mcp.tool()
            def get_thing(name: str) -> dict:
                if not is_name(name):
                    return {"error": "bad name"}
                if not exists("things.example.io"):
                    return {"error": "not installed"}
                return run_cli(["get", "thing", name])

            @mcp.tool()
            def list_things() -> list:
                if not is_name("thing"):
                    return []
                return list_items("thing")

            @mcp.tool()
            def parsed_things() -> list:
                return parsed_items("thing")
        """,
    })
    get = rows["get_thing"]
    assert {(c.what, c.timeout, c.helper) for c in get.calls} >= {("subprocess.run", "value", "run_cli"),
                                                                    ("subprocess.run", "value", "exists")}
    assert get.findings == {"TFH401": 1, "TFH402": 1}
    assert "text" in get.failures and "swallowed" in get.failures and "raised" not in get.failures
    # two levels: the tool -> list_items -> run_cli (a same-module helper of list_items): counted once
    listed = rows["list_things"]
    assert "swallowed" not in listed.failures  # is_name's local check calls nothing out: no failure of the tool's
    assert [(c.what, c.helper) for c in listed.calls] == [("subprocess.run", "run_cli")]
    assert listed.findings == {"TFH401": 1}
    # a caller that reads the helper's result and returns its own value drops the helper's exception text: the
    # call and the handler are on the tool's path, the text is not
    parsed = rows["parsed_things"]
    assert [(c.what, c.helper) for c in parsed.calls] == [("subprocess.run", "run_cli")]
    assert parsed.findings == {}
    assert parsed.failures == ["text"] and parsed.failures_by is not None  # the server's text, not run_cli's


def test_a_module_imported_whole_and_a_packages_re_export(tmp_path: Path) -> None:
    rows = _run(tmp_path, {
        "agent_tools/__init__.py": "",
        "agent_tools/helpers/__init__.py": "from .cli import run_cli\n",
        "agent_tools/helpers/cli.py": UTILS,
        "agent_tools/tools.py": """
            from langchain_core.tools import tool
            from agent_tools import helpers
            from agent_tools.helpers import run_cli

            @tool
            def first(name: str) -> str:
                \"\"\"Get it.\"\"\"
                return str(helpers.run_cli(["get", name]))

            @tool
            def second(name: str) -> str:
                \"\"\"Get it too.\"\"\"
                return str(run_cli(["describe", name]))
        """,
    })
    for name in ("first", "second"):
        assert [(c.what, c.helper) for c in rows[name].calls] == [("subprocess.run", "run_cli")], name
        assert rows[name].findings == {"TFH401": 1}, name


def test_a_method_of_an_object_built_from_the_runs_class(tmp_path: Path) -> None:
    rows = _run(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/client.py": """
            import requests

            class Api:
                def fetch(self, q):
                    return requests.get("https://api.example.com/search", params={"q": q}).json()
        """,
        "pkg/tools.py": """
            from langchain_core.tools import tool
            from .client import Api

            api = Api()

            @tool
            def search(q: str) -> str:
                \"\"\"Search.\"\"\"
                return str(api.fetch(q))
        """,
    })
    row = rows["search"]
    assert [(c.timeout, c.helper) for c in row.calls] == [("missing", "fetch")]  # named as a same-module helper is, by its own name
    assert row.classification == "read-safe" and row.source == "inferred" and "fetch" in row.evidence
    assert row.findings.get("TFH201") == 1


def test_following_stops_at_the_depth_and_at_other_packages(tmp_path: Path) -> None:
    chain = {f"pkg/h{i}.py": f"from .h{i + 1} import f{i + 1}\n\ndef f{i}():\n    return f{i + 1}()\n" for i in range(1, 5)}
    chain["pkg/h5.py"] = "import requests\n\ndef f5():\n    return requests.get('https://x.example.com').text\n"
    rows = _run(tmp_path, {
        "pkg/__init__.py": "",
        **chain,
        "pkg/tools.py": """
            from langchain_core.tools import tool
            from requests import get
            from .h1 import f1
            from .h3 import f3

            @tool
            def deep() -> str:
                \"\"\"Five helpers down.\"\"\"
                return f1()

            @tool
            def near() -> str:
                \"\"\"Three helpers down.\"\"\"
                return f3()
        """,
    })
    assert rows["deep"].calls == [] and rows["deep"].findings == {}
    assert [c.helper for c in rows["near"].calls] == ["f5"]


def test_the_per_file_lint_is_unchanged(tmp_path: Path) -> None:
    paths = write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/utils.py": UTILS,
        "pkg/server.py": """
            from mcp.server.fastmcp import FastMCP
            from .utils import run_cli

            mcp = FastMCP("k8s")

            @mcp.tool()
            def get_thing(name: str) -> dict:
                return run_cli(["get", "thing", name])
        """,
    })
    server = [p for p in paths if p.endswith("server.py")]
    assert [f.code for f in lint_path(Path(server[0]), Config())] == []


def test_standalone_fastmcp_returns_a_raised_exception_as_text(tmp_path: Path) -> None:
    rows = _run(tmp_path, {
        "app.py": """
            import requests
            from fastmcp import FastMCP

            mcp = FastMCP("demo")

            @mcp.tool()
            def fetch(url: str) -> str:
                return requests.get(url, timeout=5).text
        """,
    })
    assert rows["fetch"].failures == ["text"]
    assert rows["fetch"].failures_by == "fastmcp.server.server.FastMCP.call_tool"


def test_a_tool_class_named_by_the_literal_its_init_hands_its_base(tmp_path: Path) -> None:
    rows = _run(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """
            class Tool:
                def __init__(self, card):
                    self.card = card

                async def invoke(self, inputs):
                    raise NotImplementedError
        """,
        "pkg/tools.py": """
            from .base import Tool
            from .cards import ToolCard, build_tool_card

            class SwitchModeTool(Tool):
                def __init__(self, language="en"):
                    super().__init__(build_tool_card(name="switch_mode", language=language))

                async def invoke(self, inputs):
                    return inputs

            class SubmitTool(Tool):
                def __init__(self):
                    super().__init__(ToolCard("submit_survey", description="Submit it."))

                async def invoke(self, inputs):
                    return inputs

            class GoalTool(Tool):
                def __init__(self, language="en"):
                    card = build_tool_card("get_current_goal", language)
                    super().__init__(card)

                async def invoke(self, inputs):
                    return inputs

            class PlainTool(Tool):
                def __init__(self, card):
                    super().__init__(card)

                async def invoke(self, inputs):
                    return inputs
        """,
        "pkg/cards.py": "class ToolCard:\n    pass\n\ndef build_tool_card(name, language):\n    return ToolCard()\n",
    })
    assert {"switch_mode", "submit_survey", "get_current_goal", "PlainTool"} <= set(rows), sorted(rows)


def test_a_module_two_files_of_the_run_are_named_as_is_not_followed(tmp_path: Path) -> None:
    server = """
        from mcp.server.fastmcp import FastMCP
        from .utils import run_cli

        mcp = FastMCP("k8s")

        @mcp.tool()
        def get_thing(name: str) -> dict:
            return run_cli(["get", "thing", name])
    """
    rows = [t for t in tools.run(write_tree(tmp_path, {
        "pkg/__init__.py": "", "pkg/utils.py": UTILS, "pkg/server.py": server,
        "build/lib/pkg/__init__.py": "", "build/lib/pkg/utils.py": UTILS.replace("timeout=timeout", "timeout=5"),
    }), Config()).tools]
    assert [t.name for t in rows] == ["get_thing"]
    assert rows[0].calls == []  # which copy runs is not known: neither is shown
