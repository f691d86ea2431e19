"""A process command the call does not spell, built in the code rather than handed in (s49, issue 23).

TFH201 reads a literal program through the tables (``local_program``): silent unless it reaches another machine,
runs long, may wait at a prompt or runs code it is handed. A command whose program the call does not spell (no
leading literal word) used to be reported whatever built it. Now the evidence is read the same way round: a command
built in the code, where no part that chooses the program or its sub-command comes from a parameter of the running
function (``[git_binary(), "show", spec]``, ``[self._binary, "schema"]``, ``[*_GIT, "commit", "-m", m]``, ``cmd``
assigned such a list in the function or the module) is silent unless one of its literal words names a program or
sub-command the tables know to reach another machine, run long or prompt (``knowledge.network_or_long_words``:
``[python, "-m", "pytest"]``, ``[self._git, "clone", url]``; ``fetcher()`` returning ``"curl"``). A command a caller
hands in (a parameter in the program's or sub-command's place: ``run(command)``, ``shlex.split(command)``, ``["git"] +
args``, ``[sys.executable, file]``, ``request.binary``, ``step["cmd"]`` of a loop over a parameter, ``self.executable``
assigned from a constructor's parameter) is the model's or the caller's command: still reported (the helpers whose
callers all pass literal local commands are read by :mod:`.params`). Read by ``shapes.py``'s ``_silent_command``.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

import libcst as cst

from ...linter.api import Knowledge, assignment_targets, walk_in_scope

_OBJECT = frozenset({"self", "cls"})  # the object's own attributes are built by the class, not handed to this call
_CODE_RUNNERS = frozenset({"bash", "sh", "zsh", "cmd", "powershell", "pwsh", "python", "python3", "node", "ruby", "perl"})
_CODE_FLAGS = frozenset({"-c", "/c", "-e", "--eval", "-Command", "-command"})
_HOLE = "{}"
_HANDED = "{param}"  # a hole a caller fills (a parameter of the running function)


def _no_subcommand(words: list[str]) -> bool:
    """Whether the words so far are only a program and its flags (what follows names the sub-command)."""
    return all(w in (_HOLE, _HANDED) or w.startswith("-") for w in words[1:])


class _Handed(Exception):
    """A part that chooses the program comes from a caller (or cannot be read)."""


def _module_values(module: cst.Module) -> tuple[dict[str, list[cst.BaseExpression]], set[str]]:
    values: dict[str, list[cst.BaseExpression]] = {}
    named: set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            named.add(stmt.name.value)
        elif isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign):
                    for t in small.targets:
                        if isinstance(t.target, cst.Name):
                            values.setdefault(t.target.value, []).append(small.value)
                elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
                    values.setdefault(small.target.value, []).append(small.value)
                elif isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        bound = alias.asname.name if alias.asname is not None else alias.name
                        if isinstance(bound, cst.Name):
                            named.add(bound.value)
                        elif isinstance(bound, cst.Attribute):
                            root: cst.BaseExpression = bound
                            while isinstance(root, cst.Attribute):
                                root = root.value
                            if isinstance(root, cst.Name):
                                named.add(root.value)
    return values, named


def _function_values(func: cst.FunctionDef) -> tuple[dict[str, list[cst.BaseExpression]], set[str]]:
    params = {p.name.value for p in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)}
    for star in (func.params.star_arg, func.params.star_kwarg):
        if isinstance(star, cst.Param):
            params.add(star.name.value)
    values: dict[str, list[cst.BaseExpression]] = {}
    for n in walk_in_scope(func):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                if isinstance(t.target, cst.Name):
                    values.setdefault(t.target.value, []).append(n.value)
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign)) and isinstance(n.target, cst.Name) and n.value is not None:
            values.setdefault(n.target.value, []).append(n.value)
        elif isinstance(n, cst.For) and isinstance(n.target, cst.Name):
            values.setdefault(n.target.value, []).append(n.iter)
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and isinstance(n.func.value, cst.Name) and (
                n.func.attr.value in ("append", "extend", "insert")):
            values.setdefault(n.func.value.value, []).extend(a.value for a in n.args)
    return values, params - _OBJECT


def _declared_field(cls: cst.ClassDef, attr: str) -> cst.BaseExpression | None | bool:
    """What the class body declares ``attr`` as: its value (``binary = "rg"``), ``None`` for a field with no usable value
    (``command: str = ""``, ``command: str``, ``= None``: a field of a dataclass, a pydantic model or an attrs class,
    which the code that builds the object fills), ``False`` when the body does not declare it."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for stmt in body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, (cst.Assign, cst.AnnAssign)) and any(
                    isinstance(t, cst.Name) and t.value == attr for t in assignment_targets(small)):
                value = getattr(small, "value", None)
                empty = value is None or (isinstance(value, cst.SimpleString) and value.evaluated_value in ("", b"")) \
                    or (isinstance(value, cst.Name) and value.value == "None")
                return None if empty else value
    return False


