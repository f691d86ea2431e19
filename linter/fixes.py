"""Fixes: how rules describe them, and the one place that applies them.

A rule that has one obvious repair passes ``autofix=RawFix(message, edits)``
to :meth:`Rule.report`. The edits are said in nodes (:class:`NodeEdit`:
replace a node with a new one built by ``with_changes`` from the old, so the
formatting and comments inside are kept; or insert whole lines before or after
a statement); the helpers below build the common ones (add a keyword argument,
make sure a name is imported). The engine turns them into positioned text
edits (``findings.Edit``) on the file as it is, and they travel with the
finding (cache, JSON, SARIF).

Applicability, as ruff labels it: a fix is ``"unsafe"`` (it changes what the
program does at run time) unless its rule declares ``fix_applicability =
"safe"``; ``smullyan lint --fix`` applies safe fixes only, ``--unsafe-fixes``
(config ``unsafe-fixes``) the unsafe ones too (:func:`applies`).

Applying (:func:`fix_text`, :func:`fix_file`): the fixes whose edits do not
overlap are applied in one pass; the file is linted again and the next pass
applies what was left out, up to :data:`MAX_PASSES`. A ``# noqa``'d finding
is never fixed (the engine has dropped it already); a pass whose result does
not parse is thrown away. A fixed file is written atomically (a temporary file
in the same directory, then ``os.replace``), in its own encoding (a BOM and a
PEP 263 cookie are kept), with its line endings and its mode.
"""

from __future__ import annotations

import ast
import difflib
import re
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence, TypeVar

import libcst as cst

from .findings import SAFE, UNSAFE, Edit, Finding, Fix, applies, fixable, offered
from .nodes import dotted, keyword_arg
from .rule import FileContext, NodeEdit, RawFix
from .source import Source, newline_of, read, write_atomic

if TYPE_CHECKING:
    from .config import Config
    from .knowledge import Knowledge

__all__ = [
    "MAX_PASSES", "SAFE", "UNSAFE", "FixResult", "NodeEdit", "RawFix", "Source", "add_keyword", "applies",
    "apply_fixes", "diff", "expression", "fix_file", "fix_text", "fixable", "imported_name", "imported_names",
    "offered", "parses",
    "retry_call", "retry_keyword_fix", "set_keyword",
]

#: Re-lint passes at most: overlapping fixes are applied one per pass.
MAX_PASSES = 10

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_Item = TypeVar("_Item", cst.Arg, cst.ImportAlias)


# --------------------------------------------------------------------------- building fixes (rules)


def expression(code: str) -> cst.BaseExpression:
    return cst.parse_expression(code)


def _no_comment(ws: cst.BaseParenthesizableWhitespace) -> cst.BaseParenthesizableWhitespace:
    if isinstance(ws, cst.ParenthesizedWhitespace):
        return ws.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=())
    return ws


def _append(items: Sequence[_Item], new: _Item, opening: cst.BaseParenthesizableWhitespace | None) -> list[_Item]:
    """``items`` + ``new``, laid out as the items are: one per line, a trailing comma, comments kept."""
    out = list(items)
    if not out:
        return [new]
    last = out[-1]
    sep: cst.BaseParenthesizableWhitespace
    if len(out) >= 2 and isinstance(out[-2].comma, cst.Comma):
        sep = _no_comment(out[-2].comma.whitespace_after)
    elif isinstance(opening, cst.ParenthesizedWhitespace):
        sep = _no_comment(opening)
    else:
        sep = cst.SimpleWhitespace(" ")
    comma = last.comma
    if isinstance(comma, cst.Comma):
        ws = comma.whitespace_after
        if isinstance(ws, cst.ParenthesizedWhitespace) and isinstance(sep, cst.ParenthesizedWhitespace):
            # the closing bracket on its own line: the new item on its own line, the old one keeps its comment
            last = last.with_changes(
                comma=comma.with_changes(whitespace_after=ws.with_changes(indent=sep.indent, last_line=sep.last_line))
            )
            closing = cst.ParenthesizedWhitespace(
                first_line=cst.TrailingWhitespace(), empty_lines=(), indent=ws.indent, last_line=ws.last_line
            )
            new = new.with_changes(comma=cst.Comma(whitespace_after=closing))
        else:
            new = new.with_changes(comma=comma)  # the trailing comma (and what follows) moves to the end
            last = last.with_changes(comma=cst.Comma(whitespace_before=comma.whitespace_before, whitespace_after=sep))
    else:
        last = last.with_changes(comma=cst.Comma(whitespace_after=sep))
    if isinstance(last, cst.Arg) and isinstance(new, cst.Arg):
        new = new.with_changes(whitespace_after_arg=last.whitespace_after_arg)
        last = last.with_changes(whitespace_after_arg=cst.SimpleWhitespace(""))
    out[-1] = last
    out.append(new)
    return out


