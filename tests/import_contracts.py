"""Three import-linter contract types the built-in ones do not offer (registered in pyproject.toml).

``lint-imports`` (run by ``make test``) checks the contracts of ``[tool.importlinter]``;
``tests/test_import_contracts.py`` proves each type here breaks on a graph that breaks it.

- ``stdlib_only``: the ``source_modules`` (and their descendants, less ``allow``)
  import nothing outside the root package and the standard library, but for the
  ``allow_imports`` (``"importer -> imported"``: an optional extra's lazy import,
  whose laziness tests/test_runtime_purity.py checks).
- ``acyclic_modules``: no import cycle among the modules of ``root``: every strongly
  connected component of the module graph is one module.
- ``layer_above``: inside ``container``, the ``layer`` package is the only part that
  imports the ``reaches`` modules, and only the ``above`` modules import the layer:
  no other module of the container (the rest, "below") imports any of ``reaches``,
  ``layer`` or ``above`` directly. Checked on every module below, that is the
  indirect answer too: a chain out of the modules below leaves them through one
  such import (or into the rest of the package, which other contracts keep from
  importing the container).
"""

from __future__ import annotations

import sys
from typing import Any

from importlinter import Contract, ContractCheck, fields, output


def _module_and_descendants(graph: Any, name: str) -> set[str]:
    return {name} | set(graph.find_descendants(name))


class StdlibOnlyContract(Contract):
    type_name = "stdlib_only"

    source_modules = fields.ListField(subfield=fields.StringField())
    allow = fields.ListField(subfield=fields.StringField(), required=False)
    allow_imports = fields.ListField(subfield=fields.StringField(), required=False)

    def check(self, graph: Any, verbose: bool) -> ContractCheck:
        allowed: set[str] = set()
        for name in self.allow or ():  # type: ignore[attr-defined]
            allowed |= _module_and_descendants(graph, name)
        pairs = {tuple(p.strip() for p in text.split("->")) for text in self.allow_imports or ()}  # type: ignore[attr-defined]
        root = self.source_modules[0].split(".")[0]  # type: ignore[index]
        bad: list[tuple[str, str, int | None]] = []
        for source in self.source_modules:  # type: ignore[attr-defined]
            for importer in sorted(_module_and_descendants(graph, source) - allowed):
                for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                    top = imported.split(".")[0]
                    if top == root or top in sys.stdlib_module_names or (importer, imported) in pairs:
                        continue
                    details = graph.get_import_details(importer=importer, imported=imported)
                    bad.append((importer, imported, details[0]["line_number"] if details else None))
        return ContractCheck(kept=not bad, metadata={"bad": bad})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for importer, imported, line in check.metadata["bad"]:
            output.print_error(f"{importer} imports {imported} (l.{line}), which is not in the standard library")
            output.new_line()


class AcyclicModulesContract(Contract):
    type_name = "acyclic_modules"

    root = fields.StringField()

    def check(self, graph: Any, verbose: bool) -> ContractCheck:
        modules = sorted(_module_and_descendants(graph, self.root))  # type: ignore[arg-type]
        inside = set(modules)
        edges = {m: sorted(graph.find_modules_directly_imported_by(m) & inside) for m in modules}
        cycles = [sorted(c) for c in _components(modules, edges) if len(c) > 1]
        return ContractCheck(kept=not cycles, metadata={"cycles": cycles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for cycle in check.metadata["cycles"]:
            output.print_error("these modules import each other in a cycle: " + ", ".join(cycle))
            output.new_line()


class LayerAboveContract(Contract):
    type_name = "layer_above"

    container = fields.StringField()
    layer = fields.StringField()
    above = fields.ListField(subfield=fields.StringField(), required=False)
    reaches = fields.ListField(subfield=fields.StringField())

    def check(self, graph: Any, verbose: bool) -> ContractCheck:
        layer = _module_and_descendants(graph, self.layer)  # type: ignore[arg-type]
        above: set[str] = set()
        for name in self.above or ():  # type: ignore[attr-defined]
            above |= _module_and_descendants(graph, name)
        reached: set[str] = set()
        for name in self.reaches:  # type: ignore[attr-defined]
            reached |= _module_and_descendants(graph, name)
        out_of_reach = layer | above | reached
        below = _module_and_descendants(graph, self.container) - layer - above  # type: ignore[arg-type]
        bad: list[tuple[str, str, int | None, bool]] = []  # (importer, imported, line, imported is reached)
        for importer in sorted(below):
            for imported in sorted(graph.find_modules_directly_imported_by(importer) & out_of_reach):
                details = graph.get_import_details(importer=importer, imported=imported)
                line = details[0]["line_number"] if details else None
                bad.append((importer, imported, line, imported in reached))
        return ContractCheck(kept=not bad, metadata={"bad": bad})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for importer, imported, line, reached in check.metadata["bad"]:
            why = f"only {self.layer} may import it" if reached else "which is a layer above it"  # type: ignore[attr-defined]
            output.print_error(f"{importer} imports {imported} (l.{line}), {why}")
            output.new_line()


def _components(nodes: list[str], edges: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iteratively (no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            successors = edges[node]
            if i < len(successors):
                work.append((node, i + 1))
                nxt = successors[i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                out.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return out
