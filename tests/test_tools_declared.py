"""`smullyan tools` (issue 28) on tools declared in data files: holmesgpt's YAML toolsets (``toolsets: <name>: tools:
- name: ... command: ...``), each run by the framework's ``YAMLTool._invoke`` (``knowledge.TOOL_DATA_FILES``). A run
lists them when one of its files defines the runner class or imports holmes; each row sits at the tool's ``- name:``
line, carries the runner's facts and the class its command's program and verb say; no YAML file can crash a run."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from smullyan.linter import tools
from smullyan.linter.cli import main
from smullyan.linter.config import Config
from smullyan.linter.tools import declared

RUNNER = '''\
import subprocess


class Tool:
    """A tool the model calls."""

    def _invoke(self, params):
        raise NotImplementedError


class YAMLTool(Tool):
    command: str = ""

    def _invoke(self, params):
        result = subprocess.run(self.command, shell=True, capture_output=True, text=True)
        return result.stdout


class PingTool(Tool):
    def _invoke(self, params):
        return "pong"
'''

TOOLSET = '''\
toolsets:
  kubernetes/core:
    description: "Read access to cluster resources"
    tools:
      - name: "kubectl_get"
        description: "Get resources"
        command: "kubectl get {{ kind }} -n {{ namespace }} -o json | jq '.items[] | .metadata.name'"
      - name: kubectl_delete_pod
        command: kubectl delete pod {{ pod }} -n {{ namespace }}
      - name: "fetch_doc"
        script: |
          #!/bin/bash
          DOC={{ doc_id }}
          curl -s -X POST https://api.example.com/graphql -d "$DOC"
      - description: "no name: not a tool"
        command: kubectl get pods
  helm/core:
    tools:
      - name: helm_list
        script: |
          #!/bin/bash
          NS={{ namespace }}
          if helm list -n "$NS"; then echo ok; fi
'''


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if rel.endswith(".py") else text)


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def holmes(root: Path, toolset: str = TOOLSET) -> Path:
    """A small holmes: the runner class in holmes/core/tools.py, a toolset YAML beside the toolsets package."""
    write(root, {"holmes/__init__.py": "", "holmes/core/__init__.py": "", "holmes/core/tools.py": RUNNER,
                 "holmes/plugins/__init__.py": "", "holmes/plugins/toolsets/__init__.py": "",
                 "holmes/plugins/toolsets/k8s.yaml": toolset})
    return root / "holmes/plugins/toolsets/k8s.yaml"


def run(root: Path) -> tools.ToolRun:
    return tools.run(sorted(str(p) for p in root.rglob("*.py")), Config())


def by_name(result: tools.ToolRun) -> dict[str, tools.Tool]:
    return {t.name: t for t in result.tools}


def test_each_declared_tool_is_a_row_at_its_name_line_classed_by_its_command(tmp_path: Path) -> None:
    yaml_file = holmes(tmp_path)
    rows = {n: t for n, t in by_name(run(tmp_path)).items() if t.runner is not None}
    assert sorted(rows) == ["fetch_doc", "helm_list", "kubectl_delete_pod", "kubectl_get"]
    get = rows["kubectl_get"]
    assert (get.path, get.line) == (str(yaml_file), line_of(yaml_file, '- name: "kubectl_get"'))
    assert (get.framework, get.form, get.qualname) == ("holmesgpt", "YAML toolset", "kubernetes/core.kubectl_get")
    assert get.runner == "holmes.core.tools.YAMLTool._invoke"
    assert (get.classification, get.source, get.key) == ("read-safe", "inferred", "not-needed")
    assert "kubectl get" in get.evidence
    assert rows["kubectl_delete_pod"].line == line_of(yaml_file, "- name: kubectl_delete_pod")
    assert rows["kubectl_delete_pod"].classification == "idempotent-write"
    assert rows["helm_list"].classification == "read-safe"  # a script: `if helm list ...; then echo ok; fi`
    # a program the table does not know: its command classes nothing; only its name's verb does, shown as a guess
    assert (rows["fetch_doc"].classification, rows["fetch_doc"].evidence) == ("read-safe", "by name (fetch)")


def test_the_runner_row_gives_way_and_its_facts_are_each_rows(tmp_path: Path) -> None:
    holmes(tmp_path)
    files = sorted(str(p) for p in tmp_path.rglob("*.py"))
    found = by_name(tools.run(files, Config().with_overrides(extend_select=["TFH203"])))
    assert "YAMLTool" not in found  # the model calls the declared tools, not the runner
    assert "PingTool" in found  # the runner base's other tools stay
    get = found["kubectl_get"]
    assert [(c.what, c.timeout) for c in get.calls] == [("subprocess.run", "missing")]
    # the runner's subprocess.run without a timeout; its command comes from the YAML data, which the linter does not
    # read, so it is TFH203's (s52: TFH201 split by evidence), shown when selected
    assert "TFH203" in get.findings


def test_without_any_declared_tool_the_runner_row_stays(tmp_path: Path) -> None:
    holmes(tmp_path, toolset="toolsets: {}\n")
    assert "YAMLTool" in by_name(run(tmp_path))


def test_a_project_importing_holmes_gets_its_toolsets_with_the_runners_facts_from_the_table(tmp_path: Path) -> None:
    write(tmp_path, {"myagent/__init__.py": "", "myagent/main.py": "from holmes.core.tools import YAMLToolset\n",
                     "myagent/tools.yaml": TOOLSET})
    found = by_name(run(tmp_path))
    get = found["kubectl_get"]
    assert get.path == str(tmp_path / "myagent/tools.yaml")
    assert [(c.what, c.timeout, c.helper) for c in get.calls] == [("subprocess.run", "missing", "YAMLTool._invoke")]
    assert get.failures == ["text"]


def test_no_runner_and_no_import_no_rows(tmp_path: Path) -> None:
    write(tmp_path, {"myagent/__init__.py": "", "myagent/main.py": "import yaml\n", "myagent/tools.yaml": TOOLSET})
    assert run(tmp_path).tools == []


@pytest.mark.parametrize("text", [
    "toolsets: [unclosed\n",  # not YAML
    "toolsets:\n  a:\n    tools:\n      - name: x\n        command: kubectl get pods\n---\nsecond: document\n",
    "- just\n- a list\n",  # another shape
    "toolsets:\n  a:\n    tools: {name: x, command: kubectl get pods}\n",  # tools not a list
    "toolsets:\n  a:\n    tools:\n      - name: [x]\n        command: kubectl get pods\n",  # the name not text
    "a: &a [*a]\n",  # a recursive alias
])
def test_a_broken_or_foreign_yaml_file_gives_no_row_and_no_crash(tmp_path: Path, text: str) -> None:
    holmes(tmp_path)
    (tmp_path / "holmes/plugins/toolsets/broken.yaml").write_text(text)
    (tmp_path / "holmes/plugins/toolsets/latin1.yml").write_bytes(b"toolsets:\n  \xe9: {}\n")
    result = run(tmp_path)
    assert not [t for t in result.tools if Path(t.path).name in ("broken.yaml", "latin1.yml")]
    assert "kubectl_get" in by_name(result)  # the good file still gives its rows
    assert result.errors == []


def test_a_file_over_the_size_cap_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    holmes(tmp_path)
    monkeypatch.setattr(declared, "MAX_BYTES", 100)
    assert [t for t in run(tmp_path).tools if t.runner is not None] == []


def test_without_pyyaml_no_rows_and_the_run_says_so_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    holmes(tmp_path)
    monkeypatch.setitem(sys.modules, "yaml", None)  # import yaml raises ImportError
    result = run(tmp_path)
    assert result.notes == [declared.NO_YAML_NOTE]
    assert "YAMLTool" in by_name(result) and "kubectl_get" not in by_name(result)
    assert main(["tools", "-j1", str(tmp_path / "holmes"), str(tmp_path / "holmes/core")]) == 0
    assert capsys.readouterr().err.count("pyyaml") == 1


def test_json_and_text_carry_the_yaml_path_line_and_runner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    yaml_file = holmes(tmp_path)
    assert main(["tools", "--format", "json", "-j1", str(tmp_path)]) == 0
    rows: dict[str, Any] = {r["name"]: r for r in json.loads(capsys.readouterr().out)["tools"]}
    line = line_of(yaml_file, '- name: "kubectl_get"')
    assert (rows["kubectl_get"]["path"], rows["kubectl_get"]["line"]) == (str(yaml_file), line)
    assert rows["kubectl_get"]["runner"] == "holmes.core.tools.YAMLTool._invoke"
    assert rows["PingTool"]["runner"] is None
    assert main(["tools", "--wide", "-j1", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert f"k8s.yaml:{line}" in text and "YAML toolset" in text


@pytest.mark.parametrize(("command", "expected"), [
    ("kubectl get pods -n {{ ns }} | jq '.items[] | .name'", "read-safe"),
    ("timeout {{ config.timeout | default(30) }} hubble observe --since {{ t }}", "read-safe"),
    ("#!/bin/bash\nAKS={{ name }}\naz aks list --query \"[?name=='${AKS}'] | [0]\" -o tsv", "read-safe"),
    ("az network nsg rule list --nsg-name {{ nsg }}", "read-safe"),
    ("kubectl get pods && kubectl delete pod {{ pod }}", "idempotent-write"),
    ("kubectl debug node/{{ node }} -- ip route", "non-idempotent-write"),
    ("X=$(kubectl get pods -o name)\necho $X", "read-safe"),
    ("kubectl {{ verb }} pods", None),  # the model names the verb
    ("kubectl cp {{ src }} {{ dst }}", None),  # a verb the table does not know
    ("rm -rf /tmp/{{ x }}", None),  # a program the table does not know
    ("echo \"$(kubectl delete pod x)\"", None),  # a command inside a quoted string
    ("echo hello", None),  # nothing classified
])
def test_the_command_decides_the_class_on_positive_evidence_only(command: str, expected: str | None) -> None:
    assert declared.command_class(command)[0] == expected
