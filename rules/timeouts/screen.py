"""The screen of the timeout rules (TFH201, TFH202): which calls of a file they look at.

Built on :class:`~smullyan.linter.api.Screen`'s generic facts and on
``Knowledge``'s timeout tables. A new rule about timeouts can reuse
:func:`timeout_calls`; any other rule asks ``Screen.calls_of``.
"""

from __future__ import annotations

import ast
from typing import Callable, Mapping

from ...linter.api import Knowledge, Screen, attribute_names, canonical, held_attributes, last_name


def imported_locals_by_root(screen: Screen) -> dict[str, frozenset[str]]:
    """Top-level module -> the local names its imports bind (``send`` for ``from requests import post as send``)."""

    def build() -> dict[str, frozenset[str]]:
        out: dict[str, set[str]] = {}
        for local, full in screen.import_bindings:
            out.setdefault(full.split(".")[0], set()).add(local)
        # an optional import, ``importlib.import_module("redis")``: the module it names is imported too; so is
        # the module a call of the file's own helper names (``optional_import("redis")``, a function that
        # calls ``import_module``/``__import__``: s41, issue 23 D4; the resolver checks the helper)
        importers = {"import_module", "__import__"}
        if importers & screen.call_names:
            importers |= {n.name for n in screen.defs if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}  # s53: no walk
            for call in screen.calls:
                if last_name(call.func) in importers and call.args and isinstance(call.args[0], ast.Constant):
                    name = call.args[0].value
                    if isinstance(name, str) and name:
                        out.setdefault(name.split(".")[0], set())
        return {k: frozenset(v) for k, v in out.items()}

    return screen.memo("timeouts.imported_locals_by_root", build)


def calls_any(screen: Screen, relevant: Mapping[str, frozenset[str]]) -> bool:
    """Whether, for some imported module, a call names something relevant to it."""
    calls = screen.call_names
    for root, local_names in imported_locals_by_root(screen).items():
        names = relevant.get(root)
        if names is not None and (calls & names or calls & local_names):
            return True
    return False


def calls_to(
    screen: Screen, relevant: Mapping[str, frozenset[str]], qualified: Callable[[str], bool] | None = None
) -> list[ast.Call]:
    """Calls whose last name is relevant to an imported module (``post`` once ``requests`` is imported).

    A bare call of a name an import binds (``send(...)`` after ``from
    requests import post as send``) counts when the import's qualified name
    passes ``qualified`` (every such name when it is None).
    """
    wanted: set[str] = set()
    for root in imported_locals_by_root(screen):
        names = relevant.get(root)
        if names is not None:
            wanted |= names
    for local, full in screen.import_bindings:
        if full.split(".")[0] in relevant and (qualified is None or qualified(full)):
            wanted.add(local)
    return [call for call in screen.calls if last_name(call.func) in wanted or _forwards(call, wanted)]


def _forwards(call: ast.Call, wanted: set[str]) -> bool:
    """``asyncio.to_thread(subprocess.run, ...)``: a worker-thread call handing its arguments to a wanted function."""
    return last_name(call.func) == "to_thread" and bool(call.args) and last_name(call.args[0]) in wanted


def timeout_calls(screen: Screen, knowledge: Knowledge, kind: str) -> list[ast.Call]:
    """The calls the timeout rules look at: TFH201 (``kind="missing"``) or TFH202 (``"none"``).

    Empty when the file-level screen (:func:`calls_any` on
    ``Knowledge.screen_names``) rules the file out; else every call of a
    known function, class, factory or method (``Knowledge.spot_names``), bare
    calls counting only through an import of a known name.
    """
    family = family_calls(screen, knowledge) + held_calls(screen, knowledge) if kind == "missing" else []
    if not calls_any(screen, knowledge.screen_names(kind)) and (kind != "missing" or "to_thread" not in screen.call_names):
        return family
    qualified = knowledge.spot_imports(kind)
    return calls_to(screen, knowledge.spot_names(kind), lambda q: canonical(q) in qualified) + family


