"""TFH201's model of a call's surroundings: what makes a call without a timeout fine or its fix
harmful. The kill-and-reap clean-up (``proc.kill()`` then ``proc.communicate()``, a helper or a
``threading.Timer`` doing the kill, a ``wait()`` after a ``while proc.poll() is None:`` loop), the
open deadlines (``asyncio.wait_for``, ``async with asyncio.timeout(...)``), the handlers around a
call, a process run in the foreground of a CLI command or a script, a CLI handing its exit code to
a child, a literal command read through a local name, and an HTTP request that runs an LLM
generation. ``TimeoutShapes`` is the rule's base (a command a person waits on or that ends at once:
:mod:`.silent`): it collects these as the traversal goes and
answers them for ``CallWithoutTimeout.visit_Call``."""

from __future__ import annotations

import libcst as cst

from ...linter.api import (
    FileContext,
    Rule,
    argument,
    dotted,
    foreground_only,
    inference_body,
    keyword_arg,
    last_name,
    summarise_callers,
    timeout_escapes_handler,
    walk_in_scope,
)
from .bounded import bounded_closure, bounded_module_function
from .foreground import argparse_handlers, job_command, on_terminal
from .killers import KILLS as _KILLS, calls_in as _calls_in, kills as _kills
from .killers import names_in as _names_in, statement_kills as _statement_kills
from .runner_params import REFUSAL as RUNNER_REFUSAL
from .process import POPEN_WAITS, PROCESS_RUNS
from .process import (caught_names, exec_argv, later_flags, command_words, segments, suppressed_names,
                      unguessed_program)
from .reaped import polled_in as _polled_in, receiver as _receiver
from .screen import exit_functions
from .silent import SilentCommands
from .watched import watched_wait
from .writes import http_write_refusal
from .wrapped_session import wrapped_session


_WAITS = ("communicate", "wait")
_RUNS = frozenset({"run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput"})
_EXITS = frozenset({"sys.exit", "os._exit"})
_ENV_READS = frozenset({"os.environ.get", "os.getenv", "os.environ.__getitem__"})




