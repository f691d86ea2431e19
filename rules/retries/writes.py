"""Which writes a retry repeats (TFH101's question, asked of the retry model).

A retry's work (``Retry.effects``, read one level into same-module helpers)
repeats a write when it makes a call of a write class (``Knowledge.write_classes``)
with no idempotency key; a runtime retry over ``keyed(tool)`` keeps one key for
every attempt. A POST in an LLM or embeddings integration (the module, a class
deriving from an LLM base, a body holding ``messages``/``prompt``, also when the
module builds it apart: ``model_body.py``) is inference,
nothing a retry could duplicate. urllib3 ``Retry`` policies that allow POST or
PATCH are answered apart (:func:`urllib3_writes`).
"""

from __future__ import annotations

import ast
from typing import Sequence

import libcst as cst

from ...linter.api import Effect, Knowledge, inference_body, node_lines
from ...linter.api import knowledge as kb
from .data import NON_IDEMPOTENT_WRITE, Condition, Retry
from .model import RetryModel
from .model_body import model_call_body


def _inference_classes(tree: ast.AST) -> list[tuple[int, int]]:
    """Line spans of the classes deriving from an LLM or embeddings base (``class X(BaseLlm)``)."""
    out: list[tuple[int, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                last = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
                if last.endswith(Knowledge.llm_inference_base_suffixes):
                    out.append((node.lineno, node.end_lineno or node.lineno))
                    break
    return out


def _read_classes(tree: ast.AST) -> list[tuple[int, int]]:
    """Line spans of the classes named as a read (``WebSearchTool``, ``PaperRetriever``:
    ``Knowledge.read_class_name``), and of the bases or mixins whose every subclass in the module is
    (``class MCPSearchTool(MCPMixin, ...)``, ``class MCPBrowseTool(MCPMixin, ...)``: ``MCPMixin``'s calls
    are those tools' calls; s43, batch 15)."""
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    subclasses: dict[str, list[str]] = {}
    for node in classes:
        for base in node.bases:
            last = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
            subclasses.setdefault(last, []).append(node.name)
    writing = {node.name for node in classes if any(_names_a_write(f.name) for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)))}
    out: list[tuple[int, int]] = []
    for node in classes:
        if node.name in writing:
            continue  # `class SearchClient: def post(...)`: a client that also writes
        subs = subclasses.get(node.name, [])
        if Knowledge.read_class_name(node.name) or (subs and all(Knowledge.read_class_name(s) and s not in writing for s in subs)):
            out.append((node.lineno, node.end_lineno or node.lineno))
    return out


