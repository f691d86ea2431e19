"""TFH402's scope: whether a ``try`` body reads from outside the machine (a network service, a database, an RPC).

:func:`remote_evidence` answers per call, from positive evidence only: the call is what the timeout and
effect tables know as a network call (an HTTP client's method, a known SDK call, a configured
``timeout-required``/``classify`` name), a call into a network module (``requests``, ``redis``, ``boto3``...),
a method that sends (``urlopen``, ``send_message``), a method of an object named like a client, a
connection, a database, an index, a bucket... (``self.client.get(k)``), or a method of an object built from
or annotated with a third-party class named so (``Pinecone().Index("docs")``, ``c: Container``).

What reaches outside the process but stays on the machine is not a remote read: file I/O (``open``,
``Path.read_text``, ``os.stat``, ``shutil``), a local process (``subprocess``, ``asyncio``'s subprocesses,
``git rev-parse`` with a timeout), an embedded database file (``sqlite3``); nor is a call into a third-party
package with no such evidence (a converter, a parser, a model's in-memory state), nor an ``await`` alone
(an awaited callable is as often a local coroutine). On the read code of batches 1-5, every ``None``/``[]``
fallback after such local work was the documented answer ("no config file", "not a repository", "usage
unknown"), and every true finding had a network or database client in its ``try``.
"""

from __future__ import annotations

import ast
import re
from typing import Sequence

import libcst as cst

from ...linter.api import Knowledge, Names, chain_root, effects, last_name, project_method_stays_local, walk_in_scope, walk_in_scope_ast
from .local_socket import local_socket
from .local_store import embedded_store, opened_on_path
from .model import words
from .remote_object import sdk_object

__all__ = ["may_read_remote_ast", "module_constants", "reads_remote", "remote_evidence"]


def _local(call: cst.Call, qn: str | None, names: Names, knowledge: Knowledge, path: str | None = None) -> bool:
    """File or local-process work (it reaches outside the process, not outside the machine), or a method of a
    response already received."""
    func = call.func
    if isinstance(func, cst.Name) and func.value == "open" and names.is_builtin("open"):
        return True
    if qn is not None and (qn in knowledge.local_io_calls or qn.startswith(knowledge.local_io_prefixes)):
        return True
    if local_socket(call, qn, names, knowledge):
        return True  # s48: a socket only bound (a free-port picker) or a Unix-domain one: this machine
    if isinstance(func, cst.Attribute):
        if func.attr.value in knowledge.local_io_methods:
            return True
        if _in_hand(func.value, names, knowledge):
            return True  # r.json() on a response already received: a parse in memory
        if isinstance(func.value, cst.Call) and opened_on_path(func.value, names, knowledge):
            return True  # Store(SETTINGS_PATH).read(): an object of a local file
        ref = names.qualify(func.value)
        if ref is not None and ref[1] and (ref[0] in knowledge.local_io_calls or ref[0].startswith(knowledge.local_io_prefixes)):
            return True  # a method of a subprocess.Popen, a sqlite3 connection, a Path
        if _bound_to_local_io(func.value, names, knowledge):
            return True  # connection = sqlite3.connect(db_uri, uri=True) ... connection.close()
        if embedded_store(func, names, knowledge, path):
            return True  # self.table = lancedb.connect("./data").open_table(t) ... self.table.count_rows() (s45)
    return False


def _bound_to_local_io(receiver: cst.BaseExpression, names: Names, knowledge: Knowledge) -> bool:
    """A receiver rooted in a local name the enclosing function assigns once from a local-I/O call
    (``conn = sqlite3.connect(p)``, ``proc = subprocess.Popen(argv)``): its methods, and those of what they
    return (``conn.execute(sql).fetchall()``), are local work wherever they are called (a ``finally`` too)."""
    root = chain_root(receiver)
    if not isinstance(root, cst.Name):
        return False
    value = _bound_value(root, names)
    if value is root or not isinstance(value, cst.Call):
        return False
    raw = names.qualname(value.func)
    qn = knowledge.canonical(raw) if raw is not None else None
    return qn is not None and (qn in knowledge.local_io_calls or qn.startswith(knowledge.local_io_prefixes))


