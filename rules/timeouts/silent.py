"""TFH201's commands with no timeout to give (a mixin of :class:`~.shapes.TimeoutShapes`): a process call a person
waits on (``_interactive``: a CLI's foreground process, an editor, a sign-in or a session on their terminal) or whose
command finishes at once (``_silent_command``: a version query, a literal local program, a command built in the code
with no network word, each literal a parameter naming the program can hold: ``_parameter_commands``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from .builders import builder_command
from .foreground import self_bounding
from .loops import LoopCommands
from .methods import method_command
from .params import forwarded_commands, forwarded_param, parameter_commands, program_expression
from .process import PROCESS_RUNS, PROCESS_WAITS, attached, command_words, later_flags, local_command, session_command
from .unspelled import built_local_command, literal_words, method_returned_words, returned_words

if TYPE_CHECKING:
    from ...linter.api import Knowledge


class SilentCommands(LoopCommands):
    """The command reads; the class using it keeps the traversal's state (the enclosing classes, the open
    ``click.confirm`` blocks, the ``Popen`` and ``create_subprocess_exec`` calls bound to names)."""

    knowledge: "Knowledge"
    classes: list[cst.ClassDef]
    confirmed: int
    popen_argv: dict[str, list[str]]
    popen_calls: dict[str, cst.Call]
    exec_commands: dict[str, tuple[int, cst.Call, cst.List]]

    def _command(self, node: cst.Call) -> cst.BaseExpression | None:
        raise NotImplementedError

    def _foreground_cli_process(self, node: cst.Call, qn: str) -> bool:
        raise NotImplementedError

    def _interactive(self, node: cst.Call, qn: str) -> bool:
        if self._foreground_cli_process(node, qn):
            return True
        if qn in PROCESS_RUNS:
            cmd = self._command(node)
            return cmd is not None and all(self._silent_command(node, c) for c in self._loop_commands(cmd) or [cmd])
        if qn in PROCESS_WAITS and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name):
            call = self.popen_calls.get(node.func.value.value)
            cmd = self._command(call) if call is not None else None
            loop = self._loop_commands(cmd) if cmd is not None else None
            if call is not None and loop and all(self._silent_command(call, c) for c in loop):
                return True  # s41: `for cmd in [["xclip", ...], ["xsel", ...]]: proc = Popen(cmd)`, then `proc.communicate(...)`
            if call is not None:  # s43: a Popen's command as `run` reads it; create_subprocess_exec's literal argv
                return cmd is not None and self._silent_command(call, cmd)
            if self.knowledge.silent_process(self.popen_argv.get(node.func.value.value, []), False, self.confirmed > 0):
                return True
            started = self.exec_commands.get(node.func.value.value)
            # s44 (batch 17): create_subprocess_exec's positionals read as `run` reads a list: a program found with
            # `shutil.which("tmux")`, or a parameter each call of the function fills with one (`tmux, "send-keys", ...`)
            return (started is not None and started[0] == id(self.names.function)
                    and self._silent_command(started[1], started[2]))
        return False

    def _silent_command(self, node: cst.Call, cmd: cst.BaseExpression) -> bool:
        """A command with no timeout to give: each step waits for a person or finishes at once, or it
        asks a program (any, ``[exe_path, "--version"]``) only to print a fact about itself."""
        if isinstance(cmd, cst.Name):
            bound = self._literal_bindings(cmd.value)
            if len(bound) > 1:  # `cmd = [git, config, user.name]` ... `cmd = [git, config, user.email]`: each decides
                return all(not isinstance(v, cst.Name) and self._silent_command(node, v) for v in bound)
            cmd = bound[0] if bound else cmd
        if isinstance(cmd, cst.IfExp):  # s46: `[exe, "sso", "login"] if sso else [exe, "login"]`: it runs one of them
            return self._silent_command(node, cmd.body) and self._silent_command(node, cmd.orelse)
        built = method_command(self.ctx.screen, self.classes[-1] if self.classes else None, cmd)
        if built is not None:  # s50: `self._args("has-session", "-t", s)`: the list the method returns, words passed
            return self._silent_command(node, built)
        built = builder_command(self.ctx.screen, self.names, self.ctx.path, self.classes[-1] if self.classes else None, cmd)
        if built is not None and self._silent_command(node, built):
            return True  # s57: `_tmux_argv("has-session", ...)`: the project's argv builder's program, the words passed
        subs = self._parameter_commands(cmd)
        if subs is not None:  # s42: `[command, pdf]`, `[self.executable, ...]`: each literal the parameter can hold
            return all(self._silent_command(node, c) for c in subs)
        if isinstance(cmd, (cst.List, cst.Tuple)) and len(cmd.elements) == 2 and not any(
            isinstance(e, cst.StarredElement) for e in cmd.elements
        ):
            flag = cmd.elements[1].value
            if isinstance(flag, cst.SimpleString) and self.knowledge.info_query(str(flag.evaluated_value)):
                return True
        if isinstance(cmd, (cst.List, cst.Tuple)) and len(cmd.elements) > 1 and attached(node) and not isinstance(
                cmd.elements[0], cst.StarredElement) and self.knowledge.sign_in_subcommand(
                command_words(rest := cmd.with_changes(elements=cmd.elements[1:]))[0] + later_flags(rest)):
            return True  # s46 (batch 18, rootsight): `[exe, "sso", "login"]` on the person's terminal: any CLI's sign-in
        if session_command(self.knowledge, node, cmd) is not None or self._built_session(node, cmd):
            return True  # s54 (issue 23): `kubectl exec -it POD -- bash`, `ssh host` on the person's terminal: their session
        words, whole = self._words_of(cmd)  # s43: TFH201's default reads a literal local program
        if self_bounding(self.knowledge, node, cmd, words):  # s50: `curl --max-time 30 url`: a deadline of its own
            return True
        if local_command(self.knowledge, node, cmd, words, whole, self.confirmed > 0):
            return True
        func = self.names.function  # s49: a command built in the code, nothing handed in choosing it, no network word
        return (not words and built_local_command(self.knowledge, cmd, func if isinstance(func, cst.FunctionDef) else None,
                                                  self.module, self.names.is_builtin, self.classes[-1] if self.classes else None,
                                                  self.ctx.screen.memo(("returned_words",), lambda: returned_words(self.ctx.screen.tree))))

    def _built_session(self, node: cst.Call, cmd: cst.BaseExpression) -> bool:
        """s54: a command built in the code (`[*self.ssh_base(), "-t", "--", line]`) whose literal words, read through the
        function's, module's and class's names and methods, open an interactive session on the person's terminal."""
        screen, func = self.ctx.screen, self.names.function
        words = literal_words(
            cmd, func if isinstance(func, cst.FunctionDef) else None, self.module, self.names.is_builtin,
            self.classes[-1] if self.classes else None, screen.memo(("returned_words",), lambda: returned_words(screen.tree)),
            screen.memo(("method_returned_words",), lambda: method_returned_words(screen.tree))) if attached(node) else []
        return bool(words) and self.knowledge.interactive_session([None if w.startswith("{") else w for w in words], False) is not None

    def _parameter_commands(self, cmd: cst.BaseExpression) -> list[cst.BaseExpression] | None:
        """The command with its program (or the whole command) as each literal a parameter naming it can hold
        (:func:`.params.parameter_commands`); None when the name is rebound in the function or not such a parameter."""
        func = self.names.function
        if not isinstance(func, cst.FunctionDef):
            return None
        if isinstance(cmd, (cst.List, cst.Tuple)) and len(cmd.elements) == 1 and isinstance(
                cmd.elements[0], cst.StarredElement) and isinstance(cmd.elements[0].value, cst.Name):
            cmd = cmd.elements[0].value  # s45: `create_subprocess_exec(*cmd, ...)`: the whole command, as `run(cmd)`
        forwarded = forwarded_commands(
            self.ctx.screen, func, self.classes[-1] if self.classes else None, cmd, self.names.is_builtin)
        if forwarded is not None:  # s42: `def git(cwd, *argv): run(["git", *argv])`: each call's literal sub-command
            return forwarded
        spread = forwarded_param(cmd, self.names.is_builtin)
        walked = self._loop_commands(cst.Name(spread[1])) if spread is not None else None
        if spread is not None and walked and all(isinstance(w, (cst.List, cst.Tuple)) for w in walked):
            # s44: `for label, args in (("head", ["rev-parse", "HEAD"]), ...): run([git, *args])`: each literal item
            prefix = [e.with_changes(comma=cst.MaybeSentinel.DEFAULT) for e in spread[0]]
            return [cst.List([*prefix, *(e.with_changes(comma=cst.MaybeSentinel.DEFAULT) for e in w.elements)])
                    for w in walked if isinstance(w, (cst.List, cst.Tuple))]
        head = program_expression(cmd)
        if isinstance(head, cst.Name):
            self._literal_binding(head.value)  # builds the scope's binding table
            if len(self.bindings.get(id(func), {}).get(head.value, [])) != 1:
                return None  # rebound in the function: not only the parameter
        return parameter_commands(self.ctx.screen, func, self.classes[-1] if self.classes else None, cmd, self.ctx.path)