def _telemetry_exporters(tree: ast.AST) -> list[tuple[int, int]]:
    """Line spans of the classes exporting telemetry (``Knowledge.telemetry_exporter_name``: their name or a base's,
    ``LlmOpsHttpExporter(SpanExporter)``, ``SIEMExporter``): a batch of records delivered at least once (s46)."""
    out: list[tuple[int, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = [b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else "" for b in node.bases]
            if any(Knowledge.telemetry_exporter_name(n) for n in (node.name, *bases)):
                out.append((node.lineno, node.end_lineno or node.lineno))
    return out


def _names_a_write(name: str) -> bool:
    """A public method named for a write: its first word a non-idempotent or irreversible verb (``post``,
    ``create_index``; not a private helper building a value, ``_create_error_output``)."""
    if name.startswith("_"):
        return False
    words = Knowledge.identifier_words(name)
    return bool(words) and kb.TOOL_NAME_VERBS.get(words[0]) in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE)


def _tool_run(effect: Effect) -> bool:
    """A remote tool run (``session.call_tool(name, args)``)."""
    node = effect.node
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "call_tool"


def _read_tool_named(effect: Effect) -> bool:
    """A remote tool run whose tool is named, by a literal, as a read (``call_tool("search_papers", ...)``:
    its first word, else its last, is a read verb of ``knowledge.TOOL_NAME_VERBS``, as ``smullyan tools``
    reads a tool's name)."""
    node = effect.node
    if not (_tool_run(effect) and isinstance(node, cst.Call)):
        return False
    arg = next((a for a in node.args if (a.keyword is None and not a.star) or (a.keyword is not None and a.keyword.value == "name")), None)
    if arg is None or not isinstance(arg.value, cst.SimpleString):
        return False
    value = arg.value.evaluated_value
    words = Knowledge.identifier_words(value if isinstance(value, str) else "")
    for w in (words[:1] + words[-1:]):
        if w in kb.TOOL_NAME_VERBS:
            return kb.TOOL_NAME_VERBS[w] == kb.READ_SAFE
    return False


def _built_model_body(effect: Effect, line: int | None, tree: ast.AST) -> bool:
    """The request's body is a model call's, built in the module (``json=payload``, ``payload`` from
    ``self._build_payload(...)`` or handed in by every caller: ``model_body.py``, s47)."""
    node = effect.node
    if line is None or not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
        return False
    return model_call_body(tree, line, node.func.attr.value)


def _read_functions(tree: ast.AST) -> list[tuple[int, int]]:
    """Line spans of the functions named as a read (``search``, ``_search``, ``embed_texts``,
    ``complete``): a POST made there is a query sent as POST, nothing a retry duplicates (issue 23)."""
    out: list[tuple[int, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name.lstrip("_").lower().startswith(Knowledge.read_post_function_prefixes):
                out.append((node.lineno, node.end_lineno or node.lineno))
    return out



def urllib3_writes(model: RetryModel, inference: bool) -> list[tuple[Retry, str]]:
    """The urllib3 ``Retry`` policies that allow POST or PATCH, with the methods they allow as text
    (``every method`` when none is listed); none in an LLM or embeddings integration (``inference``)."""
    out: list[tuple[Retry, str]] = []
    for retry in model.retries:
        if retry.kind == "urllib3":
            if inference:
                continue
            methods = retry.methods
            if methods is None or (isinstance(methods, frozenset) and methods & {"POST", "PATCH"}):
                allowed = "every method" if methods is None else ", ".join(sorted(methods))
                out.append((retry, allowed))
    return out


def repeated_writes(
    model: RetryModel, knowledge: Knowledge, inference: bool, module: cst.Module, tree: ast.AST,
    retries: Sequence[Retry] | None = None,
) -> list[tuple[Retry, Effect, str]]:
    """For each retry (urllib3 policies aside; ``retries``, else the model's) the first write it repeats without
    an idempotency key, with where it is (``12``, ``12, in helper()``, ``?``); LLM inference left out."""
    found: list[tuple[Retry, Effect]] = []
    for retry in model.retries if retries is None else retries:
        if retry.kind == "urllib3":
            continue
        for effect in retry.effects:
            if inference and effect.what.startswith(("POST ", "PATCH ")):
                continue
            if retry.keyed and effect.cls == NON_IDEMPOTENT_WRITE:
                continue  # clock.retrying(...) over keyed(tool): one key for every attempt (the runtime allows it)
            if effect.cls in knowledge.write_classes and not effect.keyed:
                found.append((retry, effect))
                break
    if not found:
        return []
    lines = node_lines(module, tree if isinstance(tree, ast.Module) and tree.body else None, [e.node for _, e in found])
    spans = _inference_classes(tree) + _read_functions(tree)
    reads = _read_classes(tree) + _read_functions(tree) + _telemetry_exporters(tree)
    found = [
        (retry, effect)
        for retry, effect in found
        if not (
            effect.what.startswith(("POST ", "PATCH "))
            and (inference_body(effect.node, Knowledge.llm_inference_body_keys) or any(a <= (lines.get(effect.node) or 0) <= b for a, b in spans)
                 or _built_model_body(effect, lines.get(effect.node), tree))
        )
        and not (effect.what.startswith("POST ") and any(a <= (lines.get(effect.node) or 0) <= b for a, b in reads))
        and not (_tool_run(effect) and (_read_tool_named(effect) or any(a <= (lines.get(effect.node) or 0) <= b for a, b in reads)))
    ]
    out: list[tuple[Retry, Effect, str]] = []
    for retry, effect in found:
        line = lines.get(effect.node)
        where = str(line) if line else "?"
        if effect.helper:
            where += f", in {effect.helper}()"
        out.append((retry, effect, where))
    return out


def rate_limited_only(retry: Retry) -> bool:
    """The retry's known condition is a status test true only for 429 (``RATE_LIMIT_STATUS``): a
    rate-limited request was turned away before the server acted on it, so re-sending it repeats nothing."""
    cond = retry.condition
    return (
        isinstance(cond, Condition)
        and not cond.every_exception
        and not cond.tags
        and bool(cond.statuses)
        and cond.statuses is not None
        and cond.statuses <= {kb.RATE_LIMIT_STATUS}
    )