def _in_hand(receiver: cst.BaseExpression, names: Names, knowledge: Knowledge) -> bool:
    """A response already received (``r: httpx.Response``): its methods parse the body in memory."""
    ref = names.qualify(receiver)
    return ref is not None and ref[1] and knowledge.canonical(ref[0]) in knowledge.in_hand_response_classes


def _path_named(receiver: cst.BaseExpression, knowledge: Knowledge) -> bool:
    """A receiver whose own name ends in a filesystem word (``index_file``, ``self.cache_dir``, ``log_path``):
    a path, not a remote index or store, whatever its other words say; so is what a path's method returns
    (``db_path.resolve().as_uri()``)."""
    while isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute):
        receiver = receiver.func.value
    last = last_name(receiver)
    return last is not None and last.lower().split("_")[-1] in knowledge.local_path_argument_words


_LOWER_UPPER = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")  # connectionString -> connection_String


def _value_named(receiver: cst.BaseExpression, knowledge: Knowledge) -> bool:
    """A receiver whose own name ends in a value word (``connection_string``, ``self.index_name``,
    ``db_config``): a string, an id or a settings mapping named after a remote thing, not the thing."""
    last = last_name(receiver)
    if last is None:
        return False
    return _LOWER_UPPER.sub("_", last).lower().split("_")[-1] in knowledge.value_name_words


def _module_constant(receiver: cst.BaseExpression, names: Names, constants: frozenset[str]) -> bool:
    """A receiver rooted in a module-level name bound only to a literal (``_API_METHODS = {...}``,
    ``DB_TABLES = ("a", "b")``) that the enclosing function does not rebind: data in memory."""
    node = receiver
    while isinstance(node, cst.Attribute):
        node = node.value  # not through a subscript: ``_CLIENTS[name]`` is what a registry filled at run time holds
    if not isinstance(node, cst.Name) or node.value not in constants:
        return False
    func = names.function
    if not isinstance(func, cst.FunctionDef):
        return True
    return not any(
        isinstance(n, (cst.Assign, cst.AnnAssign, cst.AugAssign))
        and any(isinstance(t, cst.Name) and t.value == node.value for t in _targets(n))
        for n in walk_in_scope(func.body)
    )


_PARSERS = frozenset({"json.loads", "json.load", "yaml.safe_load", "yaml.load", "tomllib.loads", "tomllib.load",
                      "copy.deepcopy", "copy.copy"})


def _parsed(value: cst.BaseExpression, names: Names) -> bool:
    """A value built in memory: a literal, or what a parser or a copy returns (``json.loads(text)``)."""
    if _literal(value, names):
        return True
    if isinstance(value, cst.Call):
        raw = names.qualname(value.func)
        return raw is not None and raw in _PARSERS
    return False


def _bound_to_data(receiver: cst.BaseExpression, names: Names) -> bool:
    """A receiver rooted in a local name the function binds once to an entry of parsed data
    (``reduced = json.loads(s)``; ``bucket = reduced.get("pipeline")``; ``bucket.pop("tools")``): a mapping in
    memory named like a remote thing, not the thing."""
    root = receiver
    while isinstance(root, (cst.Attribute, cst.Subscript)):
        root = root.value
    if not isinstance(root, cst.Name):
        return False
    value = _bound_value(root, names)
    if value is root:
        return False
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "get":
        source: cst.BaseExpression = value.func.value
    elif isinstance(value, cst.Subscript):
        source = value.value
    else:
        return False
    if not isinstance(source, cst.Name) or source.value == root.value:
        return False
    bound = _bound_value(source, names)
    return bound is not source and _parsed(bound, names)


def _targets(node: cst.Assign | cst.AnnAssign | cst.AugAssign) -> list[cst.BaseExpression]:
    return [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]


