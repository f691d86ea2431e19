"""The survey's stored split (bench/survey/corpus.toml) is what its fixed rule gives; no network."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_support import load_bench

ROOT = Path(__file__).resolve().parent.parent


survey = load_bench("survey")
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


def test_a_tfh201_label_labels_the_tfh203_finding_split_from_it() -> None:
    # s52: TFH203 is TFH201 split by evidence: a label of either code labels a finding of either at the site, once,
    # counted under the finding's code; recall is printed for TFH201 alone and for both codes
    found = [{"half": "tuning", "package": "agno", "relpath": "a.py", "line": 10, "end_line": 10, "code": "TFH203"},
             {"half": "tuning", "package": "agno", "relpath": "a.py", "line": 20, "end_line": 20, "code": "TFH201"}]
    labels = [
        {"half": "tuning", "package": "agno", "path": "a.py", "line": "10", "code": "TFH201", "verdict": "false"},
        {"half": "tuning", "package": "agno", "path": "a.py", "line": "10", "code": "TFH203", "verdict": "false"},
        {"half": "tuning", "package": "agno", "path": "a.py", "line": "20", "code": "TFH201", "verdict": "true"},
    ]
    prec = survey.precision(found, labels)["tuning"]
    assert (prec["TFH203"]["false"], prec["TFH201"]["true"], prec["TFH201"]["false"]) == (1, 1, 0)
    assert not any(k.startswith("gone") for code in prec for k in prec[code])
    misses = [{"half": "tuning", "package": "agno", "path": "a.py", "line": "10", "code": "TFH201", "tool": "t"}]
    rec = survey.recall(found, misses)["tuning"]
    assert (rec["TFH201"]["missed"], rec["TFH201+TFH203"]["found"]) == (1, 1)


def _finding(path: Path, line: int, code: str = "TFH401", end: int | None = None) -> dict[str, object]:
    return {"half": "held-out", "package": "p", "path": str(path), "relpath": "m.py", "line": line,
            "end_line": end or line, "code": code}


def _label(line: int, verdict: str, source: str = "", code: str = "TFH401") -> dict[str, str]:
    row = {"half": "held-out", "package": "p", "path": "m.py", "line": str(line), "code": code, "verdict": verdict}
    return {**row, "source": source} if source else row


def test_a_label_follows_its_finding_when_the_start_moves(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    lines = [f"x{n} = {n}" for n in range(1, 61)]
    lines[9] = '    return {"error": str(e)}'  # line 10
    lines[11] = '    return {"error": str(e)}'  # line 12: same text, a different site
    lines[49] = '    return {"error": str(e)}'  # line 50: same text, far away
    src.write_text("\n".join(lines) + "\n")
    labels = [_label(10, "true", 'return {"error": str(e)}'), _label(30, "false", "x30 = 30"), _label(40, "debatable")]
    # after a rule change: 10 still reported, 30 now starts at 28 and covers 30, 40 gone, 12 and 50 new
    findings = [_finding(src, 12), _finding(src, 10), _finding(src, 28, end=31), _finding(src, 50)]
    matched = {int(row["line"]): (None if f is None else f["line"], how) for row, f, how in survey.match_labels(findings, labels)}
    assert matched == {10: (10, "line"), 30: (28, "span"), 40: (None, "gone")}
    prec = survey.precision(findings, labels)["held-out"]["TFH401"]
    assert (prec["true"], prec["false"], prec["gone-debatable"], prec["moved"]) == (1, 1, 1, 1)

    # the finding of line 10 now starts at 12 (its text there is the same): matched by source text, not by 50's
    moved = [_finding(src, 12), _finding(src, 50)]
    [(row, f, how)] = [m for m in survey.match_labels(moved, labels) if m[0]["line"] == "10"]
    assert (f is not None and f["line"], how) == (12, "source")
    # the same text 40 lines away is another site: the label is gone
    far = [_finding(src, 50)]
    assert [how for row, _, how in survey.match_labels(far, labels) if row["line"] == "10"] == ["gone"]


def test_unlabelled_findings_are_listed_and_new_ones_marked(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text("a = 1\nb = 2\nc = 3\n")
    baseline = {("p", "m.py", 1, "TFH401", "a = 1"), ("p", "m.py", 2, "TFH401", "b = 2")}
    findings = [_finding(src, 1), _finding(src, 2), _finding(src, 3)]
    rows = survey.unlabelled(findings, [_label(1, "true")], baseline)
    assert [(r["line"], r["new"], r["source"]) for r in rows] == [(2, "no", "b = 2"), (3, "yes", "c = 3")]


def test_label_files_take_a_source_column_with_quotes(tmp_path: Path) -> None:
    (tmp_path / "x.tsv").write_text(
        'held-out\tp\tm.py\t3\tTFH401\ttrue\t-\tnote\t"status": "error",\n'
        "held-out\tp\tm.py\t4\tTFH201\tfalse\t-\tno source column\n")
    labels, _ = survey.load_labels(tmp_path)
    assert labels[0]["source"] == '"status": "error",'
    assert "source" not in labels[1]
    (tmp_path / "y.tsv").write_text("held-out\tp\tm.py\t3\tTFH401\ttrue\t-\tnote\tsrc\textra\n")
    with pytest.raises(SystemExit, match="columns"):
        survey.load_labels(tmp_path)


def test_recall_matches_a_moved_finding_by_source_text_nearby(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text("\n".join(["except Exception as e:" if n in (5, 40) else f"y = {n}" for n in range(1, 50)]) + "\n")
    misses = [{"half": "held-out", "package": "p", "path": "m.py", "line": "3", "code": "TFH103", "tool": "t",
               "source": "except Exception as e:"},
              {"half": "held-out", "package": "p", "path": "m.py", "line": "22", "code": "TFH103", "tool": "t",
               "source": "except Exception as e:"}]
    rec = survey.recall([_finding(src, 5, "TFH103"), _finding(src, 40, "TFH103")], misses)
    assert (rec["held-out"]["TFH103"]["found"], rec["held-out"]["TFH103"]["missed"]) == (1, 1)


def test_batch_three_is_marked_and_split_by_the_rule() -> None:
    third = [p for p in corpus.packages if p.batch == 3]
    assert len(third) >= 10
    assert {p.half for p in third} == {"tuning", "held-out"}
    assert not {p.name for p in third} & set(corpus.previously_tuned)


def test_batch_five_is_marked_and_split_by_the_rule() -> None:
    fifth = [p for p in corpus.packages if p.batch == 5]
    assert len(fifth) >= 18
    assert {p.half for p in fifth} == {"tuning", "held-out"}
    assert not {p.name for p in fifth} & set(corpus.previously_tuned)
    assert not {p.name for p in fifth} & {p.name for p in corpus.packages if p.batch != 5}


def test_batch_six_is_marked_and_split_by_the_rule() -> None:
    sixth = [p for p in corpus.packages if p.batch == 6]
    assert len(sixth) >= 18
    assert {p.half for p in sixth} == {"tuning", "held-out"}
    assert not {p.name for p in sixth} & set(corpus.previously_tuned)
    assert not {p.name for p in sixth} & {p.name for p in corpus.packages if p.batch != 6}


def test_batch_seven_is_marked_and_split_by_the_rule() -> None:
    seventh = [p for p in corpus.packages if p.batch == 7]
    assert len(seventh) >= 18
    assert {p.half for p in seventh} == {"tuning", "held-out"}
    assert not {p.name for p in seventh} & set(corpus.previously_tuned)
    assert not {p.name for p in seventh} & {p.name for p in corpus.packages if p.batch != 7}


def test_batch_eight_is_marked_and_split_by_the_rule() -> None:
    eighth = [p for p in corpus.packages if p.batch == 8]
    assert len(eighth) >= 18
    assert {p.half for p in eighth} == {"tuning", "held-out"}
    assert not {p.name for p in eighth} & set(corpus.previously_tuned)
    assert not {p.name for p in eighth} & {p.name for p in corpus.packages if p.batch != 8}


def test_batch_nine_is_marked_and_split_by_the_rule() -> None:
    ninth = [p for p in corpus.packages if p.batch == 9]
    assert len(ninth) >= 18
    assert {p.half for p in ninth} == {"tuning", "held-out"}
    assert not {p.name for p in ninth} & set(corpus.previously_tuned)
    assert not {p.name for p in ninth} & {p.name for p in corpus.packages if p.batch != 9}
    assert not {p.name for p in ninth} & set(corpus.excluded)


def test_batch_ten_is_marked_and_split_by_the_rule() -> None:
    tenth = [p for p in corpus.packages if p.batch == 10]
    assert len(tenth) >= 20
    assert {p.half for p in tenth} == {"tuning", "held-out"}
    assert not {p.name for p in tenth} & set(corpus.previously_tuned)
    assert not {p.name for p in tenth} & {p.name for p in corpus.packages if p.batch != 10}
    assert not {p.name for p in tenth} & set(corpus.excluded)


def test_batch_eleven_is_marked_and_split_by_the_rule() -> None:
    eleventh = [p for p in corpus.packages if p.batch == 11]
    assert len(eleventh) >= 45
    assert {p.half for p in eleventh} == {"tuning", "held-out"}
    assert not {p.name for p in eleventh} & set(corpus.previously_tuned)
    assert not {p.name for p in eleventh} & {p.name for p in corpus.packages if p.batch != 11}
    assert not {p.name for p in eleventh} & set(corpus.excluded)


def test_batch_twelve_is_marked_and_split_by_the_rule() -> None:
    twelfth = [p for p in corpus.packages if p.batch == 12]
    assert len(twelfth) >= 50
    assert {p.half for p in twelfth} == {"tuning", "held-out"}
    assert not {p.name for p in twelfth} & set(corpus.previously_tuned)
    assert not {p.name for p in twelfth} & {p.name for p in corpus.packages if p.batch != 12}
    assert not {p.name for p in twelfth} & set(corpus.excluded)


def test_batch_fifteen_is_marked_and_split_by_the_rule() -> None:
    fifteenth = [p for p in corpus.packages if p.batch == 15]
    assert len(fifteenth) >= 45
    assert {p.half for p in fifteenth} == {"tuning", "held-out"}
    assert not {p.name for p in fifteenth} & set(corpus.previously_tuned)
    assert not {p.name for p in fifteenth} & {p.name for p in corpus.packages if p.batch != 15}
    assert not {p.name for p in fifteenth} & set(corpus.excluded)


def test_recall_matches_the_return_of_the_text_a_site_assigned(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    lines = [f"y = {n}" for n in range(1, 50)]
    lines[9] = 'error_msg = f"Tool execution error: {e}"'
    lines[14] = "return ToolResultBlock(tool_use_id=tc.id,"
    lines[15] = "    content=error_msg, is_error=True)"
    lines[29] = "return other"
    src.write_text("\n".join(lines) + "\n")
    row = {"half": "held-out", "package": "p", "path": "m.py", "code": "TFH401", "tool": "t", "source": lines[9]}
    misses = [{**row, "line": "10"}, {**row, "line": "25", "source": "y = 25"}]
    rec = survey.recall([_finding(src, 15, end=16), _finding(src, 30)], misses)
    assert (rec["held-out"]["TFH401"]["found"], rec["held-out"]["TFH401"]["missed"]) == (1, 1)


def test_recall_matches_the_return_of_a_name_a_parallel_assignment_gave_the_text(tmp_path: Path) -> None:
    """s47: ``output, failed = ToolOutput(f"error: {e}"), True`` at the site, ``return output, failed`` after it (the
    name given a non-constant item); a return of the constant's name alone is not the site."""
    src = tmp_path / "m.py"
    lines = [f"y = {n}" for n in range(1, 50)]
    lines[9] = 'output, failed = ToolOutput(f"error: {e}"), True'
    lines[19] = "return output, failed"
    lines[29] = 'other, failed = ToolOutput(f"error: {e}"), True'
    lines[35] = "return failed"
    src.write_text("\n".join(lines) + "\n")
    row = {"half": "held-out", "package": "p", "path": "m.py", "code": "TFH401", "tool": "t", "source": "-"}
    misses = [{**row, "line": "10"}, {**row, "line": "30"}]
    rec = survey.recall([_finding(src, 20), _finding(src, 36)], misses)
    assert (rec["held-out"]["TFH401"]["found"], rec["held-out"]["TFH401"]["missed"]) == (1, 1)


