"""``smullyan.linter.knowledge`` is one place of shared data, split by subject into modules.

Every public name is defined in exactly one module of the package, re-exported by the package (so
``from ..linter.knowledge import X`` and ``kb.X`` read the same object), and listed in its
``__all__``; no module is over the project's ~600-line limit.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

from smullyan.linter import knowledge

MODULES = sorted(m.name for m in pkgutil.iter_modules(knowledge.__path__))
# Defined in ``__init__.py`` itself: the object rules read the tables through, and its helpers.
OWN = {"Knowledge", "canonical", "markdown_calls", "markdown_words"}


def _defined(path: Path) -> list[str]:
    """Public names a module binds at top level (assignments, functions, classes), in order."""
    names: list[str] = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.append(node.name)
    return [n for n in names if not n.startswith("_")]


def test_the_package_has_its_subject_modules() -> None:
    assert MODULES == ["clients", "errors", "fallbacks", "local_programs", "processes", "registrars", "retries", "sessions", "timeouts", "tool_effects", "tools", "toolsets", "writes"]


def test_every_public_name_is_defined_once_and_re_exported() -> None:
    owners: dict[str, list[str]] = {}
    init = Path(knowledge.__file__)
    for name in _defined(init):
        owners.setdefault(name, []).append("__init__")
    for module in MODULES:
        for name in _defined(init.parent / f"{module}.py"):
            owners.setdefault(name, []).append(module)
    twice = {name: where for name, where in owners.items() if len(where) > 1}
    assert not twice, twice
    assert {n for n, where in owners.items() if where == ["__init__"]} == OWN
    assert sorted(knowledge.__all__) == sorted(owners)
    assert len(knowledge.__all__) == len(set(knowledge.__all__))
    for name, (module,) in owners.items():
        if module != "__init__":
            sub = importlib.import_module(f"smullyan.linter.knowledge.{module}")
            assert getattr(knowledge, name) is getattr(sub, name), name


def test_the_tables_rules_read_through_knowledge_are_the_package_tables() -> None:
    assert knowledge.Knowledge.aliases is knowledge.ALIASES
    assert knowledge.Knowledge.long_running_processes is knowledge.LONG_RUNNING_PROCESSES
    assert knowledge.Knowledge.tool_decorators is knowledge.TOOL_DECORATORS
    assert dict(knowledge.Knowledge.build().timeouts) == dict(knowledge.TIMEOUTS)


def test_no_module_is_over_600_lines() -> None:
    for path in Path(knowledge.__file__).parent.glob("*.py"):
        assert len(path.read_text().splitlines()) <= 600, path.name
