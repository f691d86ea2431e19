"""linter/imports_disk.py: a project's own imports followed to the module file on disk."""

from __future__ import annotations

import os
from pathlib import Path

import libcst as cst

from smullyan.linter import imports_disk
from smullyan.linter.imports_disk import imported_definition, imported_method, recording


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def _name(node: cst.CSTNode | None) -> str | None:
    return node.name.value if isinstance(node, (cst.FunctionDef, cst.ClassDef)) else None


def test_absolute_and_relative_forms_reach_the_module_file(tmp_path: Path) -> None:
    _write(tmp_path, {
        "app/__init__.py": "",
        "app/utils/__init__.py": "",
        "app/utils/errors.py": "def fmt(e):\n    return str(e)\nclass Base:\n    def err(self, m):\n        return m\n",
        "app/tools/__init__.py": "",
        "app/tools/t.py": "",
    })
    linted = str(tmp_path / "app/tools/t.py")
    assert _name(imported_definition(linted, "app.utils.errors.fmt")) == "fmt"
    assert imported_definition(linted, "app.utils.errors.Base") is None  # a class: only its methods are asked for
    assert _name(imported_method(linted, "app.utils.errors.Base", "err")) == "err"
    assert imported_method(linted, "app.utils.errors.Base", "missing") is None
    assert imported_definition(linted, "app.utils.errors.missing") is None
    assert imported_definition(linted, "app.utils.nowhere.fmt") is None


def test_names_from_the_resolver_for_relative_and_aliased_imports(tmp_path: Path) -> None:
    from smullyan.linter.names import Names

    _write(tmp_path, {
        "app/__init__.py": "",
        "app/utils/__init__.py": "",
        "app/utils/errors.py": "def fmt(e):\n    return str(e)\n",
        "app/tools/__init__.py": "",
    })
    source = "from ..utils.errors import fmt as f\nfrom ..utils import errors\nimport app.utils.errors as errs\n"
    names = Names(cst.parse_module(source), package="app.tools")
    linted = str(tmp_path / "app/tools/t.py")
    for expr in ("f", "errors.fmt", "errs.fmt"):
        qn = names.qualname(cst.parse_expression(expr))
        assert qn is not None
        assert _name(imported_definition(linted, qn)) == "fmt", expr


def test_reexport_through_a_package_init_is_followed_one_step(tmp_path: Path) -> None:
    _write(tmp_path, {
        "app/__init__.py": "",
        "app/utils/__init__.py": "from .errors import fmt as public_fmt\nfrom .loop import again\n",
        "app/utils/errors.py": "def fmt(e):\n    return str(e)\n",
        "app/utils/loop.py": "from . import again\n",
        "app/t.py": "",
    })
    linted = str(tmp_path / "app/t.py")
    assert _name(imported_definition(linted, "app.utils.public_fmt")) == "fmt"
    # a cycle (__init__ -> loop -> __init__ ...) ends after one step: nothing, no recursion error
    assert imported_definition(linted, "app.utils.again") is None


def test_namespace_subpackage_without_init(tmp_path: Path) -> None:
    _write(tmp_path, {"app/__init__.py": "", "app/helpers/errors.py": "def fmt(e):\n    return str(e)\n", "app/t.py": ""})
    assert _name(imported_definition(str(tmp_path / "app/t.py"), "app.helpers.errors.fmt")) == "fmt"


def test_never_outside_the_project(tmp_path: Path) -> None:
    _write(tmp_path, {
        "app/__init__.py": "",
        "app/t.py": "",
        "other/__init__.py": "",
        "other/errors.py": "def fmt(e):\n    return str(e)\n",
        "lone.py": "",
    })
    linted = str(tmp_path / "app/t.py")
    assert imported_definition(linted, "other.errors.fmt") is None  # another top-level package
    assert imported_definition(str(tmp_path / "lone.py"), "other.errors.fmt") is None  # no package at all
    assert imported_definition(linted, "os.path.join") is None  # the standard library
    assert imported_definition("-", "app.t.x") is None
    # a symbolic link that leads out of the project is not followed
    os.symlink(tmp_path / "other/errors.py", tmp_path / "app/linked.py")
    assert imported_definition(linted, "app.linked.fmt") is None