def test_recall_follows_the_stored_text_to_the_end_of_its_except_clause(tmp_path: Path) -> None:
    """s45: the text assigned in a handler and returned after a hook and a message (beyond MOVE_WINDOW) is the site;
    a return after the handler and beyond MOVE_WINDOW is not; an append into a list the tool's return names is."""
    body = ["try:", "    run()", "except Exception as ex:", "    error_message = str(ex)",
            *[f"    note({n})" for n in range(14)], "    return Result(content=error_message)", "y = 1",
            *[f"z = {n}" for n in range(14)], "return error_message",
            "for b in batches:", "    try:", "        save(b)", "    except E as exc:", "        failed.append({",
            '            "error": str(exc),', "        })", "return dumps({", '    "failed": failed,', "})"]
    src = tmp_path / "m.py"
    src.write_text("\n".join(body) + "\n")
    row = {"half": "held-out", "package": "p", "path": "m.py", "code": "TFH401", "tool": "t"}
    at = {text.strip(): n + 1 for n, text in enumerate(body)}
    ret, late, app = at["return Result(content=error_message)"], at["return error_message"], at["return dumps({"]
    rec = survey.recall([_finding(src, ret)], [{**row, "line": "4"}])
    assert rec["held-out"]["TFH401"]["found"] == 1
    rec = survey.recall([_finding(src, late)], [{**row, "line": "4"}])
    assert rec["held-out"]["TFH401"]["missed"] == 1
    rec = survey.recall([_finding(src, app, end=app + 2)], [{**row, "line": str(at['"error": str(exc),'])}])
    assert rec["held-out"]["TFH401"]["found"] == 1