class TimeoutShapes(SilentCommands, Rule):
    """The state TFH201 keeps as the traversal goes and the shapes it asks about (see the module's docstring)."""

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        # open deadlines (asyncio.wait_for(...)'s arguments, `async with asyncio.timeout(...)` blocks)
        # per function: id of the def or lambda (0: module level). A nested function runs later,
        # so the deadline around its definition does not apply to it.
        self.deadlines: dict[int, int] = {}
        self.wrapper_calls: set[int] = set()
        self.scope_blocks: dict[int, int] = {}
        self.exempt: set[int] = set()
        self.try_handlers: dict[int, list[list[str]]] = {}  # id(call) -> caught names of the trys around it, outer first
        self.popen_argv: dict[str, list[str]] = {}  # name bound to subprocess.Popen(...) -> its argv words
        self.popen_calls: dict[str, cst.Call] = {}  # name bound to subprocess.Popen(...) -> that call
        # s44 (batch 17): name bound to `await asyncio.create_subprocess_exec(...)` -> that call and its positionals as a list
        self.exec_commands: dict[str, tuple[int, cst.Call, cst.List]] = {}  # with the id of the function it is in
        self.confirmed = 0  # open `if click.confirm(...):` blocks
        self.main_block = 0  # open `if __name__ == "__main__":` blocks
        self.classes: list[cst.ClassDef] = []
        self.confirm_ifs: set[int] = set()
        self.module: cst.Module | None = None
        self.worker_lambdas: set[int] = set()  # lambdas handed to run_in_executor / to_thread
        self.runner_calls: set[int] = set()  # s51: calls of a runner parameter defaulting to a process call
        self.bindings: dict[int, dict[str, list[cst.BaseExpression | None]]] = {}  # id(scope) -> name -> values
        self.bounded_closures: dict[int, bool] = {}  # id(def) -> every use of the closure runs under a deadline
        # s56: id(callee) -> (project class, attribute) for a client an instance of a class of another module holds
        self.held_owners: dict[int, tuple[str, str]] = {}

    def visit_Module(self, node: cst.Module) -> None:
        self.module = node

    def _function(self) -> int:
        func = self.names.function
        return id(func) if func is not None else 0

    def _open(self, n: int) -> None:
        key = self._function()
        self.deadlines[key] = self.deadlines.get(key, 0) + n

    def visit_With(self, node: cst.With) -> None:
        n = 0
        for item in node.items:
            expr = item.item
            if isinstance(expr, cst.Call) and self.names.qualname(expr.func) in self.knowledge.timeout_scopes:
                n += 1
        if n:
            self.scope_blocks[id(node)] = n
            self._open(n)
        suppressed = suppressed_names(self.names, node)  # `with suppress(CalledProcessError):` is a handler too
        if suppressed is not None:
            for c in _calls_in(node.body):
                self.try_handlers.setdefault(id(c), []).append(suppressed)

    def leave_With(self, node: cst.With) -> None:
        self._open(-self.scope_blocks.pop(id(node), 0))

    def visit_Try(self, node: cst.Try) -> None:
        caught = caught_names(self.names, node)
        if caught is None:
            return
        for n in _calls_in(node.body):
            self.try_handlers.setdefault(id(n), []).append(caught)

    def _caller_bounds(self) -> bool:
        """The innermost function is a closure every use of which runs under a deadline
        (``await asyncio.wait_for(_drain(), t)``), or a private module-level coroutine every use of which in
        the module does (:func:`.bounded.bounded_module_function`): the deadline cancels its awaits too."""
        func, parent = self.names.function, self.names.enclosing_function
        if not isinstance(func, cst.FunctionDef):
            return False
        if parent is None:  # s42: a private module-level coroutine its callers in the module run under a deadline
            return not self.classes and bounded_module_function(func, self.ctx.screen, self.knowledge)
        key = id(func)
        if key not in self.bounded_closures:
            self.bounded_closures[key] = bounded_closure(func, parent, self.names, self.knowledge)
        return self.bounded_closures[key]

    def _timeout_fix_refusal(self, node: cst.Call, qn: str) -> str | None:
        """Why adding a timeout here would hurt (the finding stays; the fix is not offered)."""
        last = qn.rsplit(".", 1)[-1]
        if id(node) in self.runner_calls:
            return RUNNER_REFUSAL
        if qn.startswith("docker."):
            return "how long the container may run is the caller's call"
        if qn.startswith("subprocess.Popen.") or last in _WAITS:
            return "a timeout on communicate()/wait() needs the kill-and-reap clean-up"
        if qn.startswith("subprocess.") and last in _RUNS:
            words, whole = self._command_words(node)
            segs = segments(node, words, whole)
            for seg in segs:
                given = argument(node, "args", 0)
                if self.knowledge.interactive_session(seg, False) is not None:  # s54: `kubectl exec -it` captured or not
                    return ("an interactive session (`-it`, `ssh -t`) is the person's terminal, which a timeout would end; "
                            "bound only a non-interactive command")
                if self.knowledge.interactive_sign_in(seg + later_flags(given.value if given is not None else None)):
                    # s46 (issue 28): no fix for a wait for a person
                    return ("an interactive sign-in waits for the person at its prompt or browser page; run it on their "
                            "terminal (nothing captured), or sign in non-interactively with a token")
                why = self.knowledge.process_fix_refusal(seg, whole)
                if why is not None:
                    return why
            program = unguessed_program(segs, self.knowledge, self.ctx.config.default_timeout_by_kind)
            if program is not None:
                return (f"how long `{program}` runs depends on its work, so no default is guessed: pass a timeout above "
                        "its longest healthy run, or set `default-timeout-seconds = {process = N}` for the fix to write N")
        if timeout_escapes_handler(qn, list(reversed(self.try_handlers.get(id(node), [])))):
            return "the timeout's exception would escape the handler around the call"
        if qn in self.knowledge.stream_calls:
            # s50 (batch 23, dejima-sdk): websocket-client keeps create_connection's timeout as the socket's for
            # the connection's life, so a written 30 s would end an idle stream at its next recv()
            return ("the timeout given when a stream opens stays the socket's for every later read, so an idle stream "
                    "would end; bound the handshake, or set the socket's timeout after it opens")
        if self._llm_request(node, qn):
            return "an LLM generation may run longer than any default; pass a bound above the longest generation you accept"
        if qn.startswith("requests.") and (held := wrapped_session(node, self.classes[-1] if self.classes else None)):
            # s48 (batch 20, python-substack): the class's wrapper fills a configured timeout; a literal would override it
            return (f"the class replaces `{held}.request` with a wrapper that fills its configured timeout; a literal "
                    "here would override it: give the object a timeout instead")
        return http_write_refusal(node, qn, self.names, self.knowledge, self._literal_binding)

    def _llm_request(self, node: cst.Call, qn: str) -> bool:
        """An HTTP request that runs an LLM generation: from an LLM integration's module (``llms/``,
        ``chat_models/``), a class deriving from ``...LLM``/``...ChatModel``, or with a ``messages``/``prompt`` body."""
        if qn.split(".")[0] not in ("requests", "httpx", "aiohttp", "urllib", "http"):
            return False
        k = self.knowledge
        if k.llm_inference_module(self.ctx.path):
            return True
        for cls in self.classes:
            if any((last_name(b.value) or "").endswith(k.llm_inference_base_suffixes) for b in cls.bases):
                return True
        return inference_body(node, k.llm_inference_body_keys, self.names.function)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.classes.pop()

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        killed: str | None = None
        for stmt in node.body.body:
            smalls = stmt.body if isinstance(stmt, cst.SimpleStatementLine) else [None]
            for small in smalls:
                value = getattr(small, "value", None)
                if isinstance(value, cst.Await):
                    value = value.expression
                if killed is not None and isinstance(value, cst.Call):
                    f = value.func
                    if (
                        isinstance(f, cst.Attribute)
                        and f.attr.value in _WAITS
                        and _receiver(f.value) == killed
                    ):
                        self.exempt.add(id(value))
                killed = None
                if isinstance(small, cst.Expr) and isinstance(value, cst.Call):
                    f = value.func
                    if isinstance(f, cst.Attribute) and f.attr.value in _KILLS:
                        killed = _receiver(f.value)

    def _command(self, node: cst.Call) -> cst.BaseExpression | None:
        arg = argument(node, "args", 0)
        return arg.value if arg is not None else None

    def _command_words(self, node: cst.Call) -> tuple[list[str], bool]:
        """The command's literal words (a local name assigned one literal command is read through)."""
        cmd = self._command(node)
        return self._words_of(cmd) if cmd is not None else ([], False)

    def _literal_bindings(self, name: str) -> list[cst.BaseExpression]:  # each value bound; [] if one is no plain assignment
        self._literal_binding(name)  # builds the scope's binding table
        values = self.bindings.get(id(self.names.function or self.module), {}).get(name, [])
        return [] if any(v is None for v in values) else [v for v in values if v is not None]

    def _literal_binding(self, name: str) -> cst.BaseExpression | None:
        """The one value a name is bound to in the enclosing function (or module), when it is bound
        once and never changed in place (``cmd += [...]``, ``cmd.insert(...)``); else None."""
        func = self.names.function
        scope: cst.CSTNode | None = func if func is not None else self.module
        if scope is None:
            return None
        table = self.bindings.get(id(scope))
        if table is None:
            table = {}
            for n in walk_in_scope(scope):
                if isinstance(n, cst.Assign):
                    for t in n.targets:
                        if isinstance(t.target, cst.Name):
                            table.setdefault(t.target.value, []).append(n.value if len(n.targets) == 1 else None)
                elif isinstance(n, cst.AnnAssign) and n.value is None:
                    continue  # `cmd: List[str]` alone declares, binds nothing (s47, spidy-agent)
                elif isinstance(n, (cst.AugAssign, cst.AnnAssign)) and isinstance(n.target, cst.Name):
                    table.setdefault(n.target.value, []).append(n.value if isinstance(n, cst.AnnAssign) else None)
                elif isinstance(n, (cst.For, cst.CompFor)) and isinstance(n.target, cst.Name):
                    table.setdefault(n.target.value, []).append(None)
                elif isinstance(n, cst.Param):
                    table.setdefault(n.name.value, []).append(None)
                elif (
                    isinstance(n, cst.Call)
                    and isinstance(n.func, cst.Attribute)
                    and isinstance(n.func.value, cst.Name)
                    and n.func.attr.value in ("insert", "clear", "pop", "remove", "reverse", "sort")
                ):
                    table.setdefault(n.func.value.value, []).append(None)
            self.bindings[id(scope)] = table
        values = table.get(name, [])
        return values[0] if len(values) == 1 else None

    def _popen_bind(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name) and isinstance(value, cst.Call) and self.names.qualname(value.func) == "subprocess.Popen":
            self.popen_argv[target.value] = self._command_words(value)[0]
            self.popen_calls[target.value] = value
            self.exec_commands.pop(target.value, None)
        elif isinstance(target, cst.Name) and isinstance(value, cst.Await) and isinstance(value.expression, cst.Call):
            # s36: `proc = await asyncio.create_subprocess_exec("git", "--version", ...)`: its argv is its positionals
            call = value.expression
            if self.names.qualname(call.func) == "asyncio.create_subprocess_exec":
                argv = cst.List([cst.Element(a.value) for a in call.args if a.keyword is None and not a.star])
                self.popen_argv[target.value] = command_words(argv)[0]
                self.exec_commands[target.value] = (id(self.names.function), call, exec_argv(call))

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1:
            self._popen_bind(node.targets[0].target, node.value)
            if (waited := watched_wait(self.names, node.targets[0].target, node.value, lambda c: _kills(c, self.ctx.screen))) is not None:
                self.exempt.add(waited)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._popen_bind(node.asname.name, node.item)

    @staticmethod
    def _is_main_test(test: cst.BaseExpression) -> bool:
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
            return False
        sides = {dotted(test.left), dotted(test.comparisons[0].comparator)}
        strings = [x for x in (test.left, test.comparisons[0].comparator) if isinstance(x, cst.SimpleString)]
        return "__name__" in sides and any(x.evaluated_value == "__main__" for x in strings)

    def visit_If(self, node: cst.If) -> None:
        if self.names.function is None and self._is_main_test(node.test):
            self.main_block += 1
        for sub in _calls_in(node.test):
            f = sub.func
            last = last_name(f) or ""
            if last in self.knowledge.interactive_confirms:
                self.confirm_ifs.add(id(node))
                self.confirmed += 1
                return

    def leave_If(self, original_node: cst.If) -> None:
        if self.names.function is None and self._is_main_test(original_node.test):
            self.main_block -= 1
        if id(original_node) in self.confirm_ifs:
            self.confirm_ifs.discard(id(original_node))
            self.confirmed -= 1

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        # `while proc.poll() is None: ... kill at the deadline ...` then `proc.wait()`: the wait reaps
        # a process that has exited or was killed; it cannot block
        body = node.body
        for i, stmt in enumerate(body[:-1]):
            if not isinstance(stmt, cst.While):
                continue
            polled = _polled_in(stmt.test)  # s48: also `while proc.returncode is None:`
            nxt = body[i + 1]
            if polled and isinstance(nxt, cst.SimpleStatementLine):
                for small in nxt.body:
                    value = getattr(small, "value", None)
                    if isinstance(value, cst.Await):  # s48: `await proc.wait()` after an asyncio process's loop
                        value = value.expression
                    if (
                        isinstance(value, cst.Call)
                        and isinstance(value.func, cst.Attribute)
                        and value.func.attr.value in _WAITS
                        and isinstance(value.func.value, cst.Name)
                        and value.func.value.value in polled
                    ):
                        self.exempt.add(id(value))
        # a kill, direct or done by a helper (`_kill(proc)`, `os.killpg(proc.pid, ...)`, a
        # `threading.Timer(t, proc.kill)` started before; s44: a module function that kills the parameter it is
        # handed), then `proc.wait()`/`communicate()` later in the same block: the wait reaps a killed process (or
        # one the timer will kill)
        # `result = subprocess.run(...)` then `sys.exit(result.returncode)`: a CLI handing the terminal
        # to a foreground child (a dev server, a test run, an inspector) the person stops
        runs: dict[str, cst.Call] = {}
        calls = [_calls_in(stmt) for stmt in body]  # s53: each statement's calls walked once, for both reads below
        for stmt, stmt_calls in zip(body, calls):
            for c in stmt_calls:
                if self._exits(c):
                    for name in _names_in(c):
                        if name in runs:
                            self.exempt.add(id(runs.pop(name)))
                    for arg in c.args:  # sys.exit(subprocess.call([...])), sys.exit(child.wait())
                        v = arg.value
                        if isinstance(v, cst.Call) and (
                            self._ahead_qualname(v.func, PROCESS_RUNS) in PROCESS_RUNS
                            or (isinstance(v.func, cst.Attribute) and v.func.attr.value == "wait" and not v.args)
                        ):
                            self.exempt.add(id(v))
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if (
                        isinstance(small, cst.Assign)
                        and len(small.targets) == 1
                        and isinstance(small.targets[0].target, cst.Name)
                        and isinstance(small.value, cst.Call)
                        and self._ahead_qualname(small.value.func, PROCESS_RUNS) in PROCESS_RUNS
                    ):
                        runs[small.targets[0].target.value] = small.value
        # s53: a statement's kills are read only when a later statement of the block waits (most blocks: none)
        last_wait = max((i for i, cs in enumerate(calls)
                         if any(isinstance(c.func, cst.Attribute) and c.func.attr.value in _WAITS for c in cs)), default=0)
        killed: set[str] = set()
        for i, stmt in enumerate(body[:last_wait + 1]):
            for c in reversed(calls[i]):  # source order
                f = c.func
                if (
                    killed
                    and isinstance(f, cst.Attribute)
                    and f.attr.value in _WAITS
                    and _receiver(f.value) in killed
                ):
                    self.exempt.add(id(c))
            if i < last_wait:
                killed |= _statement_kills(stmt, self.ctx.screen)

    def visit_Return(self, node: cst.Return) -> None:
        """``return await child.wait()`` (``return subprocess.call(...)``, ``return subprocess.run(...).returncode``)
        in a function whose result becomes the program's exit code (``raise SystemExit(main())``, through
        ``return asyncio.run(worker())``): a worker handing its exit code to the child it runs."""
        value = node.value
        if isinstance(value, cst.Await):
            value = value.expression
        if isinstance(value, cst.Attribute) and value.attr.value == "returncode":
            value = value.value
        func = self.names.function
        if (
            not isinstance(value, cst.Call)
            or not isinstance(func, cst.FunctionDef)
            or self.module is None
            or not any(stmt is func for stmt in self.module.body)
            or func.name.value not in exit_functions(self.ctx.screen)
        ):
            return
        f = value.func
        if (isinstance(f, cst.Attribute) and f.attr.value == "wait" and not value.args) or (
            self._ahead_qualname(f, PROCESS_RUNS) in PROCESS_RUNS
        ):
            self.exempt.add(id(value))

    def _ahead_qualname(self, func: cst.BaseExpression, wanted: frozenset[str] | None = None) -> str | None:
        """A callee's qualified name read ahead of the traversal: also through an ``import x`` of the
        enclosing function that the traversal has not reached yet. With ``wanted``, the caller only asks
        whether the name is one of those: the function's imports are read only for such a name."""
        qn = self.names.qualname(func)
        if qn is not None:
            return qn
        text = dotted(func)
        scope = self.names.function
        if text is None or "." not in text or scope is None or (wanted is not None and text not in wanted):
            return None
        root = text.split(".")[0]
        for n in walk_in_scope(scope):
            if isinstance(n, cst.Import) and any(dotted(a.name) == root and a.asname is None for a in n.names):
                return text
        return None

    def _exits(self, call: cst.Call) -> bool:
        qn = self._ahead_qualname(call.func, _EXITS)
        if qn in _EXITS:
            return True
        return isinstance(call.func, cst.Name) and call.func.value in ("exit", "quit", "SystemExit") and self.names.is_builtin(call.func.value)

    def _cli_decorator(self, dec: cst.BaseExpression) -> bool:
        """``@app.command()`` (typer, cyclopts), ``@click.command()``, ``@cli.command()`` on a click group
        of this module: a command a person runs from their terminal."""
        target = dec.func if isinstance(dec, cst.Call) else dec
        ref = self.names.qualify(target)
        if ref is not None:
            parts = ref[0].split(".")
            if parts[0] in self.knowledge.cli_frameworks and parts[-1] in self.knowledge.cli_decorator_words:
                return True
        if (
            isinstance(target, cst.Attribute)
            and target.attr.value in self.knowledge.cli_decorator_words
            and isinstance(target.value, cst.Name)
            and self.module is not None
        ):
            group = target.value.value  # `@cli.command()` where `@click.group() def cli(): ...`
            return any(
                isinstance(stmt, cst.FunctionDef) and stmt.name.value == group and any(self._cli_decorator(d.decorator) for d in stmt.decorators)
                for stmt in self.module.body
            )
        return False

    def _foreground_cli_process(self, node: cst.Call, qn: str) -> bool:
        """A process a CLI command runs in the foreground: its output goes to the person's terminal
        (nothing captured) and the person stops it (Ctrl-C) when it runs too long."""
        call: cst.Call | None = node  # s39: or `with subprocess.Popen(cmd) as p: p.wait()`, a foreground server
        if qn in POPEN_WAITS and isinstance(node.func, cst.Attribute) \
                and isinstance(node.func.value, cst.Name):
            call = self.popen_calls.get(node.func.value.value)
        elif qn not in PROCESS_RUNS:
            return False
        if call is None:
            return False
        # s50 (the lead's decision): a long job the person asked for (an install, self-upgrade, build, test run) in the
        # foreground, captured or not; any other process only on their terminal (s50: also `stdout=sys.stderr`)
        job = job_command(self.knowledge, call, *self._command_words(call))
        if not job and (qn in ("subprocess.check_output", "subprocess.Popen.communicate") or not on_terminal(self.names, call)):
            return False
        func = self.names.function
        if func is None:
            return self.main_block > 0  # `if __name__ == "__main__":` of a script a person runs
        if not isinstance(func, cst.FunctionDef):
            return False
        if (job and self.confirmed > 0) or any(self._cli_decorator(d.decorator) for d in func.decorators) or (
                self.module is not None and any(stmt is func for stmt in self.module.body) and func.name.value in argparse_handlers(self.ctx.screen)):
            return True  # s50: `sub.set_defaults(func=cmd_doctor)`: an argparse sub-command's handler
        # a script's `main()` that reads its own command line (`args = parser.parse_args()`)
        return any(
            isinstance(c.func, cst.Attribute) and c.func.attr.value in ("parse_args", "parse_known_args")
            for c in _calls_in(func.body)
        ) or self.ctx.screen.memo(("foreground_only", func.name.value), lambda: foreground_only(  # s51: a helper
            self.ctx.path, func.name.value, lambda: self.ctx.screen.memo(  # only commands call (across the modules)
                ("foreground_callers",), lambda: summarise_callers(self.ctx.screen.tree))))

    def _unbounded_is_fine(self, node: cst.Call) -> bool:
        """A call with no timeout parameter that cannot stall: it returns at once (``detach=True``),
        runs a literal instant command, or runs in a worker thread the caller awaits."""
        detach = keyword_arg(node, "detach")
        if detach is not None and isinstance(detach.value, cst.Name) and detach.value.value == "True":
            return True
        func = self.names.function
        if func is not None and id(func) in self.worker_lambdas:
            return True
        arg = argument(node, "cmd", 0)
        if arg is None:
            return False
        cmd = arg.value
        if isinstance(cmd, cst.Name):
            cmd = self._literal_binding(cmd.value) or cmd
        return self.knowledge.local_program(*command_words(cmd)) is not None  # interactive or local (s43)