def add_keyword(call: cst.Call, keyword: str, value: str) -> cst.Call:
    """``call`` with ``keyword=value`` appended after its arguments, in their layout."""
    arg = cst.Arg(
        value=expression(value),
        keyword=cst.Name(keyword),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
    )
    return call.with_changes(args=_append(call.args, arg, call.whitespace_before_args))


def set_keyword(call: cst.Call, keyword: str, value: str) -> NodeEdit:
    """The edit that makes ``call`` pass ``keyword=value``: replace its value, or add the keyword."""
    existing = keyword_arg(call, keyword)
    if existing is not None:
        return NodeEdit(existing.value, expression(value))
    return NodeEdit(call, add_keyword(call, keyword, value))


def _header_anchor(module: cst.Module) -> tuple[cst.CSTNode, str] | None:
    """Where a new import line goes: after the module's leading imports (and docstring)."""
    anchor: cst.CSTNode | None = None
    for i, stmt in enumerate(module.body):
        if isinstance(stmt, cst.SimpleStatementLine):
            first = stmt.body[0]
            if i == 0 and isinstance(first, cst.Expr) and isinstance(first.value, (cst.SimpleString, cst.ConcatenatedString)):
                anchor = stmt  # the docstring
                continue
            if all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body):
                anchor = stmt
                continue
        break
    if anchor is not None:
        return anchor, "line_after"
    if not module.body:
        return None
    first_stmt = module.body[0]
    decorators = getattr(first_stmt, "decorators", ())
    return (decorators[0] if decorators else first_stmt), "line_before"


def imported_name(ctx: FileContext, qualified: str, like: cst.BaseExpression | None = None) -> tuple[str, list[NodeEdit]] | None:
    """How to spell ``qualified`` (``tenacity.stop_after_attempt``) here, and the import edits that makes it work.

    A module-level name already bound to it is used as is. Otherwise the
    file's own style: when ``like`` (a name from the same module used at the
    fix, such as the ``tenacity.retry`` being fixed) is an attribute of the
    module (``import tenacity as t``), ``t.stop_after_attempt``; else the name
    is added to the module-level ``from tenacity import ...``, or a new
    ``from tenacity import stop_after_attempt`` line goes after the leading
    imports. None when the name is bound to something else.
    """
    found = imported_names(ctx, [qualified], like)
    return None if found is None else (found[0][0], found[1])