def held_calls(screen: Screen, knowledge: Knowledge) -> list[ast.Call]:
    """s54: in a module importing a class of its own project (``from chainedci.http_adapter import Http``), the
    calls of a client method on an attribute (``Http().session.post(...)``, ``x.session.get(...)``): the resolver
    reads what the class holds there (``linter/imports_members.py``), though the module imports no client; in a
    module defining classes, such calls on an instance built in place (``Http().session.post(...)``). s55: only where
    a class of a module importing a client binds the attribute (this module's, or the module a project name comes from)."""

    def build() -> list[ast.Call]:
        top = (screen.package or "").split(".")[0]
        imports_class = bool(top) and any(
            full.split(".")[0] == top and local[:1].isupper() for local, full in screen.import_bindings)
        body = screen.tree.body if isinstance(screen.tree, ast.Module) else []
        local = {d.name for d in body if isinstance(d, ast.ClassDef)}  # `Http().session.post(...)`, `class Http` here
        if not imports_class and not local:
            return []
        methods = {q.rsplit(".", 1)[1] for q in knowledge.timeouts if q.split(".")[-2][:1].isupper()}
        # s56: an SDK family's request too (`config.K8S_CORE_API.read_namespaced_pod(...)` in a module importing only
        # the project's `ClientConfiguration`; batch 28's gefyra), named as family_calls names them, on an instance
        # of a project class (not `self`: a module defining the class imports the family, family_calls keeps it)
        verbs = frozenset().union(*(f.verbs for f in knowledge.api_families))
        # the call, its holder (`x`), the attribute (`session`), whether the holder is built in place from a class of
        # this module (`Http().session`)
        shaped: list[tuple[ast.Call, ast.expr, str, bool]] = []
        family: list[tuple[ast.Call, ast.expr, str]] = []  # named only like a family's request (`read_namespaced_pod`)
        for c in screen.calls:
            if not isinstance(c.func, ast.Attribute) or not isinstance(c.func.value, ast.Attribute):
                continue
            holder = c.func.value.value
            if c.func.attr in methods:
                built = isinstance(holder, ast.Call) and isinstance(holder.func, ast.Name) and holder.func.id in local
                shaped.append((c, holder, c.func.value.attr, built))
            elif "_" in c.func.attr and c.func.attr.split("_", 1)[0] in verbs and imports_class \
                    and not (isinstance(holder, ast.Name) and holder.id in ("self", "cls")):
                family.append((c, holder, c.func.value.attr))
        if family and not knowledge.clients:
            # kept only under an attribute a class of a project module importing the family's package binds
            roots = {m.split(".")[0] for f in knowledge.api_families for m in f.modules}
            held = _project_held(screen, knowledge, top, lambda full: full.split(".")[0] in roots)
            shaped.extend((c, holder, attr, False) for c, holder, attr in family if attr in held)
        if not shaped:
            return []
        # s55 (the speed regression of s54): what an instance's attribute holds is qualified by the imports of the
        # module of its class (`imported_member`), so a client can be held only under an attribute name a class
        # of a module importing a client binds: this module's own classes (`self.<attr>`, `Http().<attr>`) or
        # those of the project module a name it imports comes from (`held_attributes`)
        if knowledge.clients:  # a project's configured holders: as s54 kept them
            return [c for c, _, _, built in shaped if imports_class or built]
        accepts = client_import(knowledge)
        here = any(accepts(full) for _, full in screen.import_bindings)
        own = attribute_names(screen.tree) if here else frozenset()
        there: set[str] | None = None
        out: list[ast.Call] = []
        for c, holder, attr, built in shaped:
            if built:
                keep = attr in own  # `Http().session`, a class of this module
            elif not imports_class:
                keep = False
            elif isinstance(holder, ast.Name) and holder.id in ("self", "cls"):
                keep = attr in own
            else:
                if there is None:
                    there = _project_held(screen, knowledge, top)
                keep = attr in own or attr in there
            if keep:
                out.append(c)
        return out

    return screen.memo("timeouts.held_calls", build)


