"""The survey's stored split (bench/survey/corpus.toml) is what its fixed rule gives; no network."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _survey() -> ModuleType:
    spec = importlib.util.spec_from_file_location("smullyan_bench_survey", ROOT / "bench" / "survey.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


survey = _survey()
corpus = survey.load_corpus(ROOT / "bench" / "survey" / "corpus.toml")


def test_every_half_is_the_rules_output() -> None:
    for p in corpus.packages:
        assert p.half == survey.half_of(p.name, corpus.salt, corpus.previously_tuned), p.name
    assert survey.check_corpus(corpus) == []


def test_no_excluded_package_in_either_half() -> None:
    excluded = {"haystack-ai", "letta", "gpt-researcher", "griptape", "mem0ai", "swarms", "open-interpreter", "dspy"}
    assert excluded <= set(corpus.excluded)
    assert not excluded & {p.name for p in corpus.packages}


def test_corpus_size_and_pins() -> None:
    names = [p.name for p in corpus.packages]
    assert len(names) == len(set(names)) >= 25
    assert {p.half for p in corpus.packages} == {"tuning", "held-out"}
    assert all(p.version and p.version[0].isdigit() for p in corpus.packages)
    # what was tuned on before the split is never held out
    assert all(p.half == "tuning" for p in corpus.packages if p.name in corpus.previously_tuned)


def test_the_rule_is_sha256_parity() -> None:
    # computed by hand: sha256("smullyan-survey-2026:fastmcp")[-1] is odd, "...:ag2" even
    import hashlib

    for name in ("fastmcp", "ag2", "gptme", "upsonic"):
        last = hashlib.sha256(("smullyan-survey-2026:" + name).encode()).digest()[-1]
        assert survey.half_of(name, "smullyan-survey-2026:", ()) == ("tuning" if last % 2 == 0 else "held-out")
    assert survey.half_of("fastmcp", "smullyan-survey-2026:", ()) == "held-out"
    assert survey.half_of("ag2", "smullyan-survey-2026:", ()) == "tuning"
    assert survey.half_of("fastmcp", "smullyan-survey-2026:", ("fastmcp",)) == "tuning"


def test_check_corpus_reports_a_moved_or_excluded_package() -> None:
    moved = survey.Package("fastmcp", "1.0", "tuning")
    bad = survey.Corpus(corpus.salt, corpus.previously_tuned, ("dspy",),
                        (moved, survey.Package("dspy", "1.0", "held-out")))
    problems = survey.check_corpus(bad)
    assert any("fastmcp" in p and "held-out" in p for p in problems)
    assert any("dspy" in p and "excluded" in p for p in problems)


def test_labels_files_parse(tmp_path: Path) -> None:
    labels, misses = survey.load_labels(ROOT / "bench" / "survey" / "labels")
    names = {p.name: p.half for p in corpus.packages}
    for row in (*labels, *misses):
        assert names.get(row["package"]) == row["half"], row
    (tmp_path / "x.tsv").write_text("tuning\tagno\ta.py\t3\tTFH201\tmaybe\t-\t-\n")
    with pytest.raises(SystemExit, match="verdict"):
        survey.load_labels(tmp_path)


def test_labels_merge_into_precision_and_recall() -> None:
    finding = {"half": "tuning", "package": "agno", "relpath": "a.py", "line": 10, "end_line": 12, "code": "TFH201"}
    labels = [
        {"half": "tuning", "package": "agno", "path": "a.py", "line": "10", "code": "TFH201", "verdict": "true"},
        {"half": "tuning", "package": "agno", "path": "a.py", "line": "20", "code": "TFH201", "verdict": "false"},
    ]
    prec = survey.precision([finding], labels)
    assert prec["tuning"]["TFH201"]["true"] == 1
    assert prec["tuning"]["TFH201"]["false"] == 0
    assert prec["tuning"]["TFH201"]["gone-false"] == 1  # its finding is no longer reported
    misses = [
        {"half": "tuning", "package": "agno", "path": "a.py", "line": "11", "code": "TFH201", "tool": "t"},
        {"half": "tuning", "package": "agno", "path": "a.py", "line": "30", "code": "TFH201", "tool": "t"},
        {"half": "tuning", "package": "agno", "path": "b.py", "line": "1", "code": "-", "tool": "u"},
    ]
    rec = survey.recall([finding], misses)
    assert (rec["tuning"]["TFH201"]["found"], rec["tuning"]["TFH201"]["missed"]) == (1, 1)
    assert rec["tuning"]["-"]["read"] == 1