def imported_names(
    ctx: FileContext, qualified: Sequence[str], like: cst.BaseExpression | None = None
) -> tuple[list[str], list[NodeEdit]] | None:
    """:func:`imported_name` for several names of one module, with one import edit for all of them."""
    module = ctx.module
    if module is None or not qualified:
        return None
    names = ctx.names
    bindings = names.module_scope.bindings
    spelled: list[str] = []
    to_import: list[str] = []
    mod = qualified[0].rpartition(".")[0]
    for q in qualified:
        m, _, attr = q.rpartition(".")
        if m != mod:
            return None
        local = next((n for n, ref in bindings.items() if ref == (q, False) and names.lookup(n) == ref), None)
        if local is not None:
            spelled.append(local)
            continue
        aliases = [n for n, ref in bindings.items() if ref == (mod, False) and names.lookup(n) == ref]
        if isinstance(like, cst.Attribute) and names.qualname(like.value) == mod and dotted(like.value):
            spelled.append(f"{dotted(like.value)}.{attr}")
        elif names.binds(attr) or attr in bindings:
            if not aliases:
                return None  # the bare name means something else here
            spelled.append(f"{aliases[0]}.{attr}")
        elif aliases and not isinstance(like, cst.Name):
            spelled.append(f"{aliases[0]}.{attr}")
        else:
            spelled.append(attr)
            to_import.append(attr)
    if not to_import:
        return spelled, []
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if (
                isinstance(small, cst.ImportFrom)
                and not small.relative
                and small.module is not None
                and dotted(small.module) == mod
                and not isinstance(small.names, cst.ImportStar)
            ):
                opening = small.lpar.whitespace_after if small.lpar is not None else None
                aliases_now: Sequence[cst.ImportAlias] = small.names
                for attr in to_import:
                    aliases_now = _append(aliases_now, cst.ImportAlias(name=cst.Name(attr)), opening)
                return spelled, [NodeEdit(small, small.with_changes(names=aliases_now))]
    where = _header_anchor(module)
    if where is None:
        return None
    node, position = where
    return spelled, [NodeEdit(node, f"from {mod} import {', '.join(to_import)}\n", position)]


def retry_call(anchor: cst.CSTNode) -> tuple[cst.Call | None, cst.BaseExpression | None]:
    """The call that configures a library retry (None for a bare ``@retry``), and the name it calls.

    ``anchor`` is ``retries.Retry.anchor``: a decorator's expression (``retry``,
    ``retry(...)``), ``for attempt in Retrying(...)``, or ``Retrying(...)(fn)``.
    """
    if isinstance(anchor, cst.Decorator):
        d = anchor.decorator
        if isinstance(d, cst.Call):
            return d, d.func
        return None, d
    if isinstance(anchor, cst.For):
        it = anchor.iter
        return (it, it.func) if isinstance(it, cst.Call) else (None, None)
    if isinstance(anchor, cst.Call):
        if isinstance(anchor.func, cst.Call):
            return anchor.func, anchor.func.func
        return anchor, anchor.func
    if isinstance(anchor, (cst.Name, cst.Attribute)):
        return None, anchor  # a bare decorator (or a name bound to a retry elsewhere: the caller checks)
    return None, None


def retry_keyword_fix(
    ctx: FileContext,
    anchor: cst.CSTNode,
    library: str,
    keyword: str,
    qualified: str | None,
    value: str,
    message: str,
) -> RawFix | None:
    """Make a library retry pass ``keyword=<qualified>(value)`` (or ``keyword=value`` without ``qualified``).

    The name is spelled as the file imports the library (:func:`imported_name`,
    adding the import when it is missing); a bare ``@retry`` becomes a call.
    """
    call, head = retry_call(anchor)
    if head is None:
        return None
    if call is None and not (ctx.names.qualname(head) or "").startswith(library + "."):
        return None  # `@policy` where `policy = retry(...)` sits elsewhere: no obvious edit here
    edits: list[NodeEdit] = []
    if qualified is not None:
        spelled = imported_name(ctx, qualified, head)
        if spelled is None:
            return None
        name, edits = spelled
        value = f"{name}({value})"
    if call is None:
        if not isinstance(head, (cst.Name, cst.Attribute)):
            return None
        bare = cst.Call(func=head.with_changes(lpar=[], rpar=[]), args=[])
        edits.append(NodeEdit(head, add_keyword(bare, keyword, value)))
    else:
        if any(a.star for a in call.args):
            return None
        edits.append(set_keyword(call, keyword, value))
    return RawFix(message.format(value=value), tuple(edits))


