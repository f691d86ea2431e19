"""The end of a run's cross-module tools (``remote.py`` records what each registering file hands): :func:`adopted`
resolves each handed name through the run's re-exports (a sequence's elements one by one, a sequence spread into
another, a description table's name) to a module-level function or method of the run, and the file defining it
describes that function as a tool (:func:`adopted_defs`), a row at its own ``def``, once."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from typing import Protocol

from .ancestry import stub_run
from .handlers import returned_tools
from .index import Def, Index, helpers_of, span
from .remote import Remote, Wanted

__all__ = ["Resolve", "adopted", "adopted_defs"]


class Resolve(Protocol):
    """What :func:`adopted` asks of the run's resolver (``follow.Resolver``)."""

    def resolve(self, qn: str) -> str | None: ...

    def where(self, qn: str) -> tuple[str, str, str] | None: ...

    def alias(self, qn: str) -> str: ...

    def named(self, name: str) -> list[str]: ...


def adopted(remotes: Iterable[Remote], sequences: Mapping[str, tuple[str, ...]], resolve: Resolve,
            taken: Iterable[str]) -> dict[str, list[Wanted]]:
    """file -> (path in it, tool name or "", framework, form, text by) of the module-level functions of the run the
    remotes name (a sequence's elements one by one), each once, less those that already have a row (``taken``)."""
    seen = set(taken)
    out: dict[str, list[Wanted]] = {}
    for qn, name, framework, form, text_by in remotes:
        names: tuple[str, ...] = (qn,)
        if qn.startswith("*"):
            names = _spread(qn[1:], sequences, resolve)
        elif qn.startswith("?"):
            names = tuple(filter(None, [_by_name(qn, resolve)]))
        elif resolve.alias(qn) in sequences and resolve.resolve(qn) is None:
            names = _spread(qn, sequences, resolve)  # s57: a sequence handed whole (``TOOLS = jira.JIRA_TOOLS``)
        elif "|" in qn:  # a registered class: the first of its run methods it defines (``handlers.py``)
            found = next((key for one in qn.split("|") if (key := resolve.resolve(one)) is not None), None)
            names = (found,) if found is not None and found.rsplit(".", 1)[0] not in seen else ()  # a tool class
        elif qn.startswith("="):  # a method whose returned dict is a table of tools (``handlers.py``)
            key = resolve.resolve(qn[1:])
            where = resolve.where(key) if key is not None else None
            if key is not None and where is not None and "=" + key not in seen:
                seen.add("=" + key)
                out.setdefault(where[0], []).append(("=" + where[1], name, framework, form, text_by))
            continue
        for one in names:
            key = resolve.resolve(one)
            where = resolve.where(key) if key is not None else None
            if key is None or where is None or key in seen or where[1].count(".") > 1:
                continue  # not a module-level function or a method of the run, or already a row
            seen.add(key)
            out.setdefault(where[0], []).append((where[1], name, framework, form, text_by))
    return out


def _spread(seq: str, sequences: Mapping[str, tuple[str, ...]], resolve: Resolve, depth: int = 0) -> tuple[str, ...]:
    """The elements of a sequence of the run, each sequence spread into it (``*`` + its name) expanded in turn, two
    deep (``MCP_TOOLS = (*CONFLUENCE_MCP_TOOLS, *JIRA_MCP_TOOLS)``)."""
    out: list[str] = []
    for one in sequences.get(resolve.alias(seq), ()):
        if one.startswith("*"):
            out.extend(_spread(one[1:], sequences, resolve, depth + 1) if depth < 2 else ())
        else:
            out.append(one)
    return tuple(out)


def adopted_defs(index: Index, wanted: Iterable[Wanted]) -> list[Def]:
    """Rows for the module-level functions another module of the run makes tools of, with their same-module helpers
    (and the framework method the registering call carries that turns what they raise into text)."""
    out: list[Def] = []
    own = {p: (p, n, node) for p, n, node, parents in index.defs
           if not parents or len(parents) == 1 and isinstance(parents[0], ast.ClassDef)}  # a function, a method
    for path, name, framework, form, text_by in wanted:
        if path.startswith("="):  # a row per key of the table the method returns
            for key, (p, n, node, parents) in returned_tools(index, path[1:]):
                owner = ".".join(c.name for c in parents) if parents and isinstance(parents[-1], ast.ClassDef) else None  # type: ignore[attr-defined]
                helpers = [h for h in helpers_of(node, index, owner) if h[0] != p]
                out.append(Def(key, framework, form, f"{index.module}.{p}", span(node)[0], ((p, n),), (span(node),),
                               tuple(span(h[2]) for h in helpers), tuple((q, k) for q, k, _ in helpers),
                               text_by or None))
            continue
        entry = own.get(path)
        if entry is None or "." in path and stub_run(entry[2]):
            continue  # an abstract method (``fn=tool.execute`` on a parameter typed with the base): its subclasses' own
        _p, n, node = entry
        helpers = [h for h in helpers_of(node, index, path.rpartition(".")[0] or None) if h[0] != path]
        out.append(Def(name or path.rsplit(".", 1)[-1], framework, form, f"{index.module}.{path}", span(node)[0], ((path, n),),
                       (span(node),), tuple(span(h[2]) for h in helpers), tuple((p, k) for p, k, _ in helpers),
                       text_by or None))
    return out


def _by_name(key: str, resolve: Resolve) -> str | None:
    """The module-level function of the run a description table names (``?pkg.tool.descriptions.db:query``): the one
    so named in the table's module, else the one in a module of the same last name (``pkg.tool.db``), when only one
    is."""
    table, _, name = key[1:].partition(":")
    stem = table.rsplit(".", 1)[-1]
    found = resolve.named(name)
    own = [qn for qn in found if qn.rsplit(".", 1)[0] == table]
    same = [qn for qn in found if qn.rsplit(".", 1)[0].rsplit(".", 1)[-1] == stem]
    pick = own or same
    return pick[0] if len(pick) == 1 else None
