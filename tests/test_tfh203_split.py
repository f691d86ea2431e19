"""TFH201 split by evidence (s52): what TFH201 keeps, what TFH203 (off by default) reports, and how to select it."""

from __future__ import annotations

import textwrap

import pytest

from smullyan.linter.config import OFF_BY_DEFAULT, Config
from smullyan.linter.engine import lint_source
from smullyan.rules.timeouts.evidence import EvidenceShapes
from smullyan.rules.timeouts.tfh201_call_without_timeout import CallWithoutTimeout

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


# s53 (issue 23): with both rules selected, TFH201's one traversal makes TFH203's findings too


def test_one_pass_makes_both_codes_as_two_passes_did() -> None:
    source = HELPER + TOOL.replace("import subprocess\n", "", 1)
    alone = [f for code in ("TFH201", "TFH203")
             for f in lint_source(source, "agent/steps.py", Config.default().with_overrides(select=[code]))]
    both = lint_source(source, "agent/steps.py", Config.default().with_overrides(select=["TFH201", "TFH203"]))
    key = lambda f: (f.line, f.column, f.code, f.name, f.message, f.fix)  # noqa: E731
    assert sorted(map(key, both)) == sorted(map(key, alone))
    assert {f.code for f in both} == {"TFH201", "TFH203"}


def test_both_codes_ask_the_split_once_per_call(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    split = EvidenceShapes.unread_process

    def counting(self: EvidenceShapes, node: object, qn: str) -> bool:
        asked.append(id(node))
        return split(self, node, qn)  # type: ignore[arg-type]

    monkeypatch.setattr(EvidenceShapes, "unread_process", counting)
    found = codes(HELPER, Config.default().with_overrides(extend_select=["TFH203"]))
    assert found == [(3, "TFH203"), (5, "TFH201")]
    assert len(asked) == len(set(asked)) == 2  # two passes asked each call twice


def test_a_crash_of_the_shared_pass_is_reported_for_both_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: CallWithoutTimeout, node: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(CallWithoutTimeout, "visit_Call", boom)
    config = Config.default().with_overrides(select=["TFH201", "TFH203", "TFH002"])
    found = lint_source(HELPER, "agent/steps.py", config)
    assert sorted((f.code, f.message.split(":")[0]) for f in found) == [
        ("TFH002", "internal error in call-without-timeout"),
        ("TFH002", "internal error in unread-process-without-timeout"),
    ]
