"""s55 (issue 24): a project function read from disk on the ``ast`` tree (no libcst parse).

:func:`.imports_disk.imported_definition` gives a function's libcst tree; a reader that only needs what the body
calls and raises (TFH401's own builtin refusals, ``rules/errors/own_raises.py``) reads it on ``ast``: the function's
own lines (found as :mod:`.imports_disk` finds a project definition: its module under the linted file's package root,
one re-export followed), dedented and parsed, memoised by the module's sha256 and the function's name and line.
"""

from __future__ import annotations

import ast
import textwrap
from typing import Union

from .disk_summary import _Func
from .imports_disk import _definition

__all__ = ["imported_definition_ast"]

_AstDef = Union[ast.FunctionDef, ast.AsyncFunctionDef]

#: (module file's sha256, "name:first line") -> the function's ``ast`` tree (None: it does not parse)
_ast_defs: dict[tuple[str, str], _AstDef | None] = {}


def imported_definition_ast(path: str, qualname: str) -> _AstDef | None:
    """The module-level function ``qualname`` of the project of the file at ``path``, on the ``ast`` tree; None as
    :func:`.imports_disk.imported_definition`."""
    found = _definition(path, qualname)
    if found is None:
        return None
    parsed, node = found
    if not isinstance(node, _Func):
        return None
    key = (parsed.sha or str(id(parsed)), f"{node.name}:{node.first}")
    if key not in _ast_defs:
        tree: _AstDef | None = None
        try:
            stmt = ast.parse(textwrap.dedent("".join(parsed.lines[node.first - 1 : node.last]))).body[0]
            tree = stmt if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        except (SyntaxError, ValueError, IndexError, RecursionError):
            tree = None
        _ast_defs[key] = tree
    return _ast_defs[key]