def test_syntax_error_and_oversized_modules_give_nothing(tmp_path: Path) -> None:
    _write(tmp_path, {
        "app/__init__.py": "",
        "app/t.py": "",
        "app/broken.py": "def fmt(e):\n    return str(e\n",
        "app/big.py": "def fmt(e):\n    return str(e)\n" + "#" * (imports_disk.MAX_BYTES + 10) + "\n",
    })
    linted = str(tmp_path / "app/t.py")
    assert imported_definition(linted, "app.broken.fmt") is None
    assert imported_definition(linted, "app.big.fmt") is None


def test_recording_names_the_modules_read_with_their_hash_and_sees_edits(tmp_path: Path) -> None:
    _write(tmp_path, {"app/__init__.py": "", "app/errors.py": "def fmt(e):\n    return str(e)\n", "app/t.py": ""})
    linted = str(tmp_path / "app/t.py")
    target = tmp_path / "app/errors.py"
    with recording() as deps:
        assert imported_definition(linted, "app.errors.fmt") is not None
    assert deps == {os.path.realpath(target): imports_disk.digest_of(str(target))}
    with recording() as outside:
        pass
    assert outside == {}
    target.write_text("def other(e):\n    return 'x'\n\n\n")  # another size: the memo re-reads it
    assert imported_definition(linted, "app.errors.fmt") is None
    assert _name(imported_definition(linted, "app.errors.other")) == "other"


def test_a_decorated_function_and_an_async_method_are_parsed_from_their_own_lines(tmp_path: Path) -> None:
    _write(tmp_path, {
        "app/__init__.py": "",
        "app/t.py": "",
        "app/errors.py": (
            "import functools\n\n\n@functools.cache\ndef fmt(e):\n    return f'''failed:\n{e}'''\n\n\n"
            "class Base:\n    x = 1\n\n    @staticmethod\n    async def err(m):\n        text = str(m)\n        return text\n"
        ),
    })
    linted = str(tmp_path / "app/t.py")
    fmt = imported_definition(linted, "app.errors.fmt")
    assert isinstance(fmt, cst.FunctionDef) and len(fmt.decorators) == 1
    err = imported_method(linted, "app.errors.Base", "err")
    assert isinstance(err, cst.FunctionDef) and err.asynchronous is not None and len(err.decorators) == 1


def test_the_memo_keeps_summaries_not_trees(tmp_path: Path) -> None:
    """s43: what a followed module is asked for is taken from its ``ast`` tree once, then the tree is dropped: the
    readers give the same answers (last binding wins, a method's last ``def``, abstract methods, imports at any
    depth) and no ``ast`` node is reachable from the module's memo, only the libcst definitions asked for."""
    import ast
    import gc

    _write(tmp_path, {
        "app/__init__.py": "",
        "app/t.py": "",
        "app/errors.py": (
            "import json\nfrom .store import Thing\n\n\ndef fmt(e):\n    return 'first'\n\n\n"
            "def fmt(e):\n    return str(e)\n\n\nclass fmt2:\n    pass\n\n\nfrom .other import fmt2\n\n\n"
            "class Base:\n    def err(self, m):\n        return 1\n\n    def err(self, m):\n        return m\n"
        ),
        "app/other.py": "def fmt2(e):\n    return repr(e)\n",
        "app/store.py": (
            "import abc\nimport os\n\n\nclass NoteStore(abc.ABC):\n    @abc.abstractmethod\n    def save(self, x):\n"
            "        ...\n\n\nclass FileNoteStore(NoteStore):\n    def save(self, x):\n        return os.path.join(x)\n"
        ),
        "app/remote.py": (
            "class RemoteNoteStore:\n    def save(self, x):\n        if x:\n            try:\n                import requests\n"
            "            except ImportError:\n                return None\n        return x\n"
        ),
        "app/tools/__init__.py": "",
        "app/tools/a.py": "def run():\n    if True:\n        from ..errors import fmt, Base\n",
    })
    linted = str(tmp_path / "app/t.py")
    fmt = imported_definition(linted, "app.errors.fmt")
    assert isinstance(fmt, cst.FunctionDef) and "str(e)" in cst.Module([fmt]).code  # the last one
    assert _name(imported_definition(linted, "app.errors.fmt2")) == "fmt2"  # re-bound by the later import
    err = imported_method(linted, "app.errors.Base", "err")
    assert err is not None and "return m" in cst.Module([err]).code
    assert imports_disk.imported_by(linted, lambda parts: "tools" in parts, "test-tools", module="app.errors") == {"fmt", "Base"}
    assert imports_disk.project_method_stays_local(linted, "note_store", "save") is False  # RemoteNoteStore imports requests
    (tmp_path / "app/remote.py").unlink()
    imports_disk._methods.clear()
    imports_disk._project_file_lists.clear()
    assert imports_disk.project_method_stays_local(linted, "note_store", "save") is True  # NoteStore's is abstract

    kept: dict[str, object] = {k: v for k, v in imports_disk._memo.items() if k.startswith(os.path.realpath(tmp_path))}
    assert len(kept) >= 4
    seen: set[int] = set()
    stack: list[object] = [kept, imports_disk._importers, imports_disk._methods]
    nodes = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (type, type(os))):
            continue
        seen.add(id(obj))
        assert not isinstance(obj, ast.AST), obj
        if isinstance(obj, cst.CSTNode):
            nodes += 1
            continue  # the definitions asked for (``defs``)
        stack.extend(gc.get_referents(obj))
    assert nodes == 3  # fmt, fmt2, Base.err