def _project_held(screen: Screen, knowledge: Knowledge, top: str,
                  accepts: Callable[[str], bool] | None = None) -> set[str]:
    """s55: the attribute names under which an instance of a class of a project module this module imports from
    (that module importing a client the timeout tables answer; s56: or what ``accepts`` accepts) may hold one
    (:func:`held_attributes`)."""
    out: set[str] = set()
    if screen.path is None:
        return out  # the resolver follows nothing without a path
    path = screen.path
    accepts = accepts or client_import(knowledge)
    for _, full in screen.import_bindings:
        if full.split(".")[0] == top:
            out |= held_attributes(path, full, accepts)
    return out


def client_import(knowledge: Knowledge) -> Callable[[str], bool]:
    """Whether an import (``import m`` as ``m``, ``from m import a`` as ``m.a``) can bring into a module a client whose
    methods the timeout tables answer: it names such a class, what builds or spells it, an SDK family's module, a
    package above one (``requests``, ``kubernetes.client``, ``httpx.AsyncClient``, ``requests.sessions.Session``), or
    something inside one; not ``asyncio`` nor ``openai.types.responses.ResponseInputItem``."""

    def build() -> Callable[[str], bool]:
        # the classes whose methods `timeout_for` answers (`requests.Session`), what builds or spells them
        # (`requests.session`, `requests.sessions.Session`), the SDK families' modules (`kubernetes.client`)
        names = {q.rsplit(".", 1)[0] for q in knowledge.timeouts if q.split(".")[-2][:1].isupper()}
        names.update([f for f, c in knowledge.factories.items() if c in names]
                     + [a for a, c in knowledge.aliases.items() if c in names or any(n.startswith(c + ".") for n in names)]
                     + [m for f in knowledge.api_families for m in f.modules])
        above = {".".join(n.split(".")[:i]) for n in names for i in range(1, n.count(".") + 1)}

        def accepts(full: str) -> bool:
            full = full.removesuffix(".*")  # `from requests import *`
            if full in names or full in above:
                return True
            parts = full.split(".")
            return any(".".join(parts[:i]) in names for i in range(1, len(parts)))

        return accepts

    return knowledge.memo(("timeouts", "client_import"), build)


def family_calls(screen: Screen, knowledge: Knowledge) -> list[ast.Call]:
    """s52: in a module importing a package of ``knowledge.api_families`` (``kubernetes``), the method calls named
    like one of the family's requests (``x.list_namespaced_pod(...)``: its first word one of the family's verbs) or
    one of ``knowledge.sdk_call_timeouts`` (``w.stream(...)``, ``psycopg2.connect(...)``, also a bare call of an import
    of one); the resolver decides what ``x`` is."""

    def build() -> list[ast.Call]:
        roots = {m.split(".")[0] for f in knowledge.api_families for m in f.modules}
        roots |= {q.split(".")[0] for q in knowledge.sdk_call_timeouts}
        if not any(full.split(".")[0] in roots for _, full in screen.import_bindings):
            return []
        verbs = frozenset().union(*(f.verbs for f in knowledge.api_families))
        lasts = {q.rsplit(".", 1)[1] for q in knowledge.sdk_call_timeouts}
        bare = {local for local, full in screen.import_bindings if canonical(full) in knowledge.sdk_call_timeouts}
        return [
            c for c in screen.calls
            if (isinstance(c.func, ast.Attribute) and (c.func.attr.split("_", 1)[0] in verbs or c.func.attr in lasts))
            or (isinstance(c.func, ast.Name) and c.func.id in bare)
        ]

    return screen.memo("timeouts.family_calls", build)


def _client_class_names(knowledge: Knowledge) -> set[str]:
    """The last names of the client classes the timeout tables know (``Session``, ``AsyncClient``)."""
    classes = {q.rsplit(".", 1)[-1] for q in knowledge.factories.values()}
    for q in knowledge.timeouts:
        classes.update(p for p in q.split(".")[-2:] if p[:1].isupper())
    return classes


def _names_a_class(annotation: ast.expr, classes: set[str]) -> bool:
    """Whether an annotation (a string one too: ``"requests.Session | None"``) names one of ``classes``."""
    for n in ast.walk(annotation):
        text = n.attr if isinstance(n, ast.Attribute) else n.id if isinstance(n, ast.Name) else None
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            text = n.value.replace("|", ".").replace("[", ".").replace("]", "").replace(" ", "")
        if text is not None and classes & set(text.split(".")):
            return True
    return False