def test_recall_counts_a_finding_inside_the_loop_a_retry_site_opens(tmp_path: Path) -> None:
    """s45: a retry site read at its loop (``for attempt in range(...)``) is covered by a finding of its code inside the
    loop (TFH103 is reported at the loop's ``except Exception`` clause), not by one after the loop."""
    body = ["def call():", "    for attempt in range(3):", "        try:", "            return go()",
            *[f"            x = {n}" for n in range(20)], "        except Exception as e:", "            sleep(1)",
            "    for attempt in range(3):", "        go()", "    y = 1", "    try:", "        pass",
            "    except Exception:", "        pass"]
    src = tmp_path / "m.py"
    src.write_text("\n".join(body) + "\n")
    row = {"half": "held-out", "package": "p", "path": "m.py", "code": "TFH103", "tool": "t"}
    handler = body.index("        except Exception as e:") + 1
    second, outside = body.index("    for attempt in range(3):", 3) + 1, body.index("    except Exception:") + 1
    rec = survey.recall([_finding(src, handler, "TFH103", end=handler + 1), _finding(src, outside, "TFH103")],
                        [{**row, "line": "2"}, {**row, "line": str(second)}])
    assert (rec["held-out"]["TFH103"]["found"], rec["held-out"]["TFH103"]["missed"]) == (1, 1)


