"""What a run that finds no tool suggests beside the settings: the project's own decorators applied most (a tool
decorator the tables lack, crab's ``@action``), named with the ``tool-decorators`` line that makes them tools."""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterable, Mapping

from .index import Index

__all__ = ["LIKELY_DECORATOR_USES", "decorator_candidates", "own_decorators"]


#: a decorator applied to fewer functions than this is no likely tool decorator (``decorator_candidates``)
LIKELY_DECORATOR_USES = 3


def own_decorators(index: Index, decorators: Mapping[str, str], own_roots: frozenset[str]) -> dict[str, int]:
    """The run's own decorators (resolved through the imports to its packages; not in the tables) on the file's
    functions: qualified name -> how many functions they decorate here."""
    out: dict[str, int] = {}
    for _path, _n, node, _parents in index.defs:
        for d in getattr(node, "decorator_list", ()):
            qn = index.qualname(d.func if isinstance(d, ast.Call) else d)
            if qn is not None and qn.split(".")[0] in own_roots and qn not in decorators:
                out[qn] = out.get(qn, 0) + 1
    return out


def decorator_candidates(uses: Iterable[Mapping[str, int]], wrapping: Collection[str]) -> list[tuple[str, int]]:
    """The run's own decorators that may make tools, for a run that found none: applied to
    :data:`LIKELY_DECORATOR_USES` functions or more, and not one that only wraps the function it is given
    (``wrapping_decorators``: a timer, a logger). -> (decorator, functions), most first."""
    total: dict[str, int] = {}
    for one in uses:
        for qn, n in one.items():
            total[qn] = total.get(qn, 0) + n
    return sorted(((q, n) for q, n in total.items() if n >= LIKELY_DECORATOR_USES and q not in wrapping),
                  key=lambda c: (-c[1], c[0]))