def helper_lines(screen: Screen, knowledge: Knowledge) -> list[int]:
    """Lines of the functions whose return annotation names a client class the timeout tables know
    (``def _session(self) -> requests.Session``, a ``@property`` too): the resolver reads what
    ``self._session().get(...)`` is from them, so narrowing must keep them. So are the module's own import
    helpers (a function calling ``import_module``/``__import__``: ``optional_import("redis")``, s41 D4)."""

    def build() -> list[int]:
        classes = _client_class_names(knowledge)
        importers = {"import_module", "__import__"} & screen.call_names
        suffixes = _family_suffixes(screen, knowledge)
        out: list[int] = []
        stack: list[ast.AST] = [screen.tree]
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
                if _names_a_class(node.returns, classes):
                    out.append(node.lineno)
            if suffixes and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _builds_family(node, suffixes):
                out.append(node.lineno)
            if importers and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                isinstance(n, ast.Call) and last_name(n.func) in importers for n in ast.walk(node)
            ):
                out.append(node.lineno)
            if isinstance(node, ast.ClassDef):
                out.extend(_factory_lines(node))
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                stack.extend(n for n in node.body if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)))
        return out

    return screen.memo("timeouts.helper_lines", build)


def _factory_lines(cls: ast.ClassDef) -> list[int]:
    """s56 (issue 23): a class's factory methods (``@classmethod def from_context(cls, ...): ... return cls(api,
    client.CoreV1Api(api))``): what they build into the constructor is what ``__init__`` stores on ``self``
    (``names_members._constructed``), so narrowing must keep them whole; only a factory handing the constructor an
    object built in place (a call among its arguments, also inside one: ``core_api_override or
    kubernetes.client.CoreV1Api(...)``, batch 29's dagster-k8s)."""
    out: list[int] = []
    for fn in cls.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or not any(
                isinstance(d, ast.Name) and d.id in ("classmethod", "staticmethod") for d in fn.decorator_list):
            continue
        if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("cls", cls.name)
               and any(isinstance(b, ast.Call) for a in (*n.args, *(k.value for k in n.keywords)) for b in ast.walk(a))
               for n in ast.walk(fn)):
            out.append(fn.lineno)
    return out


def _family_suffixes(screen: Screen, knowledge: Knowledge) -> tuple[str, ...]:
    """s54 (issue 23): the class suffixes (``Api``) of the SDK families whose package the module imports."""
    roots = {full.split(".")[0] for _, full in screen.import_bindings}
    return tuple({f.class_suffix for f in knowledge.api_families if any(m.split(".")[0] in roots for m in f.modules)})


def _family_class(node: ast.expr | None, suffixes: tuple[str, ...]) -> bool:
    """Whether ``node`` names (``client.CoreV1Api``, ``"CoreV1Api | None"``) or builds (``client.BatchV1Api(api)``) a
    class named like an SDK family's (``*Api``); the resolver decides whether it is one."""
    if isinstance(node, ast.Call):
        node = node.func
    for n in ast.walk(node) if node is not None else ():
        text = n.attr if isinstance(n, ast.Attribute) else n.id if isinstance(n, ast.Name) else None
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            text = n.value.replace("|", ".").replace("[", ".").replace("]", "").replace(" ", "").rsplit(".", 1)[-1]
        if text and text[:1].isupper() and text.endswith(suffixes):
            return True
    return False


