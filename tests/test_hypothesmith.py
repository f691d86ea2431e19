"""Robustness: hypothesmith-generated programs never make the engine raise.

``from_grammar()`` draws source text from Python's grammar (often not
compilable: then the engine must report TFH001, not raise); ``from_node()``
draws libcst trees and renders them, so the code always parses and every rule
gets to run on it. Either way: no exception, no TFH002 (a rule crashed).

The generated programs are also linted the way the flake8 plugin does it,
with the ``ast`` tree handed over, when ``ast`` accepts them.
"""

from __future__ import annotations

import ast
import warnings

import hypothesmith
from hypothesis import HealthCheck, given, settings

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source

INTERNAL_ERROR = "TFH002"
PARSE_ERROR = "TFH001"
CONFIG = Config.default()
_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


def _settings(examples: int) -> settings:
    # generation dominates (from_node: ~0.1-0.6 s per program), so the counts stay modest
    return settings(max_examples=examples, deadline=None, suppress_health_check=_HEALTH)


def _ast_tree(source: str) -> ast.Module | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _check(source: str) -> None:
    tree = _ast_tree(source)
    findings = lint_source(source, "generated.py", CONFIG)
    assert not [f for f in findings if f.code == INTERNAL_ERROR], (source, findings)
    if tree is not None:  # ast accepts it, so must we
        assert not [f for f in findings if f.code == PARSE_ERROR], (source, findings)
    try:
        data = source.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: no bytes form of this program
        data = None
    if data is not None:  # the bytes path decodes (cookie, BOM) before parsing
        from_bytes = lint_source(data, "generated.py", CONFIG)
        assert not [f for f in from_bytes if f.code == INTERNAL_ERROR], (source, from_bytes)
    for f in findings:  # positions are usable: 1-based, ordered
        assert f.line >= 1 and f.column >= 1
        assert (f.end_line, f.end_column) >= (f.line, f.column), f
    if tree is not None:
        via_plugin = lint_source(source, "generated.py", CONFIG, tree=tree)
        assert not [f for f in via_plugin if f.code in (INTERNAL_ERROR, PARSE_ERROR)], (source, via_plugin)


@_settings(100)
@given(hypothesmith.from_grammar())
def test_grammar_generated_programs_never_crash_the_engine(source: str) -> None:
    _check(source)


@_settings(50)
@given(hypothesmith.from_node())
def test_node_generated_programs_never_crash_the_engine(source: str) -> None:
    _check(source)


@_settings(15)
@given(hypothesmith.from_grammar("eval_input"))
def test_generated_expressions_inside_calls_never_crash_the_engine(source: str) -> None:
    """Expressions dropped into the places the rules look at: call arguments, handlers, returns."""
    expr = source.strip() or "None"
    if "\n" in expr or "#" in expr:  # keep comments and line breaks inside brackets
        expr = f"({expr}\n)"
    program = (
        "import requests, subprocess\n"
        "def tool(e=None):\n"
        "    try:\n"
        f"        requests.post({expr}, timeout={expr})\n"
        f"        subprocess.run({expr})\n"
        "    except Exception as e:\n"
        f"        return {{'error': str(e), 'x': {expr}}}\n"
    )
    _check(program)