def test_batch_seventeen_is_marked_and_split_by_the_rule() -> None:
    seventeenth = [p for p in corpus.packages if p.batch == 17]
    assert len(seventeenth) == 79
    assert {p.half for p in seventeenth} == {"tuning", "held-out"}
    assert not {p.name for p in seventeenth} & set(corpus.previously_tuned)
    assert not {p.name for p in seventeenth} & {p.name for p in corpus.packages if p.batch != 17}
    assert not {p.name for p in seventeenth} & set(corpus.excluded)


def test_batch_twenty_is_marked_and_split_by_the_rule() -> None:
    twentieth = [p for p in corpus.packages if p.batch == 20]
    assert len(twentieth) == 86
    assert {p.half for p in twentieth} == {"tuning", "held-out"}
    assert not {p.name for p in twentieth} & set(corpus.previously_tuned)
    assert not {p.name for p in twentieth} & {p.name for p in corpus.packages if p.batch != 20}
    assert not {p.name for p in twentieth} & set(corpus.excluded)


def test_batch_twenty_one_is_marked_and_split_by_the_rule() -> None:
    batch = [p for p in corpus.packages if p.batch == 21]
    assert len(batch) == 88
    assert {p.half for p in batch} == {"tuning", "held-out"}
    assert not {p.name for p in batch} & set(corpus.previously_tuned)
    assert not {p.name for p in batch} & {p.name for p in corpus.packages if p.batch != 21}
    assert not {p.name for p in batch} & set(corpus.excluded)