_LITERALS = (cst.Dict, cst.List, cst.Set, cst.Tuple, cst.DictComp, cst.ListComp, cst.SetComp, cst.SimpleString,
             cst.ConcatenatedString, cst.FormattedString, cst.Integer, cst.Float)
_LITERAL_BUILDERS = frozenset({"frozenset", "set", "tuple", "list", "dict"})


def _literal(value: cst.BaseExpression | None, names: Names) -> bool:
    if isinstance(value, _LITERALS):
        return True
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Name)
        and value.func.value in _LITERAL_BUILDERS
        and names.is_builtin(value.func.value)
        and all(isinstance(a.value, _LITERALS) for a in value.args)
    )


def module_constants(module: cst.Module | None, names: Names) -> frozenset[str]:
    """The module-level names every top-level assignment binds to a literal (a dict, list, set or tuple
    display, a comprehension, a string or a number; ``frozenset({...})``): a method of one is a lookup in
    memory, whatever the name says (``_API_METHODS.items()``)."""
    if module is None:
        return frozenset()
    literal: set[str] = set()
    other: set[str] = set()
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                for t in _targets(small):
                    if isinstance(t, cst.Name):
                        is_literal = not isinstance(small, cst.AugAssign) and _literal(small.value, names)
                        (literal if is_literal else other).add(t.value)
    return frozenset(literal - other)


def _receiver_words(func: cst.Attribute) -> set[str]:
    """The words of every name in a method call's receiver, camelCase split (``HttpClient.request`` -> http, client)."""
    out: set[str] = set()
    node: cst.BaseExpression = func.value
    while True:
        if isinstance(node, cst.Attribute):
            out |= words(node.attr.value)
            node = node.value
        elif isinstance(node, cst.Name):
            out |= words(node.value)
            return out
        elif isinstance(node, (cst.Call, cst.Subscript)):
            node = node.func if isinstance(node, cst.Call) else node.value
        else:
            return out


def _handed_paths(call: cst.Call, names: Names, knowledge: Knowledge) -> bool:
    """Every argument is a filesystem path (``load_config(config_path=home_config_path())``, ``parse(Path(p))``):
    a name, keyword or helper whose last word is a path word, or a ``pathlib.Path``."""
    if not call.args:
        return False
    path_words = knowledge.local_path_argument_words
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value.lower().split("_")[-1] in path_words:
            continue
        value = arg.value
        if isinstance(value, cst.Call):
            qn = names.qualname(value.func)
            if qn is not None and knowledge.canonical(qn) in ("pathlib.Path", "pathlib.PurePath"):
                continue
            value = value.func
        if (last_name(value) or "").lower().split("_")[-1] not in path_words:
            return False
    return True


def _url_argument(call: cst.Call, knowledge: Knowledge) -> bool:
    """An argument that is a URL: a name with the word url/uri/endpoint, or an ``http(s)://``/``ws(s)://`` literal;
    not when the callee renders, parses or builds it (``JinjaInterpolation().eval(url_base)``: no fetch)."""
    callee = last_name(call.func)
    if callee is not None and words(callee) & knowledge.url_in_memory_verbs:
        return False
    for arg in call.args:
        value = arg.value
        if arg.keyword is not None and words(arg.keyword.value) & knowledge.url_argument_words:
            return True
        if isinstance(value, cst.SimpleString) and str(value.evaluated_value).startswith(("http://", "https://", "ws://", "wss://")):
            return True
        if isinstance(value, cst.Name) and words(value.value) & knowledge.url_argument_words:
            return True
        if isinstance(value, cst.Attribute) and words(value.attr.value) & knowledge.url_argument_words:
            return True
    return False


def _process_call(qn: str, knowledge: Knowledge) -> bool:
    """A call that runs a program: ``subprocess.run``/``check_output``..., ``Popen``, ``os.system``, ``asyncio``'s."""
    return qn in knowledge.tool_process_calls or (qn.startswith("subprocess.") and qn in knowledge.timeouts)


