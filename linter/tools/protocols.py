"""A project's own tool protocol (s56): ``class Tool(Protocol): schema (a property); def run(self, **kwargs) -> str:
...``, which the project's tools implement without naming it as a base (``@dataclass class WebFetchTool: schema ...;
def run(self, **kwargs)``), as a type checker matches a class to a protocol: by its members.

A class of the run is linked to such a protocol when the protocol is a ``typing.Protocol`` whose name says tool
(``tool_bases.says_tool``) and that leaves a run method to its implementers (``tool_bases.runs_tool``: ``run``,
``execute``, ``__call__``), the class's own name says tool too (or the protocol asks for a describing member besides the run method, ``spec``/
``schema``, and the class has it), it does not derive from the protocol, and it (with the run's classes it derives
from) defines every method, property and attribute the protocol declares. The link is read as a base:
``project_tool_bases`` then finds the protocol as the run's own tool base by its implementers (two at least), and the
implementers are tool classes like any subclass (``forms``: ``<Protocol> protocol``). Used by ``describe.run``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .ancestry import run_class
from .tool_bases import Shape, runs_tool

__all__ = ["protocol_links"]


#: the words of a member that describes a tool to the model (``schema``, ``spec``, ``definition``)
_DESCRIBING = ("schema", "spec", "definition")


def _required(protocol: Shape) -> frozenset[str]:
    """The members a protocol asks of its implementers: its methods, properties and attributes (``__call__`` among
    the dunders)."""
    return frozenset(m for m in protocol.defines | protocol.attrs if m == "__call__" or not m.startswith("__"))


def _describes(need: frozenset[str]) -> bool:
    """The protocol asks its implementers to describe themselves (``spec``, ``schema``) besides running."""
    return len(need) >= 2 and any(w in m.lower() for m in need for w in _DESCRIBING)


def protocol_links(classes: Iterable[tuple[str, Sequence[str]]], shapes: Iterable[Shape]) -> dict[str, str]:
    """{qualified name of a class of the run: the qualified name of the tool protocol it implements} (module doc)."""
    shape_of = {s.qualname: s for s in shapes}
    protocols = [s for s in shape_of.values() if s.protocol and s.toolish
                 and any(runs_tool(m) or m == "__call__" for m in s.template)]
    if not protocols:
        return {}
    bases_of = {qn: list(bases) for qn, bases in classes}
    # any one class of the base's last name (not only ``ancestry.same_class``'s: the members decide, and a star import
    # leaves a base unqualified)
    in_run = run_class(bases_of)

    def ancestry(qn: str) -> list[str]:
        """The class and the run's classes it derives from, at any depth."""
        seen, queue = [qn], [qn]
        while queue:
            for b in bases_of.get(queue.pop(), ()):
                parent = in_run(b)
                if parent is not None and parent not in seen:
                    seen.append(parent)
                    queue.append(parent)
        return seen

    out: dict[str, str] = {}
    for qn, shape in shape_of.items():
        if shape.protocol or shape.adapter or qn not in bases_of:
            continue
        line = ancestry(qn)
        members = frozenset().union(*(shape_of[a].defines | shape_of[a].attrs for a in line if a in shape_of))
        for p in protocols:
            need = _required(p)
            # named a tool, or describing itself as the protocol asks (pxx's ``class ReadFile: spec = ToolSpec(...)``)
            if p.qualname not in line and need and need <= members and (shape.toolish or _describes(need)):
                out[qn] = p.qualname
                break
    return out
