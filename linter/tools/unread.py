"""A file this Python's ``ast`` cannot read, though libcst can: ``smullyan tools`` says so (session 50)."""

from __future__ import annotations

import ast
import sys
import warnings
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..findings import Finding


def unread_by_ast(source: str | bytes, path: str) -> list["Finding"]:
    """A file libcst reads but this Python's ``ast`` cannot (a PEP 701 f-string or PEP 695 alias on 3.11): its tools
    are found from the ``ast`` tree, so they are not read; a TFH001 warning names the line, as for any unparsable file."""
    from .. import engine

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(source, filename=path)
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None) or 1
        col = getattr(exc, "offset", None) or 1
        why = getattr(exc, "msg", None) or str(exc)
        v = f"{sys.version_info.major}.{sys.version_info.minor}"
        return [engine._pseudo(path, engine.PARSE_ERROR, line, col,
                               f"Python {v}'s parser cannot read this file ({why}); its tools are not listed: run "
                               "`smullyan tools` under the Python the project targets")]
    except (RecursionError, MemoryError):  # pragma: no cover - the engine reported these already
        return []
    return []