def test_batch_twenty_two_is_marked_and_split_by_the_rule() -> None:
    batch = [p for p in corpus.packages if p.batch == 22]
    assert len(batch) == 107
    assert {p.half for p in batch} == {"tuning", "held-out"}
    assert not {p.name for p in batch} & set(corpus.previously_tuned)
    assert not {p.name for p in batch} & {p.name for p in corpus.packages if p.batch != 22}
    assert not {p.name for p in batch} & set(corpus.excluded)


def test_batch_twenty_three_is_marked_and_split_by_the_rule() -> None:
    batch = [p for p in corpus.packages if p.batch == 23]
    assert len(batch) == 115
    assert {p.half for p in batch} == {"tuning", "held-out"}
    assert not {p.name for p in batch} & set(corpus.previously_tuned)
    assert not {p.name for p in batch} & {p.name for p in corpus.packages if p.batch != 23}
    assert not {p.name for p in batch} & set(corpus.excluded)


def test_batch_twenty_four_is_marked_and_split_by_the_rule() -> None:
    batch = [p for p in corpus.packages if p.batch == 24]
    assert len(batch) == 123
    assert {p.half for p in batch} == {"tuning", "held-out"}
    assert not {p.name for p in batch} & set(corpus.previously_tuned)
    assert not {p.name for p in batch} & {p.name for p in corpus.packages if p.batch != 24}
    assert not {p.name for p in batch} & set(corpus.excluded)


def test_batch_twenty_five_is_marked_and_split_by_the_rule() -> None:
    batch = [p for p in corpus.packages if p.batch == 25]
    assert len(batch) == 130
    assert {p.half for p in batch} == {"tuning", "held-out"}
    assert not {p.name for p in batch} & set(corpus.previously_tuned)
    assert not {p.name for p in batch} & {p.name for p in corpus.packages if p.batch != 25}
    assert not {p.name for p in batch} & set(corpus.excluded)


def test_batch_twenty_six_is_marked_and_split_by_the_rule() -> None:
    batch = [p for p in corpus.packages if p.batch == 26]
    assert len(batch) == 142
    assert {p.half for p in batch} == {"tuning", "held-out"}
    assert not {p.name for p in batch} & set(corpus.previously_tuned)
    assert not {p.name for p in batch} & {p.name for p in corpus.packages if p.batch != 26}
    assert not {p.name for p in batch} & set(corpus.excluded)


def test_batch_twenty_seven_is_marked_and_split_by_the_rule() -> None:
    batch = [p for p in corpus.packages if p.batch == 27]
    assert len(batch) == 159
    assert {p.half for p in batch} == {"tuning", "held-out"}
    assert not {p.name for p in batch} & set(corpus.previously_tuned)
    assert not {p.name for p in batch} & {p.name for p in corpus.packages if p.batch != 27}
    assert not {p.name for p in batch} & set(corpus.excluded)