# --------------------------------------------------------------------------- applying edits to text


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(m.end() for m in _LINE_BREAK.finditer(text))
    return starts


def _offset(starts: list[int], text: str, line: int, column: int) -> int:
    if line > len(starts):
        return len(text)
    return min(starts[line - 1] + column - 1, len(text))


@dataclass(frozen=True)
class _Placed:
    start: int
    end: int
    content: str


def apply_fixes(text: str, fixes: Sequence[Fix]) -> tuple[str, list[int]]:
    """Apply every fix whose edits overlap no other's (in order of position); returns the text and which were.

    An edit identical to one already applied counts as applied (two fixes that
    add the same import). Insertions at one point, or edits that touch, count
    as overlapping: the later fix waits for the next pass.
    """
    starts = _line_starts(text)
    newline = newline_of(text)
    placed: list[_Placed] = []
    applied: list[int] = []

    def place(e: Edit) -> _Placed:
        start = _offset(starts, text, e.line, e.column)
        end = _offset(starts, text, e.end_line, e.end_column)
        content = e.content
        if start == end == len(text) and text and not text.endswith(("\n", "\r")) and e.column == 1 and e.line > len(starts):
            content = newline + content  # a line after the last one, which has no line break
        return _Placed(start, max(start, end), content)

    def ordered(fix: Fix) -> tuple[int, int]:
        first = min(fix.edits)
        return (first.line, first.column)

    for index in sorted((i for i, f in enumerate(fixes) if f.edits), key=lambda i: ordered(fixes[i])):
        fix = fixes[index]
        mine = [place(e) for e in fix.edits]
        new = [p for p in mine if p not in placed]
        if any(p.start <= q.end and q.start <= p.end for p in new for q in placed) or any(
            p.start <= q.end and q.start <= p.end for i, p in enumerate(new) for q in new[i + 1:]
        ):
            continue
        placed.extend(new)
        applied.append(index)
    out = text
    for p in sorted(placed, key=lambda p: (p.start, p.end), reverse=True):
        out = out[: p.start] + p.content + out[p.end:]
    return out, applied