def _builds_family(fn: ast.FunctionDef | ast.AsyncFunctionDef, suffixes: tuple[str, ...]) -> bool:
    """s54 (issue 23; batch 27's seekr-chain and samco-job-lifecycle, batch 24's k8s-agent-sandbox): a property or
    method whose return annotation names an SDK family's class, or a ``return`` of which builds one
    (``@property def core(self) -> CoreV1Api``, ``return client.BatchV1Api()``): the resolver reads what
    ``self.core.list_namespaced_pod(...)`` or ``self._batch`` (``= api or self._connect()``) is from it, so narrowing
    must keep it whole (a stub drops ``@property`` and an unannotated return)."""
    if _family_class(fn.returns, suffixes):
        return True
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Call) and _family_class(node.value, suffixes):
            return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def field_lines(screen: Screen, knowledge: Knowledge) -> list[int]:
    """Lines of the class-level fields that say what ``self.<field>`` holds, when it is a client class the
    timeout tables know (``_session: requests.Session = PrivateAttr(...)``) or another class of the module
    (``toolset: MyToolset``): the resolver reads ``self.toolset._session.get(...)`` through them, so
    narrowing must keep them (and the classes that declare them)."""

    def build() -> list[int]:
        body = screen.tree.body if isinstance(screen.tree, ast.Module) else []
        defs = [d for d in body if isinstance(d, ast.ClassDef)]
        classes = _client_class_names(knowledge) | {d.name for d in defs}
        return [
            stmt.lineno
            for cls in defs
            for stmt in cls.body
            if isinstance(stmt, ast.AnnAssign) and _names_a_class(stmt.annotation, classes)
        ]

    return screen.memo("timeouts.field_lines", build)


def group_lines(screen: Screen) -> list[int]:
    """Lines of the module's CLI groups (``@click.group() def cli``): ``@cli.command()`` reads its decorator."""
    body = screen.tree.body if isinstance(screen.tree, ast.Module) else []
    return [
        d.lineno
        for d in body
        if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute) and x.func.attr == "group" for x in d.decorator_list)
    ]


_EXIT_CALLS = frozenset({"sys.exit", "os._exit"})
_EXIT_BUILTINS = frozenset({"exit", "quit", "SystemExit"})
_LOOP_RUNNERS = frozenset({"asyncio.run", "anyio.run", "trio.run"})


def exit_functions(screen: Screen) -> frozenset[str]:
    """The module-level functions whose return value becomes the program's exit code: ``f`` in
    ``sys.exit(f())``/``raise SystemExit(f())``, and what such a function returns from
    (``return g(...)``, ``return await g(...)``, ``return asyncio.run(g(...))``, ``anyio.run(g)``).
    Read from the whole module (a narrowed parse may hold only the last function of the chain)."""

    def build() -> frozenset[str]:
        tree = screen.tree
        body = tree.body if isinstance(tree, ast.Module) else []
        defs = {d.name: d for d in body if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))}
        if not defs:
            return frozenset()
        imports: dict[str, set[str]] = {}
        for local, full in screen.import_bindings:
            imports.setdefault(local, set()).add(full)

        def qualified(func: ast.expr) -> set[str]:
            if isinstance(func, ast.Name):
                if func.id in imports:
                    return imports[func.id]
                return {func.id} if func.id in _EXIT_BUILTINS and func.id not in defs else set()
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                return {f"{m}.{func.attr}" for m in imports.get(func.value.id, ())}
            return set()

        def callee(value: ast.expr | None) -> str | None:
            """The module function whose result ``value`` is (through an await or an event-loop runner; a loop, not
            a call of itself: a nested function that calls itself is a cycle for the cycle collector)."""
            while True:
                if isinstance(value, ast.Await):
                    value = value.value
                if not isinstance(value, ast.Call):
                    return None
                if isinstance(value.func, ast.Name) and value.func.id in defs and value.func.id not in imports:
                    return value.func.id
                if not (qualified(value.func) & _LOOP_RUNNERS and value.args):
                    return None
                first = value.args[0]
                if isinstance(first, ast.Name) and first.id in defs:  # anyio.run(main)
                    return first.id
                value = first

        found: set[str] = set()
        for call in screen.calls:
            if call.args and qualified(call.func) & (_EXIT_CALLS | _EXIT_BUILTINS):
                name = callee(call.args[0])
                if name is not None:
                    found.add(name)
        todo = list(found)
        while todo:
            fn = defs[todo.pop()]
            stack: list[ast.AST] = list(fn.body)
            while stack:
                node = stack.pop()
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                    continue
                if isinstance(node, ast.Return):
                    name = callee(node.value)
                    if name is not None and name not in found:
                        found.add(name)
                        todo.append(name)
                stack.extend(ast.iter_child_nodes(node))
        return frozenset(found)

    return screen.memo("timeouts.exit_functions", build)
