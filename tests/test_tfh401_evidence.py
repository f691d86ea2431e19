"""TFH401 reports a function the module says nothing else about only with positive evidence that its result
feeds a tool's answer (issue 24: "fire where the text reaches a model")."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source


def _lines(src: str, path: str) -> list[int]:
    findings = lint_source(textwrap.dedent(src), path, Config.default().with_overrides(select=["TFH401"]))
    return [f.line for f in findings if f.code == "TFH401"]


STATUS = """\
class Store:
    def delete(self, key):
        try:
            self.client.remove(key)
            return True, ""
        except Exception as e:
            return False, str(e)
"""


@pytest.mark.parametrize(
    ("path", "reported"),
    [
        ("app/storage/minio.py", False),  # a storage client's status pair for the application
        ("app/platform/webhook.py", False),
        ("app/tools/storage.py", True),  # a tools package
        ("app/toolkits/storage.py", True),  # a word starting with `tool`
        ("app/agent/storage_tool.py", True),  # the module is named for a tool
        ("app/actions/storage.py", True),  # an agent framework's actions
        ("k8s_mcp/server/storage.py", True),  # an MCP server's package
        ("weathermcp/handlers/storage.py", True),
        ("app/tools/x/y/z/w/storage.py", False),  # too far up: only four package directories are read
        ("app/toolbar/storage.py", False),  # `toolbar` is not a tool
    ],
)
def test_a_helper_is_reported_only_where_something_names_it_for_tools(path: str, reported: bool) -> None:
    assert bool(_lines(STATUS, path)) is reported


def test_a_class_or_function_named_for_tools_is_evidence() -> None:
    src = """\
    class StorageToolkit:
        def delete(self, key):
            try:
                self.client.remove(key)
            except Exception as e:
                return f"failed: {e}"
    def invoke_tool(fn, args):
        try:
            return fn(**args)
        except Exception as e:
            return {"error": str(e)}
    def invoke(fn, args):
        try:
            return fn(**args)
        except Exception as e:
            return {"error": str(e)}
    """
    assert _lines(src, "app/core/runner.py") == [6, 11]


def test_a_result_named_for_an_action_and_a_message_construct_count_anywhere() -> None:
    src = """\
    from langchain_core.messages import ToolMessage
    async def upload(page, path):
        try:
            await page.set_input_files("input", path)
        except Exception as e:
            return ActionResult(error=f"upload failed: {e}")
    def answer(call, fn, history):
        try:
            out = fn()
        except Exception as e:
            history.append(ToolMessage(content=str(e), tool_call_id=call))
            return
        return DeployResult(error=None, out=out)
    def deploy(client):
        try:
            return client.deploy()
        except Exception as e:
            return DeployResult(error=str(e))
    """
    assert _lines(src, "app/core/browser.py") == [6, 11]


def test_a_tool_decorator_needs_no_name() -> None:
    src = """\
    from langchain_core.tools import tool
    @tool
    def delete(key: str):
        try:
            return STORE.remove(key)
        except Exception as e:
            return f"failed: {e}"
    """
    assert _lines(src, "app/core/store.py") == [7]


def test_directory_evidence_is_the_modules_packages_not_the_checkout_around_them(tmp_path: Path) -> None:
    # a checkout cloned under ~/tools/: the directory names nothing of the application's
    checkout = tmp_path / "tools" / "app" / "storage"
    checkout.mkdir(parents=True)
    (checkout / "__init__.py").write_text("")
    outside = checkout / "minio.py"
    outside.write_text(STATUS)
    assert _lines(STATUS, str(outside)) == []
    # the same module inside a package named for tools (``app.tools``, both directories with ``__init__.py``)
    package = tmp_path / "repo" / "app" / "tools"
    package.mkdir(parents=True)
    (package.parent / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    inside = package / "storage.py"
    inside.write_text(STATUS)
    assert _lines(STATUS, str(inside)) == [7]
    # a directory without ``__init__.py`` inside a package is a namespace portion Python imports (``app.tools``)
    loose = tmp_path / "repo2" / "app" / "tools"
    loose.mkdir(parents=True)
    (loose.parent / "__init__.py").write_text("")
    stray = loose / "storage.py"
    stray.write_text(STATUS)
    assert _lines(STATUS, str(stray)) == [7]
    # a loose module in a directory of tool files (no package at all): the directory it is in counts
    loose_tools = tmp_path / "agent" / "tools"
    loose_tools.mkdir(parents=True)
    weather = loose_tools / "storage.py"
    weather.write_text(STATUS)
    assert _lines(STATUS, str(weather)) == [7]


def test_report_directory_evidence_is_the_modules_packages_too(tmp_path: Path) -> None:
    """s39: the report-directory exemption (an evaluation harness, a ``cli`` subpackage) reads the module's package
    chain like the tool evidence, not the checkout's or install's directories around it."""
    # a tools package checked out under ~/evals/: the checkout's directory says nothing of where the text goes
    checkout = tmp_path / "evals" / "app" / "tools"
    checkout.mkdir(parents=True)
    (checkout.parent / "__init__.py").write_text("")
    (checkout / "__init__.py").write_text("")
    module = checkout / "storage.py"
    module.write_text(STATUS)
    assert _lines(STATUS, str(module)) == [7]
    # an evaluation package of the project itself (``app.evaluation.tools``): a report, not reported
    harness = tmp_path / "repo" / "app" / "evaluation" / "tools"
    harness.mkdir(parents=True)
    for d in (harness.parent.parent, harness.parent, harness):
        (d / "__init__.py").write_text("")
    inside = harness / "storage.py"
    inside.write_text(STATUS)
    assert _lines(STATUS, str(inside)) == []
