"""`smullyan tools` (issue 28): what a tool inherits through classes at any depth, across the files of a run:
an activity-style decorator of the package an ancestor comes from, and a base ``run`` that turns the tools'
exceptions into text (their raised failures are then "text", and ``failures_by`` names that method)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from smullyan.linter import tools
from smullyan.linter.cli import main
from smullyan.linter.config import Config
from tools_support import OUTSIDE, write_tree as _write


# --------------------------------------------------------------------------- activity-style at any depth


def test_activity_style_methods_of_a_subclass_of_a_project_base_in_another_file(tmp_path: Path) -> None:
    # a framework no table knows (upsonic, once used here, is in the tables since session 42: its ``@tool`` is a tool
    # decorator by itself), found by the activity-style rule alone
    files = _write(tmp_path, {
        "myapp/__init__.py": "",
        "myapp/base.py": """
            from toolforge.tools import ToolKit

            class CompanyKit(ToolKit):
                timeout = 10
            """,
        "myapp/kits/__init__.py": "from ..base import CompanyKit\n",
        "myapp/kits/search.py": """
            from toolforge.tools import tool
            from myapp.kits import CompanyKit

            class Middle(CompanyKit):
                pass

            class SearchKit(Middle):
                @tool
                def search(self, q: str) -> str:
                    return q

                def _helper(self) -> None:
                    pass
            """,
    })
    result = tools.run(files, Config())
    assert [(t.name, t.framework, t.form) for t in result.tools] == [("search", "toolforge", "@tool")]
    # without the base in the run, the same file alone has no way to know: no tool, no guess
    alone = tools.run([f for f in files if f.endswith("search.py")], Config())
    assert alone.tools == []


def test_activity_style_through_a_base_of_the_same_file() -> None:
    code = """
    from upsonic.tools import ToolKit, tool

    class Base(ToolKit):
        pass

    class Kit(Base):
        @tool
        def fetch(self, url: str) -> str:
            return url
    """
    found = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    assert [(t.name, t.framework) for t in found] == [("fetch", "upsonic")]


def test_a_tool_word_from_another_package_than_the_ancestors_is_no_tool() -> None:
    code = """
    from upsonic.tools import ToolKit
    from otherlib import tool

    class Base(ToolKit):
        pass

    class Kit(Base):
        @tool
        def fetch(self, url: str) -> str:
            return url
    """
    assert tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools == []


# --------------------------------------------------------------------------- a base that turns exceptions into text

GRIPTAPE_LIKE = {
    "myfw/__init__.py": "",
    "myfw/decorators.py": "def activity(config):\n    return lambda f: f\n",
    "myfw/base.py": """
        import logging

        class ErrorArtifact:
            def __init__(self, value, exception=None):
                self.value = value

        class BaseTool:
            def run(self, activity, action):
                try:
                    output = self.try_run(activity, action)
                except Exception as e:
                    logging.debug("failed")
                    output = ErrorArtifact(str(e), exception=e)
                return output

            def try_run(self, activity, action):
                return activity({"values": action})
        """,
    "myfw/tools/calculator.py": """
        import requests
        from myfw.base import BaseTool
        from myfw.decorators import activity

        class Calculator(BaseTool):
            @activity(config={"description": "add"})
            def calculate(self, params: dict) -> str:
                return requests.post("https://calc.example/add", json=params, timeout=5).text
        """,
}


def test_a_base_run_that_returns_the_error_as_text_makes_raised_text(tmp_path: Path) -> None:
    result = tools.run(_write(tmp_path, GRIPTAPE_LIKE), Config())
    (t,) = result.tools
    assert (t.name, t.framework) == ("calculate", "myfw")
    assert t.failures == ["text"]
    assert t.failures_by == "myfw.base.BaseTool.run"


def test_a_base_run_that_re_raises_changes_nothing(tmp_path: Path) -> None:
    files = dict(GRIPTAPE_LIKE)
    files["myfw/base.py"] = """
        class BaseTool:
            def run(self, activity, action):
                try:
                    return activity({"values": action})
                except Exception as e:
                    raise RuntimeError(str(e)) from e
        """
    (t,) = tools.run(_write(tmp_path, files), Config()).tools
    assert t.failures == ["raised"] and t.failures_by is None


def test_a_project_base_tool_whose_run_catches_its_subclasses_run_in_another_file(tmp_path: Path) -> None:
    files = _write(tmp_path, {
        "proj/__init__.py": "",
        "proj/safe.py": """
            from langchain_core.tools import BaseTool

            class SafeTool(BaseTool):
                def run(self, *args, **kwargs):
                    try:
                        return self._run(*args, **kwargs)
                    except Exception as exc:
                        return f"tool failed: {exc}"
            """,
        "proj/search.py": """
            import requests
            from proj.safe import SafeTool

            class Search(SafeTool):
                name: str = "search"

                def _run(self, q: str) -> str:
                    return requests.get("https://s.example", params={"q": q}, timeout=3).text

            class Typed(SafeTool):
                name: str = "typed"

                def _run(self, q: str) -> str:
                    try:
                        return requests.get("https://s.example", timeout=3).text
                    except requests.Timeout:
                        return ""
            """,
    })
    by_name = {t.name: t for t in tools.run(files, Config()).tools}
    assert (by_name["search"].failures, by_name["search"].failures_by) == (["text"], "proj.safe.SafeTool.run")
    # its own handler decides (nothing raised to the base): the base is not named
    assert (by_name["typed"].failures, by_name["typed"].failures_by) == (["swallowed"], None)


def test_a_private_helper_given_a_callable_is_not_the_framework_dispatcher() -> None:
    code = """
    from upsonic.tools import ToolKit, tool

    class Kit(ToolKit):
        def _safe(self, fn, *args):
            try:
                return fn(*args)
            except Exception as e:
                return f"error: {e}"

        @tool
        def fetch(self, url: str) -> str:
            return url
    """
    (t,) = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    assert t.failures == ["raised"] and t.failures_by is None


def test_failures_by_is_in_the_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, GRIPTAPE_LIKE)
    assert main(["tools", "--format", "json", "-j", "1", str(tmp_path / "myfw")]) == 0
    (row,) = json.loads(capsys.readouterr().out)["tools"]
    assert row["failures"] == ["text"] and row["failures_by"] == "myfw.base.BaseTool.run"


def test_the_text_table_names_the_base_method(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, GRIPTAPE_LIKE)
    assert main(["tools", "--wide", "-j", "1", str(tmp_path / "myfw")]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("calculate"))
    assert "text (BaseTool.run)" in row


def test_markdown_with_no_tool_names_the_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "plain.py").write_text("x = 1\n")
    assert main(["tools", "--format", "markdown", "-j", "1", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "tool-decorators" in out and "tool-base-classes" in out and "tool-list-constructors" in out


def test_tools_help_names_the_settings_that_find_more(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tools", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "When no tool is found" in text
    assert all(s in text for s in ("tool-decorators", "tool-base-classes", "tool-list-constructors"))


def test_a_tool_method_calling_another_in_a_try_is_not_a_dispatcher_for_it() -> None:
    # agno's shape: one tool method uses another inside its own try; the other, called by the model, still raises
    code = """
    from agno.tools import Toolkit

    class Pages(Toolkit):
        def __init__(self):
            super().__init__(name="pages", tools=[self.get_key, self.get_page])

        def get_key(self, name: str) -> str:
            return lookup(name)

        def get_page(self, name: str) -> str:
            try:
                key = self.get_key(name)
                return fetch(key)
            except Exception as e:
                return f"error: {e}"
    """
    found = {t.name: t for t in tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools}
    assert (found["get_key"].failures, found["get_key"].failures_by) == (["raised"], None)
    assert found["get_page"].failures == ["text"]