def parses(text: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


@dataclass
class FixResult:
    text: str
    fixed: list[Finding] = field(default_factory=list)  # the findings whose fix was applied
    remaining: list[Finding] = field(default_factory=list)  # findings of the fixed text

    @property
    def changed(self) -> bool:
        return bool(self.fixed)


def fix_text(
    text: str, path: str, config: "Config", findings: Sequence[Finding] | None = None, *, unsafe: bool = True
) -> FixResult:
    """Fix ``text`` (decoded, no BOM) over up to :data:`MAX_PASSES` passes; ``findings``: the first pass's, if known.

    ``unsafe=False`` applies the safe fixes only (``smullyan lint --fix``); the command line passes
    ``--unsafe-fixes`` (or the configuration's ``unsafe-fixes``) here.
    """
    from .engine import lint_source

    result = FixResult(text)
    current = list(findings) if findings is not None else lint_source(text, path, config)
    for _ in range(MAX_PASSES):
        todo = fixable(current, config, unsafe=unsafe)
        if not todo:
            break
        new_text, applied = apply_fixes(result.text, [f.fix for f in todo if f.fix is not None])
        if not applied or new_text == result.text or not parses(new_text):
            break
        result.fixed.extend(todo[i] for i in applied)
        result.text = new_text
        current = lint_source(new_text, path, config)
    result.remaining = current
    return result


# --------------------------------------------------------------------------- files


def fix_file(
    path: str,
    config: "Config",
    findings: Sequence[Finding] | None = None,
    *,
    write: bool = True,
    unsafe: bool = True,
) -> tuple[Source, FixResult] | None:
    """Fix one file on disk (``write=False``: compute only). None when it cannot be read or decoded."""
    try:
        source = read(path)
    except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
        return None
    result = fix_text(source.text, path, config, findings, unsafe=unsafe)
    if write and result.changed:
        write_atomic(path, source.encode(result.text))
    return source, result


def diff(path: str, before: str, after: str) -> str:
    """A unified diff of one file (``--- path`` / ``+++ path``, as ruff prints it)."""
    def lines(text: str) -> list[str]:
        out = [text[a:b] for a, b in zip(_line_starts(text), _line_starts(text)[1:] + [len(text)])]
        out = [line for line in out if line]
        if out and not out[-1].endswith(("\n", "\r")):
            out[-1] += "\n\\ No newline at end of file\n"
        return out

    return "".join(difflib.unified_diff(lines(before), lines(after), fromfile=path, tofile=path))



# --------------------------------------------------------------------------- TFH201: fixes that would hurt

#: the exception a new ``timeout=`` can raise, by the call's module (its handler must catch it): the
#: names a handler may catch it by, by their last part (``requests.exceptions.Timeout``) or, for a
#: name another module also uses (``TimeoutError``, ``error``), by its qualified name
_SOCKET = frozenset({"timeout", "TimeoutError", "OSError", "IOError", "EnvironmentError", "socket.error"})
_TIMEOUT_CATCHERS: dict[str, frozenset[str]] = {
    "subprocess": frozenset({"TimeoutExpired", "SubprocessError"}),
    "requests": frozenset({"Timeout", "ReadTimeout", "RequestException", "IOError", "OSError"}),
    "httpx": frozenset({"TimeoutException", "ReadTimeout", "TransportError", "RequestError", "HTTPError"}),
    "urllib": _SOCKET,
    # a socket timeout (`socket.timeout`, an OSError): the stdlib clients built on a socket
    **dict.fromkeys(("socket", "smtplib", "ftplib", "imaplib", "poplib", "http", "telnetlib", "nntplib"), _SOCKET),
    # `asyncio.wait_for`, and aiohttp's total deadline, raise `asyncio.TimeoutError` (not a ClientError)
    "asyncio": frozenset({"TimeoutError", "asyncio.TimeoutError"}),
    **dict.fromkeys(("aiohttp", "anyio", "async_timeout"), frozenset({"TimeoutError", "asyncio.TimeoutError"})),
    # redis' own TimeoutError (a RedisError, not the builtin)
    "redis": frozenset({"redis.TimeoutError", "redis.RedisError", "redis.exceptions.TimeoutError",
                        "redis.exceptions.RedisError"}),
}
_CATCH_ALL = frozenset({"Exception", "BaseException"})
#: names that mean different exceptions in different modules: matched by qualified name only
_AMBIGUOUS = frozenset({"TimeoutError", "error", "RedisError"})


def _catches(caught: str, catchers: frozenset[str]) -> bool:
    if caught in catchers:
        return True
    last = caught.rsplit(".", 1)[-1]
    if last not in catchers:
        return False
    # `TimeoutError` is the builtin (and asyncio's alias of it) unless it came from elsewhere
    return last not in _AMBIGUOUS or caught == last or (last == "TimeoutError" and "redis.TimeoutError" not in catchers)


def timeout_escapes_handler(qualname: str, handlers: "list[list[str]]") -> bool:
    """Whether a timeout added to a call of ``qualname`` could raise past the handlers around it
    (``try`` statements and ``contextlib.suppress`` blocks, innermost first; each a list of caught
    names, ``[]`` a bare ``except``): the first one decides: fine when it catches the timeout's
    exception (or everything), else the fix would let a new exception escape the handler that
    catches the call's other failures."""
    root = qualname.split(".")[0]
    catchers = _TIMEOUT_CATCHERS.get(root)
    for caught in handlers:
        if not caught:
            return False  # bare except
        if {c.rsplit(".", 1)[-1] for c in caught} & _CATCH_ALL:
            return False
        if catchers is None:
            return True  # an exception we cannot judge: no fix under a narrow handler
        return not any(_catches(c, catchers) for c in caught)
    return False