class _Reader:
    def __init__(self, func: cst.FunctionDef | None, module: cst.Module | None, is_builtin: Callable[[str], bool],
                 cls: cst.ClassDef | None = None) -> None:
        self.cls, self.module_node = cls, module
        self.local, self.params = _function_values(func) if func is not None else ({}, set())
        self.module, self.named = _module_values(module) if module is not None else ({}, set())
        self.is_builtin = is_builtin
        self.returned: dict[str, list[str]] = {}
        self.seen: set[str] = set()
        self.methods: dict[tuple[str, str], list[str]] = {}  # s53: :func:`method_returned_words` (literal_words only)

    def name(self, name: str, chooses: bool) -> list[str]:
        if name in self.params:
            if chooses:
                raise _Handed
            return [_HANDED]
        bound = self.local.get(name, []) + ([] if name in self.local else self.module.get(name, []))
        if not bound:
            if chooses and name not in self.named and not self.is_builtin(name):
                raise _Handed  # a name of an enclosing function: its caller's, unread here
            return [_HOLE]
        if name in self.seen:
            return [_HOLE]
        self.seen.add(name)
        out: list[str] = []
        for value in bound:
            out += self.words(value, chooses)
        self.seen.discard(name)
        return out

    def attribute(self, attr: str, chooses: bool) -> list[str]:
        """The words of each value a method of the class assigns ``self.<attr>``, read in that method: a constructor's
        parameter (``self.executable = executable``) is handed in by whoever builds the object."""
        key = f"self.{attr}"
        if self.cls is None or key in self.seen or not isinstance(self.cls.body, cst.IndentedBlock):
            return [_HOLE]
        self.seen.add(key)
        out: list[str] = []
        for method in self.cls.body.body:
            if not isinstance(method, cst.FunctionDef):
                continue
            for n in walk_in_scope(method):
                if isinstance(n, (cst.Assign, cst.AnnAssign)) and n.value is not None and any(
                        isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value in _OBJECT
                        and t.attr.value == attr
                        for t in assignment_targets(n)):
                    reader = _Reader(method, self.module_node, self.is_builtin, self.cls)
                    reader.seen, reader.returned = self.seen, self.returned
                    out += reader.words(n.value, chooses)
        self.seen.discard(key)
        declared = _declared_field(self.cls, attr) if not out else False
        if declared is None:
            if chooses:
                raise _Handed  # `command: str = ""` no method assigns: a field whoever builds the object fills
            return [_HANDED]
        if isinstance(declared, cst.BaseExpression):
            out = self.words(declared, chooses)  # `_binary = "rg"` in the class body
        return out or [_HOLE]

    def words(self, node: cst.BaseExpression, chooses: bool) -> list[str]:
        """The command's words in order, ``{}`` for each part not spelled; raises :class:`_Handed` when a part that
        chooses the program (``chooses``) comes from a parameter."""
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            text = node.evaluated_value
            return text.split() if isinstance(text, str) else [_HOLE]
        if isinstance(node, cst.FormattedString):
            out: list[str] = []
            for part in node.parts:
                if isinstance(part, cst.FormattedStringText):
                    out += part.value.split()
                elif isinstance(part, cst.FormattedStringExpression):
                    out += self.words(part.expression, chooses and not out)
            return out
        if isinstance(node, (cst.List, cst.Tuple)):
            out = []
            for i, el in enumerate(node.elements):
                # the program and, until a literal sub-command, what is spread after it choose what runs
                first = i == 0 or (isinstance(el, cst.StarredElement) and _no_subcommand(out))
                out += self.words(el.value, chooses and first)
            return out
        if isinstance(node, cst.Name):
            if node.value in ("None", "True", "False"):
                return []
            return self.name(node.value, chooses)
        if isinstance(node, (cst.Attribute, cst.Subscript)):
            root: cst.BaseExpression = node
            while isinstance(root, (cst.Attribute, cst.Subscript)):
                root = root.value
            if isinstance(root, cst.Name) and chooses and root.value not in _OBJECT:
                self.name(root.value, True)  # `request.command`, `step["cmd"]` of `for step in arguments["steps"]`
            if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value in _OBJECT:
                return self.attribute(node.attr.value, chooses)  # `self._binary`: what the class's methods assign it
            if isinstance(node, cst.Attribute) and node.attr.value == "executable" and isinstance(node.value, cst.Name) and (
                    node.value.value == "sys"):
                return ["python"]  # `sys.executable`: an interpreter, whose script decides
            return [_HOLE]
        if isinstance(node, cst.Call):
            out = []
            if chooses and isinstance(node.func, cst.Attribute):  # `argv.split()`, `command.strip()`: whose text
                self.words(node.func.value, chooses)
            if isinstance(node.func, cst.Name):  # `fetcher()`: each literal a module function of that name returns
                out += self.returned.get(node.func.value, [])
            elif self.cls is not None and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) and (
                    node.func.value.value in _OBJECT):  # s53: `self._build_argv(command, cwd)`: what the method returns
                out += self.methods.get((self.cls.name.value, node.func.attr.value), [])
            for arg in node.args:
                out += self.words(arg.value, chooses)
            return out or [_HOLE]
        if isinstance(node, cst.BinaryOperation):
            left = self.words(node.left, chooses)  # `["git"] + command`: what is added before a sub-command chooses
            return left + self.words(node.right, chooses and _no_subcommand(left))
        if isinstance(node, cst.IfExp):
            return self.words(node.body, chooses) + self.words(node.orelse, chooses)
        if isinstance(node, cst.BooleanOperation):  # `shutil.which("gh") or "gh"`: either side
            return self.words(node.left, chooses) + self.words(node.right, chooses)
        if isinstance(node, (cst.Await, cst.StarredElement)):
            return self.words(node.expression if isinstance(node, cst.Await) else node.value, chooses)
        if isinstance(node, (cst.Integer, cst.Float)):
            return [node.value]
        if chooses:
            raise _Handed  # a comprehension, a lambda: not read
        return [_HOLE]


def built_local_command(knowledge: Knowledge, cmd: cst.BaseExpression, func: cst.FunctionDef | None,
                        module: cst.Module | None, is_builtin: Callable[[str], bool], cls: cst.ClassDef | None,
                        returned: dict[str, list[str]]) -> bool:
    """Whether a process command the call does not spell is built in the code, nothing a caller hands in chooses its
    program, and none of its literal words says it reaches another machine, runs long or may prompt."""
    reader = _Reader(func, module, is_builtin, cls)
    reader.returned = returned
    try:
        words = reader.words(cmd, True)
    except _Handed:
        return False
    for i, word in enumerate(words[:-1]):
        runner = word.rsplit("/", 1)[-1] in _CODE_RUNNERS
        if runner and words[i + 1] in _CODE_FLAGS and set(words[i + 2:i + 3]) & {_HOLE, _HANDED}:
            return False  # `bash -c <script>`, `python -c <code>`: code not spelled here
        if runner and _HANDED in words[i + 1:i + 2]:
            return False  # `[sys.executable, file]`, `f"python {file}"`: the caller's script is the program
    return bool(words) and knowledge.network_or_long_words(w for w in words if w not in (_HOLE, _HANDED)) is None


def literal_words(cmd: cst.BaseExpression, func: cst.FunctionDef | None, module: cst.Module | None,
                  is_builtin: Callable[[str], bool], cls: cst.ClassDef | None, returned: dict[str, list[str]],
                  methods: dict[tuple[str, str], list[str]] | None = None) -> list[str]:
    """Every literal word of a command as :class:`_Reader` reads it (names bound in the function, the module or by the
    class's methods read through; ``{}`` for a part not spelled), whoever chose its program (s52: TFH203's evidence);
    s53: a call of the class's own method, ``self._build_argv(...)``, as the words its returns give (``methods``)."""
    reader = _Reader(func, module, is_builtin, cls)
    reader.returned, reader.methods = returned, methods or {}
    return reader.words(cmd, False)


def returned_words(tree: ast.AST) -> dict[str, list[str]]:
    """Each module function's name -> the literal words of what its ``return`` statements give (``return "curl"``,
    ``return shutil.which("git") or "git"``), read on the file's ``ast`` screen (the narrowed tree may lack it)."""
    out: dict[str, list[str]] = {}
    for node in getattr(tree, "body", []):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            words = out.setdefault(node.name, [])
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return) and ret.value is not None:
                    words += [w for c in ast.walk(ret.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)
                              for w in c.value.split()]
    return out


def built_returned_words(tree: ast.AST) -> dict[str, list[str]]:
    """s57 (issue 23; to-do-fixer b25, toast-cli b26, ccherd b28): :func:`returned_words` with a returned name read
    through the function's own assignments, as a method's is (``cmd = ["aws"] + args; cmd += ["--region", r]; return
    cmd``). TFH201's evidence for a process whose output the code reads only (``EvidenceShapes._returned_evidence``)."""
    out: dict[str, list[str]] = {}
    for node in getattr(tree, "body", []):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.setdefault(node.name, []).extend(_returned(node))
    return out


def _returned(func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The literal words of what ``func`` returns, a returned name read through the function's own assignments."""
    assigned = assigned_values(func)
    returns = [n.value for n in ast.walk(func) if isinstance(n, ast.Return) and n.value is not None]
    values = [*returns, *(v for r in returns for name in ast.walk(r) if isinstance(name, ast.Name)
                          for v in assigned.get(name.id, []))]
    return [w for v in values for c in ast.walk(v) if isinstance(c, ast.Constant) and isinstance(c.value, str)
            for w in c.value.split()]


def assigned_values(func: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[ast.expr]]:
    """Every value each plain name is given in the function (``x = v``, ``x += v``, ``x: T = v``), in walk order."""
    assigned: dict[str, list[ast.expr]] = {}
    for n in ast.walk(func):
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and n.value is not None:
            for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                if isinstance(t, ast.Name):
                    assigned.setdefault(t.id, []).append(n.value)
    return assigned


def method_returned_words(tree: ast.AST) -> dict[tuple[str, str], list[str]]:
    """s53 (batch 25, trobz-deploy's ``argv = self._build_argv(command, cwd)``): (class, method) -> the literal words
    of what each method of the module's classes returns, a returned name read through the method's own assignments
    (``argv = ["ssh", "-A"]; argv += [host, cmd]; return argv``), on the file's ``ast`` screen."""
    out: dict[tuple[str, str], list[str]] = {}
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for method in cls.body:
            if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out[(cls.name, method.name)] = _returned(method)
    return out