def _bound_value(node: cst.BaseExpression, names: Names) -> cst.BaseExpression:
    """A local name's value when the enclosing function assigns it once (``cmd = ["kubectl", ...]``), else ``node``."""
    func = names.function
    if not isinstance(node, cst.Name) or not isinstance(func, cst.FunctionDef):
        return node
    values = [
        n.value
        for n in walk_in_scope(func.body)
        if isinstance(n, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == node.value for t in n.targets)
    ]
    return values[0] if len(values) == 1 else node


def _argv(node: cst.BaseExpression) -> list[str]:
    """A command's leading literal words: ``["kubectl", "get", x]``, ``["kubectl"] + args``, ``"gh api repos"``."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _argv(node.left)
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        text = node.evaluated_value
        return text.split() if isinstance(text, str) else []
    out: list[str] = []
    if isinstance(node, (cst.List, cst.Tuple)):
        for el in node.elements:
            value = el.value
            if isinstance(el, cst.StarredElement) or not isinstance(value, cst.SimpleString):
                break
            out.append(str(value.evaluated_value))
    return out


def _remote_program(call: cst.Call, qn: str, names: Names, knowledge: Knowledge) -> bool:
    """A process call whose program talks to a remote service (``subprocess.run(["kubectl", "get", ...])``,
    ``create_subprocess_exec("gh", "api", ...)``): :func:`~smullyan.linter.knowledge.remote_cli` on its argv."""
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    if qn.endswith("create_subprocess_exec"):
        words: list[str] = []
        for value in positional:
            if not isinstance(value, cst.SimpleString):
                break
            words.append(str(value.evaluated_value))
    else:
        given = positional[0] if positional else next((a.value for a in call.args if a.keyword is not None and a.keyword.value in ("args", "cmd")), None)
        words = _argv(_bound_value(given, names)) if given is not None else []
    return knowledge.remote_cli(words)


def remote_evidence(
    call: cst.Call, names: Names, knowledge: Knowledge, imports: frozenset[str], constants: frozenset[str] = frozenset(),
    path: str | None = None, tree: ast.Module | None = None,
) -> str | None:
    """Why ``call`` reads from outside the machine (``"network"``, ``"sends"``, ``"receiver"``, ``"client"``,
    ``"url"``, ``"program"``), or None: no positive evidence (local I/O, a third-party call on no known client,
    an unknown callee). ``path``: the linted file, to ask whether a receiver named for one of the project's own
    classes is local work (:func:`project_method_stays_local`, s43)."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in knowledge.pure_methods:
        return None
    raw = names.qualname(func)
    qn = knowledge.canonical(raw) if raw is not None else None
    if qn is not None and _process_call(qn, knowledge) and _remote_program(call, qn, names, knowledge):
        return "program"  # kubectl get crds, gh api ...: a local process whose job is a remote service
    if (qn is not None and qn in knowledge.pure_calls) or _local(call, qn, names, knowledge, path):
        return None
    if qn is not None and qn.startswith(tuple(c + "." for c in knowledge.remote_client_classes)):
        return "client"  # es.indices.get(...): a method under a known remote client, where it is built or annotated
    if effects.reaches_outside(call, names, knowledge, imports):
        if qn is not None and (
            qn in knowledge.timeouts
            or qn in knowledge.needs_timeout_scope
            or qn in knowledge.classify
            or qn in knowledge.tool_calls
            or qn.startswith(knowledge.tool_module_prefixes)
        ):
            return "network"
        if effects.classify_call(call, names, knowledge, {}, imports) is not None:
            return "network"
        if isinstance(func, cst.Attribute) and func.attr.value in knowledge.tool_methods:
            return "sends"
        if isinstance(func, cst.Attribute):
            ref = names.qualify(func.value)
            if (
                ref is not None
                and ref[1]
                and words(ref[0].rsplit(".", 1)[-1]) & knowledge.client_class_words
                and not (path is not None and _project_local(func, names, path))
            ):
                return "client"  # Pinecone().Index("docs").query(...), container: docker Container
        if _url_argument(call, knowledge):
            return "url"  # a third-party function handed a URL (a PDF-to-text fetcher, a page loader)
    if not isinstance(func, cst.Attribute):
        return None
    ref = names.qualify(func.value)
    module = ref is not None and not ref[1] and not any(part[:1].isupper() for part in ref[0].split(".")) \
        and not _of_instance(func.value, names)
    if (
        not module
        and _receiver_words(func) & knowledge.remote_read_receiver_words
        and not _path_named(func.value, knowledge)
        and not _value_named(func.value, knowledge)
        and not _module_constant(func.value, names, constants)
        and not _bound_to_data(func.value, names)
        and not (path is not None and _project_local(func, names, path))
        and sdk_object(func.value, names, knowledge, tree, path, func.attr.value)  # s49: known to be an SDK's object
    ):
        return "receiver"  # self.client.get(k), HttpClient.request(...), self.api.runs.cancel(...); not socket.gethostname()
    if func.attr.value in (*knowledge.http_methods, "request") and _url_argument(call, knowledge):
        return "url"  # session.get(url): an HTTP verb handed a URL, whatever the session is
    return None


