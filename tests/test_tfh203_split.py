"""TFH201 split by evidence (s52): what TFH201 keeps, what TFH203 (off by default) reports, and how to select it."""

from __future__ import annotations

import textwrap

from smullyan.linter.config import OFF_BY_DEFAULT, Config
from smullyan.linter.engine import lint_source

HELPER = textwrap.dedent("""\
    import subprocess
    def run(cmd):
        return subprocess.run(cmd, capture_output=True)
    def push(remote):
        return subprocess.run(["git", "push", remote], capture_output=True)
    """)

TOOL = textwrap.dedent("""\
    import subprocess
    from langchain_core.tools import tool
    @tool
    def shell(command: str) -> str:
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    def helper(command: str) -> str:
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    """)


def codes(source: str, config: Config) -> list[tuple[int, str]]:
    return sorted((f.line, f.code) for f in lint_source(source, "agent/steps.py", config))


def test_tfh203_is_off_by_default() -> None:
    assert "TFH203" in OFF_BY_DEFAULT
    # the unread helper command is neither TFH201 (no evidence) nor TFH203 (not selected); the push is TFH201
    assert codes(HELPER, Config.default()) == [(5, "TFH201")]


def test_extend_select_turns_tfh203_on() -> None:
    config = Config.default().with_overrides(extend_select=["TFH203"])
    assert codes(HELPER, config) == [(3, "TFH203"), (5, "TFH201")]


def test_a_prefix_does_not_select_tfh203() -> None:
    config = Config.default().with_overrides(select=["TFH2"])
    assert codes(HELPER, config) == [(5, "TFH201")]


def test_a_tools_command_stays_tfh201() -> None:
    # the model's command in a registered tool is TFH201 whatever it runs; the same call in a plain helper is TFH203
    config = Config.default().with_overrides(extend_select=["TFH203"])
    assert codes(TOOL, config) == [(5, "TFH201"), (7, "TFH203")]


def test_the_split_partitions_what_tfh201_reported() -> None:
    # every call is reported by exactly one of the two codes when both are selected
    config = Config.default().with_overrides(select=["TFH201", "TFH203"])
    found = codes(HELPER + TOOL.replace("import subprocess\n", "", 1), config)
    lines = [line for line, _ in found]
    assert len(lines) == len(set(lines)) == 4
