"""s57 (speed): a project's files read once for what two readers ask of them.

TFH401's project refusals (``project_refusals``) take the capitalised names a file calls and its ``class``
statements from the one read ``file_names`` makes for ``imports_disk``'s ``defines:`` keys; the tool table's
question (``project_tools``) takes a file's imports from ``imports_disk``'s memo when it holds the file."""

from __future__ import annotations

import ast
import builtins
import os
import textwrap
from pathlib import Path
from typing import Any

import pytest

from smullyan.linter import file_names, imports_disk, project_refusals, project_tools

SOURCE = textwrap.dedent("""\
    import os, json as j
    from . import sibling
    from .errors import ToolError as TE, PathError


    class Refusal(errors.ToolError, object):
        pass


    class lowercase_error(Refusal):
        pass


    def run(path):
        import shutil.util
        try:
            from ..up import thing
        except ImportError:
            from pkg.other import thing as other
        if not path:
            raise TE("no path")
        lowercase_error("x")
        return _Hidden(path), helper (1)
""")


def _package(tmp_path: Path) -> Path:
    pkg = tmp_path / "pkg" / "sub"
    pkg.mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text(SOURCE)
    return pkg / "mod.py"


def test_one_read_answers_both_screens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = os.path.realpath(_package(tmp_path))
    opened: list[str] = []
    real_open = builtins.open

    def counting(file: Any, *args: Any, **kwargs: Any) -> Any:
        if file == path:
            opened.append(file)
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting)
    called, classes = project_refusals._file_words(path)
    assert imports_disk._defining([path], "helper", calls=True) == [path]
    assert imports_disk._defining([path], "run") == [path]
    assert len(opened) == 1
    # the refusal screen's own reading: capitalised names followed by `(` (a class statement's name too), the
    # classes with the last names of their bases
    assert called == {"TE", "Refusal", "_Hidden"}
    assert classes == {"Refusal": frozenset({"ToolError", "object"}), "lowercase_error": frozenset({"Refusal"})}
    assert file_names.file_classes(path, imports_disk.MAX_BYTES) is classes


def test_an_unreadable_file_has_no_names(tmp_path: Path) -> None:
    missing = str(tmp_path / "gone.py")
    assert file_names.file_names(missing, 100) is None
    assert file_names.file_classes(missing, 100) == {}
    assert project_refusals._file_words(missing) == (frozenset(), {})


def _statements(path: Path) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    root = project_tools.project_root(str(path))
    assert root is not None
    return project_tools._Project(root, [str(path)])._statements(str(path))


def test_the_tool_tables_imports_come_from_the_memo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _package(tmp_path)
    imports_disk._memo.pop(os.path.realpath(path), None)
    parsed = _statements(path)  # not in the memo: its own parse
    assert parsed == [
        ("os", ()), ("json", ()), ("pkg.sub", (("sibling", "sibling"),)),
        ("pkg.sub.errors", (("ToolError", "TE"), ("PathError", "PathError"))),
        ("shutil.util", ()), ("pkg.up", (("thing", "thing"),)), ("pkg.other", (("thing", "other"),)),
    ]  # in the order of the file, at any depth
    assert imports_disk._module(os.path.realpath(path)) is not None  # a project question read it

    def no_parse(*args: Any, **kwargs: Any) -> ast.Module:
        raise AssertionError("parsed again")

    monkeypatch.setattr(project_tools.ast, "parse", no_parse)
    assert _statements(path) == parsed
    # a file changed since the memo read it is parsed again
    path.write_text(SOURCE + "import extra\n")
    monkeypatch.undo()
    assert _statements(path) == [*parsed, ("extra", ())]