def _of_instance(node: cst.BaseExpression, names: Names) -> bool:
    """``agent._store`` where ``agent: sdk.Agent``: an attribute of an object (the resolver spells it like a module
    path), not a module's function (s49)."""
    while isinstance(node, cst.Attribute):
        node = node.value
    ref = names.qualify(node) if isinstance(node, cst.Name) else None
    return ref is not None and ref[1]


def _handed_call(call: cst.Call, knowledge: Knowledge) -> cst.Call | None:
    """The call a worker-thread runner makes of the callable it is handed: ``asyncio.to_thread(self._client.get,
    name=n)`` and ``loop.run_in_executor(None, client.get, n)`` call ``client.get(...)``; a lambda's body call."""
    func = call.func
    last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
    if last not in knowledge.worker_thread_calls:
        return None
    at = 1 if last == "run_in_executor" else 0
    if len(call.args) <= at or call.args[at].keyword is not None:
        return None
    target = call.args[at].value
    if isinstance(target, cst.Lambda):
        return target.body if isinstance(target.body, cst.Call) else None
    if not isinstance(target, (cst.Name, cst.Attribute)):
        return None
    return cst.Call(func=target, args=call.args[at + 1:])


def reads_remote(
    body: cst.BaseSuite,
    names: Names,
    knowledge: Knowledge,
    imports: frozenset[str],
    *,
    awaits: bool = False,
    constants: frozenset[str] = frozenset(),
    path: str | None = None,
    tree: ast.Module | None = None,
) -> bool:
    """Whether the ``try`` body (nested scopes excluded) makes a call :func:`remote_evidence` vouches for; with
    ``awaits`` (an existence check: ``table_exists``), also an ``await`` or any call that leaves the process but
    is not local I/O nor handed only filesystem paths (``load_config(config_path=p)``). ``constants``: the
    module's literal-bound names (:func:`module_constants`)."""
    for n in walk_in_scope(body):
        if isinstance(n, cst.Call):
            if remote_evidence(n, names, knowledge, imports, constants, path, tree) is not None:
                return True
            handed = _handed_call(n, knowledge)
            if handed is not None and remote_evidence(handed, names, knowledge, imports, constants, path, tree) is not None:
                return True
            if (
                awaits
                and effects.reaches_outside(n, names, knowledge, imports)
                and not _handed_paths(n, names, knowledge)
                and not _path_named(n.func, knowledge)  # home_config_path(): computes a path
            ):
                raw = names.qualname(n.func)
                if not _local(n, knowledge.canonical(raw) if raw is not None else None, names, knowledge) and not _typed_in_hand(
                    n, names, knowledge
                ):
                    return True
        elif awaits and isinstance(n, cst.Await):
            call = n.expression
            if isinstance(call, cst.Call):
                raw = names.qualname(call.func)
                if _local(call, knowledge.canonical(raw) if raw is not None else None, names, knowledge):
                    continue  # await docker.images.get(image): the local daemon
            return True
    return False


