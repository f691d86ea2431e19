"""The layering contracts: ``lint-imports`` keeps them on this tree, and each custom type breaks when it should.

``pyproject.toml`` ([tool.importlinter]) holds the contracts; ``make test`` runs
``lint-imports`` too. The custom types (tests/import_contracts.py) are checked
here on small graphs that keep or break them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

from tests.import_contracts import AcyclicModulesContract, LayerAboveContract, StdlibOnlyContract, _components

ROOT = Path(__file__).resolve().parent.parent


def _graph(imports: list[tuple[str, str]]) -> grimp.ImportGraph:
    graph = grimp.ImportGraph()
    for importer, imported in imports:
        graph.add_import(importer=importer, imported=imported, line_number=1, line_contents="import x")
    return graph


def test_acyclic_modules_breaks_on_a_cycle_and_keeps_a_chain() -> None:
    contract = AcyclicModulesContract("c", {}, {"root": "pkg"})
    chain = _graph([("pkg.a", "pkg.b"), ("pkg.b", "pkg.c"), ("pkg.a", "pkg.c")])
    chain.add_module("pkg")
    assert contract.check(chain, verbose=False).kept
    cycle = _graph([("pkg.a", "pkg.b"), ("pkg.b", "pkg.c"), ("pkg.c", "pkg.a"), ("pkg.d", "pkg.a")])
    cycle.add_module("pkg")
    check = contract.check(cycle, verbose=False)
    assert not check.kept and check.metadata["cycles"] == [["pkg.a", "pkg.b", "pkg.c"]]


def test_components_finds_every_cycle_once() -> None:
    edges = {"a": ["b"], "b": ["a", "c"], "c": ["d"], "d": ["c"], "e": []}
    found = sorted(sorted(c) for c in _components(sorted(edges), edges))
    assert found == [["a", "b"], ["c", "d"], ["e"]]


def test_stdlib_only_breaks_on_a_third_party_import_unless_allowed() -> None:
    graph = _graph([("pkg.core", "json"), ("pkg.core", "pkg.util"), ("pkg.extra.x", "libcst"), ("pkg.lazy", "psycopg")])
    graph.add_module("pkg")
    graph.add_module("pkg.extra")
    options = {"source_modules": ["pkg"], "allow": ["pkg.extra"], "allow_imports": ["pkg.lazy -> psycopg"]}
    assert StdlibOnlyContract("c", {}, options).check(graph, verbose=False).kept
    check = StdlibOnlyContract("c", {}, {"source_modules": ["pkg"], "allow": ["pkg.extra"]}).check(graph, verbose=False)
    assert not check.kept and [(i, m) for i, m, _ in check.metadata["bad"]] == [("pkg.lazy", "psycopg")]


def test_layer_above_keeps_the_layer_the_only_way_to_the_reached_modules() -> None:
    options = {"container": "pkg.lint", "layer": "pkg.lint.tools", "above": ["pkg.lint.cli"], "reaches": ["pkg.rules"]}
    kept = [("pkg.lint.cli", "pkg.lint.tools"), ("pkg.lint.cli", "pkg.lint.engine"), ("pkg.lint.tools.facts", "pkg.rules.x"),
            ("pkg.lint.tools.facts", "pkg.lint.engine"), ("pkg.rules.x", "pkg.lint.api"), ("pkg.lint.api", "pkg.lint.engine")]
    graph = _graph(kept)
    for name in ("pkg", "pkg.lint", "pkg.lint.tools", "pkg.rules"):
        graph.add_module(name)
    assert LayerAboveContract("c", {}, options).check(graph, verbose=False).kept
    # the engine reaching the rules, the tools layer or the CLI: each is broken, at the import that leaves the engine
    for imported in ("pkg.rules.x", "pkg.lint.tools.facts", "pkg.lint.cli"):
        broken = _graph([*kept, ("pkg.lint.engine", imported)])
        for name in ("pkg", "pkg.lint", "pkg.lint.tools", "pkg.rules"):
            broken.add_module(name)
        check = LayerAboveContract("c", {}, options).check(broken, verbose=False)
        assert not check.kept
        assert [(i, m, reached) for i, m, _, reached in check.metadata["bad"]] == [
            ("pkg.lint.engine", imported, imported.startswith("pkg.rules"))
        ]


def test_the_tree_keeps_every_contract() -> None:
    proc = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports")], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout
