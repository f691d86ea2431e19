"""What a process finding rests on: TFH201 or TFH203 (s52, the lead's split of TFH201 by evidence; issue 23).

TFH201 reports a process without a timeout when the linter can read why it may not end: a literal word of its command
(any position, through the names, helpers and callers the rule already reads) names a program or sub-command the
tables know to reach another machine, run long or wait at a prompt (``knowledge.network_or_long_words``), or a tool
runs it (the model's command, :func:`~smullyan.linter.tool_functions.registered_tool`). A process whose command says
none of this, and a ``wait()``/``communicate()`` on one (or on a process the function did not start), is TFH203: a
program the linter cannot read, off by default. Measured on all 1,047 TFH201 labels of batches 1-24 (session 51's
audit): the evidence TFH201 keeps is right 88-100% of the time; what moves to TFH203 29-53%.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import in_project_tool, node_lines, registered_tool
from .callers import command_params, handed_commands
from .methods import method_command
from .foreground import ctrl_c_handled, on_terminal
from .process import PROCESS_RUNS, PROCESS_STARTS, PROCESS_WAITS, attached, exec_argv
from .shapes import TimeoutShapes
from .unspelled import _function_values, built_returned_words, literal_words, method_returned_words, returned_words


def _calls(cmd: cst.BaseExpression) -> list[cst.BaseExpression]:
    """``cmd`` and what it is built of (list elements, operands, arguments): where a module function's call may stand."""
    out: list[cst.BaseExpression] = []
    todo = [cmd]
    while todo:
        n = todo.pop()
        out.append(n)
        if isinstance(n, (cst.List, cst.Tuple)):
            todo += [e.value for e in n.elements]
        elif isinstance(n, cst.BinaryOperation):
            todo += [n.left, n.right]
        elif isinstance(n, cst.Call):
            todo += [a.value for a in n.args]
    return out


class EvidenceShapes(TimeoutShapes):
    """TFH201's shapes plus the split: :meth:`unread_process` says whether a finding belongs to TFH203."""

    def unread_process(self, node: cst.Call, qn: str) -> bool:
        """``node`` (a call of ``qn`` the rule reports) runs or waits on a process whose command holds no word that
        says it reaches another machine, runs long or may prompt, outside a tool."""
        if qn in PROCESS_RUNS:
            runner, cmd = node, self._command(node)
        elif qn in PROCESS_WAITS:
            started = self._started(node)
            if started is None:
                return not self._in_tool()  # a process started elsewhere (`self.proc`, a parameter): unread
            runner, cmd = started
        else:
            return False  # HTTP, SDK, database, docker: the call itself is the evidence
        if cmd is not None and (self._evidence(node, cmd, 0) or (not attached(runner) and (
                self._handed_evidence(cmd) or self._returned_evidence(cmd)))):
            return False
        return not self._in_tool() and not self._in_project_tool(node, cmd)

    def _handed_evidence(self, cmd: cst.BaseExpression) -> bool:
        """s53 (batch 25: overkill, arc-deploy, trobz-deploy): a process whose output the code reads (not one on the
        person's terminal: the s50 foreground decision) runs a command some caller of the helper hands it that reaches
        another machine (:mod:`.callers`, ``knowledge.network_command``: ``_run(["git", "push"])``, ``cmd = f"curl -X
        POST {url}"`` then ``self.run_command(cmd)``), or one the class's own method builds with a word naming the
        network, a long job or a prompt (``self._build_argv(command)`` returning ``["ssh", "-A", host, command]``)."""
        func = self.names.function
        if not isinstance(func, cst.FunctionDef):
            return False
        k = self.knowledge
        if any(k.network_command(c) is not None for c in self._handed(func, cmd)):
            return True
        screen = self.ctx.screen
        cls = self.classes[-1] if self.classes else None
        methods = screen.memo(("method_returned_words",), lambda: method_returned_words(screen.tree))
        if cls is None or not any(c == cls.name.value for c, _ in methods):
            return False
        words = literal_words(cmd, func, self.module, self.names.is_builtin, cls,
                              screen.memo(("returned_words",), lambda: returned_words(screen.tree)), methods)
        return k.network_or_long_words(w for w in words if not w.startswith("{")) is not None

    def _returned_evidence(self, cmd: cst.BaseExpression) -> bool:
        """s57 (issue 23; to-do-fixer b25 ``codex_command(...)``, toast-cli b26 ``_aws(config, [...])``, ccherd b28
        ``claude_cmd(...)``): a process whose output the code reads (not one on the person's terminal: the s50
        foreground decision) runs a command a module function builds in a name it returns (``cmd = ["aws"] + args;
        return cmd``), whose literal words name the network, a long job or a prompt. Asked only of a command that
        calls a module function by name (a cheap local gate); the module's functions are read once (``ast`` screen)."""
        values = [cmd, *(self._literal_bindings(cmd.value) if isinstance(cmd, cst.Name) else [])]
        if not any(isinstance(n, cst.Call) and isinstance(n.func, cst.Name) for v in values for n in _calls(v)):
            return False
        func = self.names.function
        screen = self.ctx.screen
        words = literal_words(cmd, func if isinstance(func, cst.FunctionDef) else None, self.module, self.names.is_builtin,
                              self.classes[-1] if self.classes else None,
                              screen.memo(("built_returned_words",), lambda: built_returned_words(screen.tree)))
        return self.knowledge.network_or_long_words(w for w in words if not w.startswith("{")) is not None

    def _handed(self, func: cst.FunctionDef, cmd: cst.BaseExpression) -> list[list[str]]:
        """The commands the callers of ``func`` hand the parameters that choose ``cmd``'s program (:mod:`.callers`)."""
        local, params = _function_values(func)
        handed = command_params(cmd, local, params)
        if not handed:
            return []
        cls = self.classes[-1] if self.classes else None
        screen = self.ctx.screen
        return screen.memo(("handed_commands", id(func), tuple(sorted(handed.items()))),
                           lambda: handed_commands(screen, func, cls, handed, self.ctx.path, self.knowledge))

    def _started(self, node: cst.Call) -> tuple[cst.Call, cst.BaseExpression | None] | None:
        """The call starting the process a ``proc.wait()``/``proc.communicate()`` waits on, and its command, when the
        function starts ``proc`` itself (``proc = subprocess.Popen(cmd)``, ``proc = await asyncio.create_subprocess_exec(*argv)``)."""
        f = node.func
        if not (isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name)):
            return None
        for value in self._literal_bindings(f.value.value) or self._with_bindings(f.value.value):
            call = value.expression if isinstance(value, cst.Await) else value
            if not isinstance(call, cst.Call) or self.names.qualname(call.func) not in PROCESS_STARTS:
                continue
            if self.names.qualname(call.func) == "asyncio.create_subprocess_exec":
                return call, exec_argv(call)
            return call, self._command(call)
        return None

    def _with_bindings(self, name: str) -> list[cst.BaseExpression]:
        """``with subprocess.Popen(cmd) as proc:`` in the function: the started call."""
        call = self.popen_calls.get(name)
        return [call] if call is not None else []

    def _evidence(self, node: cst.Call, cmd: cst.BaseExpression, depth: int) -> bool:
        """A literal word of ``cmd``, or of a command it stands for, names the network, a long job or a prompt."""
        k = self.knowledge
        if depth > 4:
            return False
        if isinstance(cmd, cst.Name):
            bound = self._literal_bindings(cmd.value)
            if any(not isinstance(v, cst.Name) and self._evidence(node, v, depth + 1) for v in bound):
                return True
        if isinstance(cmd, cst.IfExp):
            return self._evidence(node, cmd.body, depth + 1) or self._evidence(node, cmd.orelse, depth + 1)
        built = method_command(self.ctx.screen, self.classes[-1] if self.classes else None, cmd)
        if built is not None and self._evidence(node, built, depth + 1):
            return True
        subs = self._parameter_commands(cmd)
        if subs is not None and any(self._evidence(node, c, depth + 1) for c in subs):
            return True  # each literal command the callers hand in
        words = self._words_of(cmd)[0]
        func = self.names.function
        words += literal_words(cmd, func if isinstance(func, cst.FunctionDef) else None, self.module, self.names.is_builtin,
                               self.classes[-1] if self.classes else None,
                               self.ctx.screen.memo(("returned_words",), lambda: returned_words(self.ctx.screen.tree)))
        return k.network_or_long_words(w for w in words if not w.startswith("{")) is not None

    def _foreground_cli_process(self, node: cst.Call, qn: str) -> bool:
        return super()._foreground_cli_process(node, qn) or self._stopped_with_ctrl_c(node, qn)

    def _stopped_with_ctrl_c(self, node: cst.Call, qn: str) -> bool:
        """s54 (issue 23; batches 20-25's labels: conning, oblivion-agent, crossweave, dulus, all false): a process left
        on the person's terminal (nothing captured: :func:`.foreground.on_terminal`) by a call in a ``try`` whose
        handler names ``KeyboardInterrupt`` (``except KeyboardInterrupt: return 130``), outside a tool: the code
        expects the person at the terminal to stop it with Ctrl-C, the s50 foreground decision's terminal child."""
        if not any(ctrl_c_handled(caught) for caught in self.try_handlers.get(id(node), [])):
            return False
        call: cst.Call | None = node
        if qn in PROCESS_WAITS and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name):
            call = self.popen_calls.get(node.func.value.value)
        elif qn not in PROCESS_RUNS:
            return False
        return call is not None and on_terminal(self.names, call) and not self._in_tool()

    def _in_tool(self) -> bool:
        """The call is in a tool a framework runs (or a function nested in one): the model chose the command."""
        stack = self.names.stack
        for i in range(len(stack) - 1, 0, -1):
            frame = stack[i]
            if frame.kind == "function" and isinstance(frame.node, cst.FunctionDef):
                outer = stack[i - 1]
                owner = outer.node if outer.kind == "class" and isinstance(outer.node, cst.ClassDef) else None
                if registered_tool(frame.node, owner, self.names, self.knowledge):
                    return True
        return False

    def _in_project_tool(self, call: cst.Call, cmd: cst.BaseExpression | None) -> bool:
        """s55/s56 (issue 23; gwenflow, loopgpt, oterm, oxygent, sage-agent: 5 packages of 5 batches): the process
        call (a run, or a wait on the process the function starts) is in a tool the project registers in another module (its own tool base, a registry or an ``Agent(tools=[...])``
        list filled elsewhere, a package entry point), as the ``ast`` reading of the project's tool table finds it
        (:mod:`smullyan.linter.project_tools`). Asked last, and only past the cheap local gate: a parameter of the
        enclosing function chooses the program (the model's command is an argument of the tool)."""
        func = self.names.function
        if cmd is None or not isinstance(func, cst.FunctionDef) or not command_params(cmd, *_function_values(func)):
            return False
        # what another module names to make it a tool: the outermost class (a method's), else the outermost function
        outer = [f.node for f in self.names.stack if f.kind in ("class", "function")
                 and isinstance(f.node, (cst.ClassDef, cst.FunctionDef))]
        classes = [n for n in outer if isinstance(n, cst.ClassDef)]
        owner: cst.ClassDef | cst.FunctionDef = classes[0] if classes else outer[0] if outer else func
        bases: list[str] = []
        if isinstance(owner, cst.ClassDef):  # its bases: a project's own tool base is known by its subclasses
            bases = [b.value.attr.value if isinstance(b.value, cst.Attribute) else b.value.value for b in owner.bases
                     if isinstance(b.value, (cst.Name, cst.Attribute)) and b.keyword is None]
        line = node_lines(self.module, None, [call]).get(call) if self.module is not None else None
        return line is not None and in_project_tool(self.ctx.path, line, [owner.name.value], self.ctx.config, bases)