def test_batch_twenty_eight_is_marked_and_split_by_the_rule() -> None:
    batch = [p for p in corpus.packages if p.batch == 28]
    assert len(batch) == 149
    assert {p.half for p in batch} == {"tuning", "held-out"}
    assert not {p.name for p in batch} & set(corpus.previously_tuned)
    assert not {p.name for p in batch} & {p.name for p in corpus.packages if p.batch != 28}
    assert not {p.name for p in batch} & set(corpus.excluded)


def test_batch_twenty_nine_is_marked_and_split_by_the_rule() -> None:
    batch = [p for p in corpus.packages if p.batch == 29]
    assert len(batch) == 170
    assert {p.half for p in batch} == {"tuning", "held-out"}
    assert not {p.name for p in batch} & set(corpus.previously_tuned)
    assert not {p.name for p in batch} & {p.name for p in corpus.packages if p.batch != 29}
    assert not {p.name for p in batch} & set(corpus.excluded)


def test_batch_thirty_is_marked_and_split_by_the_rule() -> None:
    batch = [p for p in corpus.packages if p.batch == 30]
    assert len(batch) == 134
    assert {p.half for p in batch} == {"tuning", "held-out"}
    assert not {p.name for p in batch} & set(corpus.previously_tuned)
    assert not {p.name for p in batch} & {p.name for p in corpus.packages if p.batch != 30}
    assert not {p.name for p in batch} & set(corpus.excluded)


def test_labelled_for_picks_the_packages_whose_labels_or_misses_name_the_codes(tmp_path: Path) -> None:
    (tmp_path / "a.tsv").write_text("tuning\tagno\ta.py\t3\tTFH201\ttrue\t-\t-\n"
                                    "tuning\tcrewai\ta.py\t3\tTFH401\tfalse\t-\t-\n")
    (tmp_path / "misses-a.tsv").write_text("held-out\tlanggraph\ta.py\t3\tTFH101\tt\t-\t-\n")
    assert survey.labelled_packages(["TFH2"], tmp_path) == {"agno"}
    assert survey.labelled_packages(["TFH1", "TFH40"], tmp_path) == {"crewai", "langgraph"}
    assert survey.labelled_packages(["TFH3"], tmp_path) == set()


def test_recall_counts_a_formatter_row_found_at_its_callers(tmp_path: Path) -> None:
    """s55: a row inside a helper handed the exception (``def api_error(message: str, exc: Exception)``) is found
    where TFH401 reports the helper's text, at a caller's ``return api_error(..., e)``; a row in a helper with no
    exception parameter, or whose helper no finding calls, is not."""
    src = tmp_path / "m.py"
    lines = [f"y = {n}" for n in range(1, 50)]
    lines[1] = "def api_error(message: str, exc: Exception) -> dict:"
    lines[2] = '    return {"error": f"{message}: {exc}"}'
    lines[4] = "def fmt(message: str) -> str:"
    lines[5] = '    return f"failed: {message}"'
    lines[7] = "def other_error(exc: httpx.HTTPError | None) -> dict:"
    lines[8] = '    return {"error": str(exc)}'
    lines[16] = "def tool():"
    lines[17] = "    try:"
    lines[18] = "        y = 1"
    lines[19] = "    except Exception as e:"
    lines[20] = '        return api_error("Failed to fetch", e)'
    lines[21] = "    try:"
    lines[22] = "        y = 2"
    lines[23] = "    except Exception as e:"
    lines[24] = '        return fmt(str(e))'
    src.write_text("\n".join(lines) + "\n")
    row = {"half": "held-out", "package": "p", "path": "m.py", "code": "TFH401", "tool": "t", "source": "-"}
    misses = [{**row, "line": "3"}, {**row, "line": "6"}, {**row, "line": "9"}]
    rec = survey.recall([_finding(src, 21), _finding(src, 25)], misses)
    assert (rec["held-out"]["TFH401"]["found"], rec["held-out"]["TFH401"]["missed"]) == (1, 2)