def _project_local(func: cst.Attribute, names: Names, path: str) -> bool:
    """``agent._notification_store.snapshot(...)``, or through a local name bound once to that receiver (``store =
    agent._notification_store``), or a new object of a class (``GenerationStore(home).active()``, or a local name
    bound once to one): a method the project's own classes named so implement as local work only
    (:func:`project_method_stays_local`; s43: lingtai's store of local JSON files, 3 false; s44: openthomas's
    ``GenerationStore``)."""
    receiver = func.value
    if isinstance(receiver, cst.Name):
        bound = _bound_value(receiver, names)
        if isinstance(bound, (cst.Attribute, cst.Call)):
            receiver = bound
    if isinstance(receiver, cst.Call) and (last_name(receiver.func) or "")[:1].isupper():
        receiver = receiver.func  # GenerationStore(home).active(): the object of the class named (s44)
    elif isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Name) and _module_function(receiver.func, names):
        # s46: _event_store(config, sid).head(sid): a function of this module named for the project's store hands
        # one out, read by its name as the attribute it would be stored in (kolega's local session event log)
        receiver = receiver.func
    name = last_name(receiver)
    return name is not None and project_method_stays_local(path, name, func.attr.value)


def _module_function(func: cst.Name, names: Names) -> bool:
    """``func`` names a function defined in this module (not an import, not a builtin)."""
    return func.value in names.module_scope.defs and names.lookup(func.value) is None


def _typed_in_hand(call: cst.Call, names: Names, knowledge: Knowledge) -> bool:
    """A method of an object of a known class whose name says no client (``node: hou.Node``, ``node.errors()``):
    in an existence check, such a call asks the object in hand, not a remote store."""
    func = call.func
    if not isinstance(func, cst.Attribute):
        return False
    ref = names.qualify(func.value)
    return ref is not None and ref[1] and not words(ref[0].rsplit(".", 1)[-1]) & knowledge.client_class_words


def runs_tool(body: cst.BaseSuite, knowledge: Knowledge) -> bool:
    """The ``try`` runs a tool (``self._find_plugin(tool).run(tool_input)``, ``tool.invoke(args)``: a method of
    ``TOOL_RUN_METHODS`` on a receiver named with ``TOOL_RUN_RECEIVER_WORDS``): what it reads is the tool's."""
    for n in walk_in_scope(body):
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) \
                and n.func.attr.value in knowledge.tool_run_methods \
                and _receiver_words(n.func) & knowledge.tool_run_receiver_words:
            return True
    return False


def runs_tool_ast(body: Sequence[ast.stmt], knowledge: Knowledge) -> bool:
    """:func:`runs_tool` on the ``ast`` tree (the screen)."""
    for n in walk_in_scope_ast(body):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in knowledge.tool_run_methods \
                and _chain_words_ast(n.func.value) & knowledge.tool_run_receiver_words:
            return True
    return False


def may_read_remote_ast(body: Sequence[ast.stmt], knowledge: Knowledge) -> bool:
    """The screen's share of :func:`remote_evidence` that ``tool_like_ast`` does not cover: a method of a receiver
    named for a client or a remote API (camelCase split), an HTTP verb."""
    remote = knowledge.remote_read_receiver_words
    verbs = (*knowledge.http_methods, "request")
    for n in walk_in_scope_ast(body):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            if n.func.attr in verbs:
                return True
            if _chain_words_ast(n.func.value) & remote:
                return True
    return False


def _chain_words_ast(node: ast.expr) -> set[str]:
    """:func:`_receiver_words` on the ``ast`` tree."""
    out: set[str] = set()
    while True:
        if isinstance(node, ast.Attribute):
            out |= words(node.attr)
            node = node.value
        elif isinstance(node, ast.Name):
            return out | words(node.id)
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            return out
