"""The commands a process call's loop variable walks, and the program a looked-up name holds (TFH201's literal reads).

A mixin of :class:`~.shapes.TimeoutShapes`: ``for cmd in [[...], [...]]: run(cmd)``, a local list grown by
``.append``, a literal dict's values (``for name, cmd in deps.items(): run(cmd.split())``, s41), and
``exe = shutil.which("security")`` with a literal-path fallback (s41)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from ...linter.api import last_name, project_program, walk_in_scope
from .process import EDITOR_WORDS, command_words
from .returns import returned_program

if TYPE_CHECKING:
    from ...linter.api import FileContext, Names


class LoopCommands:
    """The loop and look-up reads; the class using it keeps the scope's binding table (``bindings``)."""

    names: "Names"
    ctx: "FileContext"
    bindings: dict[int, dict[str, list[cst.BaseExpression | None]]]
    module: cst.Module | None

    def _literal_binding(self, name: str) -> cst.BaseExpression | None:
        raise NotImplementedError

    def _literal_bindings(self, name: str) -> list[cst.BaseExpression]:
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

    def _tuple_items(self, func: cst.CSTNode, name: str, loops: list[tuple[cst.For, int]]) -> list[cst.BaseExpression] | None:
        """The values the ``index``-th name of a tuple target walks over a literal list or tuple of equal-width
        tuples, in the one such loop of the function (the name bound nowhere else)."""
        if len(loops) != 1:
            return None
        loop, index = loops[0]
        self._literal_binding(name)  # builds the scope's binding table
        if name in self.bindings.get(id(func), {}) or not isinstance(loop.iter, (cst.List, cst.Tuple)) or not loop.iter.elements:
            return None
        width = len(loop.target.elements) if isinstance(loop.target, cst.Tuple) else 0
        out: list[cst.BaseExpression] = []
        for e in loop.iter.elements:
            item = e.value
            if isinstance(e, cst.StarredElement) or not isinstance(item, (cst.List, cst.Tuple)) or len(item.elements) != width:
                return None
            out.append(item.elements[index].value)
        return out

    def _loop_commands(self, cmd: cst.BaseExpression) -> list[cst.BaseExpression] | None:
        """The commands a loop variable walks: ``for command in [[...], [...]]:``, or over a local list
        bound once to such a literal and grown only by ``.append(...)``; None for anything else."""
        func = self.names.function
        if isinstance(cmd, cst.Call) and isinstance(cmd.func, cst.Attribute) and cmd.func.attr.value == "split" and not cmd.args:
            walked = self._loop_commands(cmd.func.value)  # `for cmd in ["pandoc --version", ...]: run(cmd.split())`
            return walked if walked is not None and all(isinstance(c, cst.SimpleString) for c in walked) else None
        if not isinstance(cmd, cst.Name) or func is None:
            return None
        tuples = [
            (n, i) for n in walk_in_scope(func) if isinstance(n, cst.For) and isinstance(n.target, cst.Tuple)
            for i, e in enumerate(n.target.elements) if isinstance(e.value, cst.Name) and e.value.value == cmd.value
        ]
        pairs = [n for n, i in tuples if i == 1 and isinstance(n.target, cst.Tuple) and len(n.target.elements) == 2]
        if pairs and len(tuples) == 1 and isinstance(pairs[0].iter, cst.Call):
            # s41: `for name, cmd in {"pandoc": "pandoc --version", ...}.items()`: the dict's values
            return self._dict_values(func, cmd.value, pairs)
        if tuples:  # s44: `for label, args in (("head", ["rev-parse", "HEAD"]), ...)`: each tuple's item there
            return self._tuple_items(func, cmd.value, tuples)
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

    def _grown_list(self, name: str) -> cst.BaseExpression | None:
        """s44 (batch 17, codeprobe): the literal list a local name is bound to once and then only grown at its end
        (``cmd = ["git", "clean", "-fd"]``, ``cmd += ["-e", d]``): its leading words stay the code's; else None."""
        self._literal_binding(name)  # builds the scope's binding table
        values = self.bindings.get(id(self.names.function or self.module), {}).get(name, [])
        first = [v for v in values if v is not None]
        if len(first) != 1 or not isinstance(first[0], (cst.List, cst.Tuple)) or len(values) < 2:
            return None
        scope = self.names.function or self.module
        assert scope is not None
        grown = [n for n in walk_in_scope(scope)
                 if isinstance(n, cst.AugAssign) and isinstance(n.target, cst.Name) and n.target.value == name]
        if len(grown) != len(values) - 1 or not all(isinstance(n.operator, cst.AddAssign) for n in grown):
            return None  # bound or changed some other way (a loop, a parameter, `cmd.insert(0, ...)`)
        return first[0]

    def _editor_held(self, value: cst.BaseExpression, depth: int) -> bool:
        """s45 (batch 17, pp-coding-agent): the person's editor command held in a field of an object whose class says
        it (``options.command`` with ``options: ExternalEditorOptions``, a dataclass filled from ``$VISUAL``/``$EDITOR``),
        also split (``.split()``, ``shlex.split``) or through a local name bound once to it."""
        if isinstance(value, cst.Call) and self.names.qualname(value.func) == "shlex.split" and value.args:
            value = value.args[0].value
        elif isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "split":
            value = value.func.value
        if isinstance(value, cst.Name) and depth > 0:
            bound = self._literal_binding(value.value)
            return bound is not None and self._editor_held(bound, depth - 1)
        if not (isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name)):
            return False
        func = self.names.function
        if not isinstance(func, cst.FunctionDef):
            return False
        params = [*func.params.posonly_params, *func.params.params, *func.params.kwonly_params]
        param = next((p for p in params if p.name.value == value.value.value), None)
        ann = param.annotation.annotation if param is not None and param.annotation is not None else None
        owner = last_name(ann) if isinstance(ann, (cst.Name, cst.Attribute)) else None
        return owner is not None and any(word in owner.lower() for word in EDITOR_WORDS)

    def _words_of(self, cmd: cst.BaseExpression) -> tuple[list[str], bool]:
        if isinstance(cmd, cst.Name):
            value = self._literal_binding(cmd.value)
            if value is None and (prefix := self._grown_list(cmd.value)) is not None:
                return command_words(prefix)[0], False
            if value is not None:
                cmd = value
        first = cmd.elements[0] if isinstance(cmd, (cst.List, cst.Tuple)) and cmd.elements else None
        if first is not None and self._editor_held(first.value, 2):
            return ["$EDITOR"], False  # s45: `[*options.command.split(" "), path]`, `options: ExternalEditorOptions`
        if first is not None and isinstance(first.value, cst.Call) and isinstance(cmd, (cst.List, cst.Tuple)):
            # s43: `[ops._git_executable(root), "log", ...]`: the program the module's function of that name returns
            found_one = self._returned_program(first.value)
            if found_one is not None:
                program = cst.SimpleString(repr(found_one))
                cmd = cmd.with_changes(elements=[first.with_changes(value=program), *cmd.elements[1:]])
        elif first is not None and isinstance(first.value, cst.Name) and isinstance(cmd, (cst.List, cst.Tuple)):
            # `git = shutil.which("git")` then `[git, "rev-parse", ...]`: the program is the one looked up
            # (s41: or bound to it and, as a fallback, to a literal path of the same program: `exe = shutil.which("security")`,
            # `if exe is None: exe = "/usr/bin/security"`; s43: or to a call of a module function returning it,
            # also bound in the enclosing function of a forwarding closure: `def run(args): run([git, *args])`)
            bound = self._literal_bindings(first.value.value) or self._enclosing_bindings(first.value.value)
            found = [(p, True) if (p := self._returned_program(v)) is not None else self._looked_up(v) for v in bound]
            looked_up = {p for p, which in found if which and p is not None}  # s47: `shutil.which(args.python)` names none
            if len(looked_up) == 1 and all(p in looked_up for p, _ in found):
                program = cst.SimpleString(repr(looked_up.pop()))
                cmd = cmd.with_changes(elements=[first.with_changes(value=program), *cmd.elements[1:]])
        return command_words(cmd)

    def _returned_program(self, value: cst.BaseExpression) -> str | None:
        """The program a call of a module function returns (:func:`.returns.returned_program`), or None."""
        if not isinstance(value, cst.Call) or not isinstance(value.func, (cst.Name, cst.Attribute)):
            return None
        name = last_name(value.func)
        if not name:
            return None
        found = returned_program(self.ctx.screen, name)
        if found is None and not any(getattr(d, "name", None) == name for d in self.ctx.screen.defs):
            # s44: a function of another module of the project, by the resolver's name; a method called on a
            # receiver it cannot name (`ops._git_executable(root)`, `ops: SnapshotServices`), by every project
            # function of that name (`linter/imports_disk.py`: `project_program`)
            qualname = self.names.qualname(value.func)
            found = project_program(self.ctx.path, qualname, name)
        return found

    def _enclosing_bindings(self, name: str) -> list[cst.BaseExpression]:
        """Each value a name not bound in a closure is bound to in its enclosing function (``[]``: not plain ones)."""
        func, parent = self.names.function, self.names.enclosing_function
        if func is None or parent is None or name in self.bindings.get(id(func), {}):
            return []
        values: list[cst.BaseExpression | None] = []
        for n in walk_in_scope(parent):
            if isinstance(n, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == name for t in n.targets):
                values.append(n.value if len(n.targets) == 1 else None)
            elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.For, cst.Param)) and (
                isinstance(getattr(n, "target", None), cst.Name) and getattr(n, "target").value == name
                or isinstance(n, cst.Param) and n.name.value == name
            ):
                values.append(None)
        return [v for v in values if v is not None] if values and None not in values else []