def test_a_linted_file_is_remembered_from_its_own_tree_not_parsed_again(tmp_path: Path, monkeypatch) -> None:
    """s56: once a project question has read a module of the project, each file linted there leaves its own entry in
    the memo, taken from the tree the engine holds (its own parse, or flake8's); a later project question reads it
    from there, not with a second ``ast.parse``, and the entry is the one a read would make. A file whose text on
    disk is not the linted text, or a project not yet asked about, leaves none."""
    import ast

    from smullyan.linter.config import Config
    from smullyan.linter.engine import lint_source

    _write(tmp_path, {
        "app/__init__.py": "",
        "app/errors.py": "def fmt(e):\n    return str(e)\n",
        "app/late.py": "import json\nfrom .errors import fmt\n\n\nclass Late:\n    def run(self):\n        return fmt(1)\n",
        "app/other.py": "x = 1\n",
        "app/edited.py": "y = 2\n",
        "elsewhere/__init__.py": "",
        "elsewhere/m.py": "z = 3\n",
    })
    late = str(tmp_path / "app/late.py")
    other = os.path.realpath(tmp_path / "elsewhere/m.py")
    lint_source((tmp_path / "elsewhere/m.py").read_bytes(), other, Config())
    assert other not in imports_disk._memo  # no project question was asked there: nothing is kept for nothing
    assert imported_definition(late, "app.errors.fmt") is not None  # a project question: app/errors.py is read
    real = os.path.realpath(late)
    assert real not in imports_disk._memo
    text = (tmp_path / "app/late.py").read_text()
    lint_source(text, late, Config(), tree=ast.parse(text))  # flake8's text and tree
    lint_source(b"y = 'not what the file holds'\n", str(tmp_path / "app/edited.py"), Config())
    assert os.path.realpath(tmp_path / "app/edited.py") not in imports_disk._memo
    remembered = imports_disk._memo[real]
    parses: list[object] = []
    monkeypatch.setattr(imports_disk.ast, "parse", lambda *a, **k: parses.append(a) or ast.Module([], []))
    assert imports_disk._module(real) is remembered and not parses  # read from the memo, no parse
    monkeypatch.undo()
    with recording() as deps:
        assert imports_disk._module(real) is remembered
    assert deps == {real: imports_disk.digest_of(real)}  # recorded as a read is
    imports_disk._memo.pop(real)
    fresh = imports_disk._module(real)
    assert fresh is not None and fresh is not remembered
    assert (fresh.size, fresh.mtime_ns, fresh.sha, fresh.summary, fresh.lines) == (
        remembered.size, remembered.mtime_ns, remembered.sha, remembered.summary, remembered.lines)
