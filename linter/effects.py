"""What a call does to the world: the catalogue's four classes, read from data.

read-safe, idempotent write, non-idempotent write, irreversible
(``knowledge.READ_SAFE`` ...). A call is classified from, in order:

1. the project's ``classify`` configuration (qualified name -> class);
2. a same-module function that declares its class (the runtime's
   ``@read_safe``/``@idempotent_write``/``@non_idempotent_write``/``@irreversible``,
   or MCP ``ToolAnnotations`` hints on ``@mcp.tool(annotations=...)``);
3. HTTP: the method of a requests/httpx/aiohttp/urllib3 call (``post``,
   ``request("POST", ...)``, ``method="PATCH"``); a POST whose literal URL
   names a read (search, embeddings, completions, token, GraphQL) is read-safe;
4. known SDK calls that send or charge (``knowledge.SDK_CALLS`` ...).

Only the last two are data in ``knowledge`` (``knowledge/writes.py``); this module holds no names of
its own. Whether a call carries an idempotency key is :func:`has_idempotency_key`.

Whether a call reaches outside the process at all (so it can fail because
something out there failed: the network, a subprocess, a file, an SDK) is
:func:`reaches_outside`, with its cheap ``ast`` superset for screens
(:func:`outside_screen`, :func:`may_reach_outside_ast`): the one answer the
error-handling rules (``rules/errors/``) ask.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

import libcst as cst

from . import knowledge as kb
from . import nodes
from .names import Names, dotted
from .nodes import keyword_arg, last_name, positional, receiver_name, string_literal

if TYPE_CHECKING:
    from .rule import Screen


@dataclass(frozen=True)
class Effect:
    """One call that writes (or reads) and what the linter knows about it."""

    node: cst.CSTNode  # the call (or, for a retried def that declares its class, its decorator)
    cls: str  # one of knowledge.CLASSES
    what: str  # "POST to 'https://...'", "stripe.Charge.create", "send_email"
    keyed: bool  # carries an idempotency key
    helper: str | None = None  # the same-module function it was found in, when reached through a call


def _norm(text: str) -> str:
    return text.lower().replace("_", "").replace("-", "")


def _key_header(name: str) -> bool:
    """A header that carries an idempotency key: ``Idempotency-Key``, or a delivery id (``X-GitHub-Delivery``)."""
    norm = _norm(name)
    return norm in kb.IDEMPOTENCY_HEADERS or norm.endswith(kb.IDEMPOTENCY_HEADER_SUFFIXES)


def _names(node: cst.CSTNode) -> list[str]:
    """Every name and attribute name under a node."""
    out: list[str] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Name):
            out.append(n.value)
        stack.extend(n.children)
    return out


def _declared_from_decorators(node: cst.FunctionDef, names: Names) -> str | None:
    for dec in node.decorators:
        expr = dec.decorator
        qn = names.qualname(expr)
        if qn is not None and qn in kb.CLASSIFICATION_DECORATORS:
            return kb.CLASSIFICATION_DECORATORS[qn]
        if isinstance(expr, cst.Call):
            # @mcp.tool(annotations=ToolAnnotations(readOnlyHint=True)) / annotations={"readOnlyHint": True}
            func = expr.func
            if isinstance(func, cst.Attribute) and func.attr.value == kb.MCP_TOOL_DECORATOR_METHOD:
                ann = keyword_arg(expr, "annotations")
                if ann is not None:
                    found = mcp_class(ann.value)
                    if found is not None:
                        return found
    return None


def mcp_class(node: cst.BaseExpression) -> str | None:
    """The class MCP ``ToolAnnotations`` hints state literally, or None."""
    hints: dict[str, bool] = {}
    if isinstance(node, cst.Call):
        for arg in node.args:
            if arg.keyword is not None and isinstance(arg.value, cst.Name) and arg.value.value in ("True", "False"):
                hints[arg.keyword.value] = arg.value.value == "True"
    elif isinstance(node, cst.Dict):
        for el in node.elements:
            if isinstance(el, cst.DictElement) and isinstance(el.value, cst.Name) and el.value.value in ("True", "False"):
                key = string_literal(el.key, pieces=True)
                if key is not None:
                    hints[key] = el.value.value == "True"
    # strongest statement first: destructive, then non-idempotent, idempotent, read-only
    order = (kb.IRREVERSIBLE, kb.NON_IDEMPOTENT_WRITE, kb.IDEMPOTENT_WRITE, kb.READ_SAFE)
    found = {cls for hint, value, cls in kb.MCP_HINTS if hints.get(hint) is value}
    if hints.get("readOnlyHint") is True or hints.get("read_only_hint") is True:
        return kb.READ_SAFE  # read-only makes the other hints meaningless (MCP spec)
    for cls in order:
        if cls in found:
            return cls
    return None


def declared_class(node: cst.FunctionDef, names: Names) -> str | None:
    """The class a definition declares for itself (decorators, MCP annotations), or None."""
    return _declared_from_decorators(node, names)


def _http_method(call: cst.Call, last: str) -> str | None:
    """The HTTP method (lower case) a client call sends, when literal."""
    if last in kb.HTTP_METHOD_CLASSES:
        return last
    if last in kb.HTTP_REQUEST_METHODS:
        arg = keyword_arg(call, "method")
        if arg is None:
            pos = positional(call)
            arg = pos[0] if pos else None
        text = string_literal(arg.value, pieces=True) if arg is not None else None
        if text is not None and text.lower() in kb.HTTP_METHOD_CLASSES:
            return text.lower()
    return None


def _url(call: cst.Call, last: str) -> cst.BaseExpression | None:
    arg = keyword_arg(call, "url")
    if arg is not None:
        return arg.value
    pos = positional(call)
    index = 1 if last in kb.HTTP_REQUEST_METHODS else 0
    return pos[index].value if len(pos) > index else None


def inference_body(node: cst.CSTNode, body_keys: frozenset[str], scope: cst.CSTNode | None = None) -> bool:
    """A request whose literal body (a ``json=``/``data=``/``content=`` dict) holds one of
    ``body_keys`` (``Knowledge.llm_inference_body_keys``: ``messages``, ``prompt``): a model call.
    With ``scope`` (the enclosing function), a body held in a local name is read from the dict
    literals assigned to it there (``data = {"model": m, "messages": msgs, **kwargs}``; ``json=data``)."""
    if not isinstance(node, cst.Call):
        return False
    for arg in node.args:
        if arg.keyword is None or arg.keyword.value not in ("json", "data", "content"):
            continue
        bodies: list[cst.Dict] = []
        if isinstance(arg.value, cst.Dict):
            bodies.append(arg.value)
        elif isinstance(arg.value, cst.Name) and scope is not None:
            bodies.extend(_dicts_assigned(scope, arg.value.value))
        for body in bodies:
            for el in body.elements:
                key = getattr(el, "key", None)
                if isinstance(key, cst.SimpleString) and key.evaluated_value in body_keys:
                    return True
    return False


def _dicts_assigned(scope: cst.CSTNode, name: str) -> list[cst.Dict]:
    """The dict literals assigned to ``name`` (``name = {...}``, ``name: dict = {...}``) anywhere in ``scope``."""
    out: list[cst.Dict] = []
    stack: list[cst.CSTNode] = [scope]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Assign) and isinstance(n.value, cst.Dict):
            if any(isinstance(t.target, cst.Name) and t.target.value == name for t in n.targets):
                out.append(n.value)
        elif isinstance(n, cst.AnnAssign) and isinstance(n.value, cst.Dict):
            if isinstance(n.target, cst.Name) and n.target.value == name:
                out.append(n.value)
        stack.extend(n.children)
    return out


def classify_call(
    call: cst.Call,
    names: Names,
    knowledge: kb.Knowledge,
    local_classes: Mapping[str, str],
    imports: frozenset[str],
) -> tuple[str, str] | None:
    """(class, description) of a call, or None when nothing is known about it.

    ``local_classes``: same-module function names -> declared class.
    ``imports``: the module's imported top-level names (for SDK methods).
    """
    func = call.func
    if isinstance(func, cst.Attribute):
        last = func.attr.value
    elif isinstance(func, cst.Name):
        last = func.value
    else:
        return None
    qn = names.qualname(func)
    if qn is not None and qn in knowledge.classify:
        return knowledge.classify[qn], qn
    if isinstance(func, cst.Name) and qn is None and last in local_classes:
        return local_classes[last], f"{last}()"
    if not reaches_outside(call, names, knowledge, imports):
        return None  # the one answer to "does this call reach outside" (the errors rules ask it too)
    if qn is not None:
        # the resolved name, not the spelling: ``from requests import post as send; send(url)``
        owner, _, resolved = qn.rpartition(".")
        if owner in kb.HTTP_CLIENTS or qn in kb.HTTP_CLIENTS:
            method = _http_method(call, resolved)
            if method is not None:
                cls = kb.HTTP_METHOD_CLASSES[method]
                url = _url(call, resolved)
                text = string_literal(url, pieces=True) if url is not None else None
                shown = f"{method.upper()} to {text!r}" if text and text.strip("/{}") else f"{method.upper()} through {qn}"
                # the URL's literal text and the names it is built from (``self.search_url``)
                said = (text or "") + " " + " ".join(_names(url) if url is not None else ())
                if isinstance(url, cst.Call):  # built by a helper: ``_endpoint(base, "/device/token")`` (s35 post)
                    said += " " + " ".join(t for a in url.args if (t := string_literal(a.value, pieces=True)) is not None)
                if cls == kb.NON_IDEMPOTENT_WRITE and _says_read(said.lower(), kb.READ_POST_URL_PARTS) \
                        and not _graphql_mutation(call, said.lower()):
                    return kb.READ_SAFE, shown
                return cls, shown
        if qn in kb.SDK_CALLS:
            return kb.SDK_CALLS[qn], qn
        for prefix, name, cls in kb.SDK_PREFIX_CALLS:
            if qn.startswith(prefix) and last == name:
                return cls, qn
    if isinstance(func, cst.Attribute) and last in kb.SDK_METHODS:
        roots, cls = kb.SDK_METHODS[last]
        anywhere = last in kb.SDK_METHODS_ANY_RECEIVER
        if any(root in imports and (qn is None or anywhere or qn.split(".")[0] == root) for root in roots):
            return cls, f"{dotted(func) or last}()"
    return None


def _headers_have_key(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Dict):
        for el in node.elements:
            if isinstance(el, cst.DictElement):
                key = string_literal(el.key, pieces=True)
                if key is not None and _key_header(key):
                    return True
            elif isinstance(el, cst.StarredDictElement) and _headers_have_key(el.value):
                return True
        return False
    if isinstance(node, cst.Call) and dotted(node.func) == "dict":
        return any(
            arg.keyword is not None and _key_header(arg.keyword.value) for arg in node.args
        ) or any(arg.keyword is None and _headers_have_key(arg.value) for arg in node.args)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
        return _headers_have_key(node.left) or _headers_have_key(node.right)
    return False


def _assigned_key(name: str, scope: Sequence[cst.BaseStatement]) -> bool:
    """Whether ``name`` is given an idempotency key anywhere in these statements."""
    stack: list[cst.CSTNode] = list(scope)
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Assign):
            for target in node.targets:
                t = target.target
                if isinstance(t, cst.Name) and t.value == name and _headers_have_key(node.value):
                    return True
                if (
                    isinstance(t, cst.Subscript)
                    and dotted(t.value) == name
                    and len(t.slice) == 1
                    and isinstance(t.slice[0].slice, cst.Index)
                ):
                    key = string_literal(t.slice[0].slice.value, pieces=True)
                    if key is not None and _key_header(key):
                        return True
        elif isinstance(node, cst.AnnAssign):
            if isinstance(node.target, cst.Name) and node.target.value == name and node.value is not None:
                if _headers_have_key(node.value):
                    return True
        elif isinstance(node, cst.Call):
            func = node.func
            if (
                isinstance(func, cst.Attribute)
                and func.attr.value in ("update", "setdefault", "__setitem__")
                and dotted(func.value) == name
            ):
                if any(_headers_have_key(a.value) for a in node.args):
                    return True
                first = positional(node)
                key = string_literal(first[0].value, pieces=True) if first else None
                if key is not None and _key_header(key):
                    return True
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            continue  # another scope
        stack.extend(node.children)
    return False


def has_idempotency_key(call: cst.Call, scope: Sequence[cst.BaseStatement]) -> bool:
    """``idempotency_key=``/``idempotencyKey=``, or headers with an ``Idempotency-Key`` (literal or a variable set in ``scope``)."""
    for arg in call.args:
        if arg.keyword is None:
            continue
        key = _norm(arg.keyword.value)
        if key in kb.IDEMPOTENCY_KEYWORDS:
            return True
        if key.endswith("headers"):
            if _headers_have_key(arg.value):
                return True
            if isinstance(arg.value, cst.Name) and _assigned_key(arg.value.value, scope):
                return True
    return False


# ---------------------------------------------------------------- does a call reach outside


def _receiver_words(name: str | None) -> set[str]:
    return set((name or "").lstrip("_").lower().split("_"))


def chain_words(func: cst.BaseExpression | ast.expr) -> set[str]:
    """Words of every name in a method call's receiver: ``self.client.indices.get`` -> client, indices, self."""
    receiver = func.value if isinstance(func, (cst.Attribute, ast.Attribute)) else None
    chain = nodes.dotted(receiver) if receiver is not None else None  # either tree
    if chain is None:
        return _receiver_words(receiver_name(func))
    out: set[str] = set()
    for part in chain.split("."):
        out |= _receiver_words(part)
    return out


def third_party(qn: str, package: str | None, knowledge: kb.Knowledge) -> bool:
    """A function imported from a package that is neither the standard library, an in-memory one, nor ``package``'s own.

    A capitalised last name builds an object (a model, a client): in memory.
    """
    if "." not in qn or qn.rsplit(".", 1)[1][:1].isupper():
        return False
    parts = qn.split(".")
    root = parts[0]
    own = (package or "").split(".", 1)[0]
    # a namespace package (``llama_index/core``, ``google/adk``: no ``__init__.py`` above) makes the file's
    # package ``core.program`` while its imports say ``llama_index.core...``: still its own package
    if own and parts[1] == own:
        return False
    return (
        root not in sys.stdlib_module_names
        and root not in knowledge.in_memory_libraries
        and root != own
        and not root.startswith("_")
        and qn not in knowledge.pure_calls
    )


def _sdk_table_call(func: cst.BaseExpression, qn: str | None, imports: frozenset[str]) -> bool:
    """A call the effect tables know (an HTTP client's method, a known SDK call, an SDK method by name with its
    package imported): what :func:`classify_call` classifies beyond the configuration."""
    if qn is not None:
        owner = qn.rpartition(".")[0]
        if owner in kb.HTTP_CLIENTS or qn in kb.HTTP_CLIENTS or qn in kb.SDK_CALLS:
            return True
        if any(qn.startswith(prefix) and qn.rsplit(".", 1)[-1] == name for prefix, name, _ in kb.SDK_PREFIX_CALLS):
            return True
    if isinstance(func, cst.Attribute) and func.attr.value in kb.SDK_METHODS:
        anywhere = func.attr.value in kb.SDK_METHODS_ANY_RECEIVER
        return any(root in imports and (qn is None or anywhere or qn.split(".")[0] == root)
                   for root in kb.SDK_METHODS[func.attr.value][0])
    return False


def reaches_outside(
    call: cst.Call, names: Names, knowledge: kb.Knowledge, imports: frozenset[str] = frozenset()
) -> bool:
    """Whether a call can fail because something outside the process failed.

    A network or process call the timeout tables know, a configured
    ``timeout-required``/``classify`` name, a call the effect tables know
    (HTTP clients, SDK calls; ``imports``: the module's imported top-level
    names, for SDK methods known by name), file and process I/O
    (``knowledge.tool_calls``, builtin ``open``), a call into a module of
    ``knowledge.tool_module_prefixes`` or a third-party package
    (:func:`third_party`; not the in-memory callables of ``knowledge.pure_calls``),
    a method named in ``knowledge.tool_methods``, or a method of an object named
    like a client, db, store, index... (``tool_receiver_words``). A method in
    ``knowledge.pure_methods`` (pydantic's ``model_validate`` on an SDK's model
    class) works in memory whatever the object. :func:`classify_call` asks this
    first: every call it classifies reaches outside.
    """
    func = call.func
    raw = names.qualname(func)
    qn = knowledge.canonical(raw) if raw is not None else None
    if _sdk_table_call(func, raw, imports) or (qn != raw and _sdk_table_call(func, qn, imports)):
        return True
    if isinstance(func, cst.Attribute) and func.attr.value in knowledge.pure_methods:
        return False
    if qn is not None:
        if qn in knowledge.pure_calls:
            return False
        if (
            qn in knowledge.timeouts
            or qn in knowledge.needs_timeout_scope
            or qn in knowledge.classify
            or qn in knowledge.tool_calls
            or qn.startswith(knowledge.tool_module_prefixes)
        ):
            return True
        if third_party(qn, names.package, knowledge):
            return True
    if isinstance(func, cst.Name):
        return func.value == "open" and names.is_builtin("open")
    if isinstance(func, cst.Attribute):
        if func.attr.value in knowledge.tool_methods:
            return True
        return bool(chain_words(func) & knowledge.tool_receiver_words)
    return False


def outside_screen(screen: "Screen", knowledge: kb.Knowledge) -> tuple[frozenset[str], frozenset[str]]:
    """What :func:`may_reach_outside_ast` needs for one file: (the imported roots through which any call may
    reach outside, last names of calls that do)."""
    configured = (*knowledge.timeouts, *knowledge.classify)
    tool_roots = knowledge.memo(
        "effects.tool_roots",
        lambda: frozenset(
            p.split(".")[0] for p in (*knowledge.tool_module_prefixes, *knowledge.tool_calls) if "." in p
        ),
    )
    roots = (tool_roots | knowledge.module_roots() | {q.split(".")[0] for q in configured}) & screen.import_roots
    # third-party packages (the rule resolves the call); the module's own package is one of them here
    roots |= {
        r for r in screen.import_roots
        if r not in sys.stdlib_module_names and r not in knowledge.in_memory_libraries and not r.startswith("_")
    }
    lasts = knowledge.memo(
        "effects.tool_last_names",
        lambda: frozenset(q.rsplit(".", 1)[-1] for q in knowledge.tool_calls) | knowledge.tool_methods,
    )
    return frozenset(roots), lasts | {q.rsplit(".", 1)[-1] for q in configured} | {"open"}


def may_reach_outside_ast(
    call: ast.Call, roots: frozenset[str], lasts: frozenset[str], knowledge: kb.Knowledge
) -> bool:
    """A cheap superset of :func:`reaches_outside` on the ``ast`` (``roots``, ``lasts``: :func:`outside_screen`)."""
    if roots:
        return True  # a module that reaches outside is imported: the check resolves the call
    f = call.func
    if last_name(f) in lasts:
        return True
    return isinstance(f, ast.Attribute) and bool(chain_words(f) & knowledge.tool_receiver_words)


def _graphql_mutation(call: cst.Call, said: str) -> bool:
    """A POST to a GraphQL endpoint whose literal text names a mutation (a document ``"mutation { ... }"``, a Relay
    operation name ``"IGDirectTextSendMutation"`` in its headers or body): a write, not a query (s43, batch 16)."""
    return "graphql" in said and any(
        isinstance(n, (cst.SimpleString, cst.FormattedStringText)) and "mutation" in n.value.lower()
        for n in nodes.every_node(call)
    )


def _says_read(said: str, parts: tuple[str, ...]) -> bool:
    """Whether a POST's URL text names a read (``/search``, ``/chat/completions``). A path part
    followed by a dot is the noun of a ``noun.verb`` method (Slack's ``/api/chat.postMessage``):
    its verb decides, not the noun, so ``/chat`` there is no chat completion."""
    for part in parts:
        at = said.find(part)
        while at >= 0:
            end = at + len(part)
            if not (part.startswith("/") and said[end:end + 1] == "."):
                return True
            at = said.find(part, at + 1)
    return False
