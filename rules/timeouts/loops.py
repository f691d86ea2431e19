"""The commands a process call's loop variable walks, and the program a looked-up name holds (TFH201's literal reads).

A mixin of :class:`~.shapes.TimeoutShapes`: ``for cmd in [[...], [...]]: run(cmd)``, a local list grown by
``.append``, a literal dict's values (``for name, cmd in deps.items(): run(cmd.split())``, s41), and
``exe = shutil.which("security")`` with a literal-path fallback (s41)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from ...linter.api import walk_in_scope

if TYPE_CHECKING:
    from ...linter.api import Names


class LoopCommands:
    """The loop and look-up reads; the class using it keeps the scope's binding table (``bindings``)."""

    names: "Names"
    bindings: dict[int, dict[str, list[cst.BaseExpression | None]]]

    def _literal_binding(self, name: str) -> cst.BaseExpression | None:
        raise NotImplementedError

    def _looked_up(self, value: cst.BaseExpression) -> tuple[str | None, bool]:
        """The program a value names, and whether it is a ``shutil.which("X")`` look-up (a literal path's basename, False)."""
        if isinstance(value, cst.Call) and self.names.qualname(value.func) == "shutil.which" and value.args:
            arg = value.args[0].value
            text = arg.evaluated_value if isinstance(arg, cst.SimpleString) else None
            return (text, True) if isinstance(text, str) else (None, True)
        if isinstance(value, cst.SimpleString) and isinstance(value.evaluated_value, str):
            return value.evaluated_value.rsplit("/", 1)[-1], False
        return None, False

    def _dict_values(self, func: cst.CSTNode, name: str, loops: list[cst.For]) -> list[cst.BaseExpression] | None:
        """The values a pair loop's second name walks over ``d.items()``, ``d`` a local literal dict bound once."""
        it = loops[0].iter
        if len(loops) != 1 or not (isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value == "items"):
            return None
        self._literal_binding(name)  # builds the scope's binding table
        if name in self.bindings.get(id(func), {}):  # the name is also bound elsewhere
            return None
        source: cst.BaseExpression | None = it.func.value
        if isinstance(source, cst.Name):
            source = self._literal_binding(source.value)
        if not isinstance(source, cst.Dict) or not source.elements:
            return None
        values = [e.value for e in source.elements if isinstance(e, cst.DictElement)]
        return values if len(values) == len(source.elements) else None

    def _loop_commands(self, cmd: cst.BaseExpression) -> list[cst.BaseExpression] | None:
        """The commands a loop variable walks: ``for command in [[...], [...]]:``, or over a local list
        bound once to such a literal and grown only by ``.append(...)``; None for anything else."""
        func = self.names.function
        if isinstance(cmd, cst.Call) and isinstance(cmd.func, cst.Attribute) and cmd.func.attr.value == "split" and not cmd.args:
            walked = self._loop_commands(cmd.func.value)  # `for cmd in ["pandoc --version", ...]: run(cmd.split())`
            return walked if walked is not None and all(isinstance(c, cst.SimpleString) for c in walked) else None
        if not isinstance(cmd, cst.Name) or func is None:
            return None
        pairs = [
            n for n in walk_in_scope(func)
            if isinstance(n, cst.For) and isinstance(n.target, cst.Tuple) and len(n.target.elements) == 2
            and isinstance(n.target.elements[1].value, cst.Name) and n.target.elements[1].value.value == cmd.value
        ]
        if pairs:  # s41: `for name, cmd in {"pandoc": "pandoc --version", ...}.items()`: the dict's values
            return self._dict_values(func, cmd.value, pairs)
        loops = [n for n in walk_in_scope(func) if isinstance(n, cst.For) and isinstance(n.target, cst.Name) and n.target.value == cmd.value]
        self._literal_binding(cmd.value)  # builds the scope's binding table
        if len(loops) != 1 or self.bindings.get(id(func), {}).get(cmd.value) != [None]:
            return None
        source: cst.BaseExpression | None = loops[0].iter
        grown: list[cst.BaseExpression] = []
        if isinstance(source, cst.Name):
            name = source.value
            source = self._literal_binding(name)
            for n in walk_in_scope(func):
                if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and isinstance(n.func.value, cst.Name) and n.func.value.value == name:
                    if n.func.attr.value != "append" or len(n.args) != 1:
                        return None
                    grown.append(n.args[0].value)
                elif isinstance(n, cst.AugAssign) and isinstance(n.target, cst.Name) and n.target.value == name:
                    return None
        if not isinstance(source, (cst.List, cst.Tuple)) or any(isinstance(e, cst.StarredElement) for e in source.elements):
            return None
        return [e.value for e in source.elements] + grown
