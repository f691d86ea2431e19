"""The one core of the four adapters: what passes, what the model reads, what is logged.

Standard library and the runtime only; no framework is imported here. Each
framework file builds one :class:`Shell` (its control signals by qualified
class name, its logger) and keeps to what differs: how its framework carries
an error.

- **What passes through.** A ``BaseException`` that is no ``Exception``
  (``KeyboardInterrupt``, ``SystemExit``, ``GeneratorExit``), any
  ``asyncio.CancelledError`` (also a framework's own subclass of it), and the
  framework's control signals: exceptions one of whose classes along the MRO
  has a qualified name in :attr:`Shell.signals`. Names, not classes: nothing is
  imported to check them, and a name a framework version lacks simply never
  matches.
- **What the model reads.** :func:`bounded` (every text field cleaned as
  ``explain`` cleans it and cut to 120 characters (``MAX_FIELD_CHARS``); ``got``
  and ``cause`` bounded in size and depth), so ``explain`` is at most
  :data:`MAX_TEXT_BYTES` bytes and the wire form at most
  :data:`MAX_ENVELOPE_BYTES` bytes of UTF-8.
- **What an exception becomes.** A ``ToolFailure`` gives its own error; a
  framework-known exception (a tool timeout, a validation error) its mapped
  error; a custom ``classify`` what it returns; anything else
  ``from_exception``, with every text field that came from the exception's
  message withheld (``Unknown("ValueError (details withheld)")``) unless
  ``show_exception_messages`` is set.
- **What is logged.** An exception the adapter turns into an error is logged on
  the framework's logger: ``Unknown`` at ERROR with the traceback, a classified
  one at INFO without it. The error a framework exception carries is raised
  ``from`` the original, so ``__cause__`` keeps it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

from .. import _errors as e
from .._explain import MAX_SUGGESTIONS, explain, quote
from .._mapping import from_exception
from .._wire import dump, dump_json, parse_json

__all__ = [
    "MARK",
    "MAX_ENVELOPE_BYTES",
    "MAX_TEXT_BYTES",
    "Shell",
    "bounded",
    "is_transient",
    "recover",
    "render",
    "qualified_names",
]

MAX_TEXT_BYTES: Final = 4096
"""The most bytes (UTF-8) of ``explain`` an adapter lets a model read for one error."""

MAX_ENVELOPE_BYTES: Final = 4096
"""The most bytes (UTF-8, compact JSON) of the wire envelope an adapter sends for one error."""

MARK: Final = "\u2063ToolError\u2063 "
"""What starts the envelope line of a text-only channel.

U+2063 (invisible separator) is a format character: ``explain`` and
:func:`bounded` remove every one, and an adapted tool's successful string
output has this mark replaced (:func:`unmark`), so no tool output that went
through an adapter can end in an envelope line.
"""

WITHHELD: Final = "details withheld"

VARIANTS: Final[tuple[type, ...]] = (
    e.RateLimited, e.InvalidArgs, e.NotFound, e.Timeout, e.Unavailable, e.Denied, e.Unknown,
)

_MAX_ITEMS: Final = MAX_SUGGESTIONS
_MAX_DEPTH: Final = 3


def qualified_names(cls: type) -> Iterable[str]:
    """``module.QualName`` of every class along ``cls``'s MRO."""
    for klass in cls.__mro__:
        yield f"{getattr(klass, '__module__', '')}.{getattr(klass, '__qualname__', '')}"


def _text(value: object) -> str:
    """``value`` as ``quote`` makes it, without the quotes: one clean bounded line."""
    return quote(value)[1:-1]


def _bounded_value(value: object, depth: int = 0) -> object:
    """A JSON value with every string cleaned and cut, at most 5 items a level, 3 levels deep."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if -(2**53) <= value <= 2**53 else _text(value)
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else _text(value)
    if isinstance(value, str):
        return _text(value)
    if depth < _MAX_DEPTH:
        if isinstance(value, (list, tuple)):
            items = [_bounded_value(v, depth + 1) for v in value[:_MAX_ITEMS]]
            return items + ["…"] if len(value) > _MAX_ITEMS else items
        if isinstance(value, Mapping):
            try:
                pairs = list(value.items())
            except Exception:
                return _text(value)
            out = {_text(str(k)): _bounded_value(v, depth + 1) for k, v in pairs[:_MAX_ITEMS]}
            if len(pairs) > _MAX_ITEMS:
                out["…"] = f"{len(pairs) - _MAX_ITEMS} more"
            return out
    return _text(value)


def bounded(error: e.ToolError) -> e.ToolError:
    """``error`` with every field as a model may read it: cleaned, cut, bounded.

    Text fields are cleaned as ``explain`` cleans what it embeds (line breaks,
    control, format and invisible characters removed, quotation marks made
    ``'``) and cut to 120 characters (``MAX_FIELD_CHARS``); at most
    :data:`~smullyan.runtime._explain.MAX_SUGGESTIONS` suggestions; ``got`` keeps
    its JSON shape, bounded in items and depth; an ``Unknown``'s ``cause`` is
    its bounded text. A short clean error comes back equal to itself.
    """
    match error:
        case e.RateLimited(ms, limit):
            return e.RateLimited(None if ms is None else max(0, ms), None if limit is None else _text(limit))
        case e.InvalidArgs(path, expected, got):
            return e.InvalidArgs(_text(path), _text(expected), _bounded_value(got))
        case e.NotFound(searched, suggestions):
            kept = None if suggestions is None else tuple(_text(s) for s in suggestions[:_MAX_ITEMS])
            return e.NotFound(_text(searched), kept)
        case e.Timeout(ms):
            return e.Timeout(max(0, ms))
        case e.Unavailable(reason, status, ms):
            return e.Unavailable(_text(reason), status, None if ms is None else max(0, ms))
        case e.Denied(reason, required):
            return e.Denied(_text(reason), None if required is None else _text(required))
        case e.Unknown(message, cause):
            return e.Unknown(_text(message), None if cause is None else _bounded_value(cause))
        case _:
            e.assert_never(error)


def _fits(error: e.ToolError) -> e.ToolError:
    """:func:`bounded`, then cut to the byte bounds whatever the fields held."""
    error = bounded(error)
    # Only a nested ``got`` or ``cause`` can pass the bound (every other field is one cut string):
    # past it, it becomes one cut string too. explain() quotes ``got`` cut already.
    if len(dump_json(error).encode()) <= MAX_ENVELOPE_BYTES:
        return error
    match error:
        case e.InvalidArgs(path, expected, got):
            return e.InvalidArgs(path, expected, _text(json.dumps(got, ensure_ascii=False)))
        case e.Unknown(message, cause):
            return e.Unknown(message, _text(json.dumps(cause, ensure_ascii=False)))
        case e.RateLimited() | e.NotFound() | e.Timeout() | e.Unavailable() | e.Denied():
            return error  # one cut string a field: within the bound already
        case _:
            e.assert_never(error)


def render(error: e.ToolError, note: str | None = None) -> str:
    """The text of a text-only channel: ``explain``, then :data:`MARK` and the envelope.

    Two lines, always: every field is cleaned of line breaks first. ``note``
    (the adapter's own words, e.g. a retry budget) follows the explanation.
    """
    error = _fits(error)
    said = explain(error) if note is None else f"{explain(error)} {_text(note)}"
    return f"{said}\n{MARK}{dump_json(error)}"


def wire(error: e.ToolError) -> dict[str, object]:
    """The envelope for a structured channel: :func:`~smullyan.runtime.dump` of :func:`bounded`."""
    return dump(_fits(error))


def recover(text: object) -> e.ToolError | None:
    """The ToolError ``text`` carries when it is exactly what :func:`render` writes, else None.

    Exactly: two lines, the second :data:`MARK` and a valid envelope, the first
    that envelope's ``explain`` (and the adapter's note, if any). Trailing white
    space is ignored. Text a tool returned, even one ending in a JSON envelope,
    gives None.
    """
    if not isinstance(text, str) or MARK not in text:
        return None
    first, sep, last = text.rstrip().partition("\n")
    if not sep or not last.startswith(MARK):
        return None
    error = parse_json(last[len(MARK):], max_bytes=MAX_ENVELOPE_BYTES)
    if error is None:
        return None
    said = explain(error)
    if first != said and not first.startswith(said + " "):
        return None
    return error


def unmark(value: Any) -> Any:
    """A tool's successful output, with :data:`MARK` made harmless in a string (the rest unchanged)."""
    if isinstance(value, str) and "\u2063" in value:
        return value.replace("\u2063", "")
    return value


def is_transient(error: e.ToolError) -> bool:
    """True for the variants waiting can fix: ``RateLimited``, ``Timeout``, ``Unavailable``."""
    return isinstance(error, (e.RateLimited, e.Timeout, e.Unavailable))


def withheld(error: e.ToolError, exc: BaseException) -> e.ToolError:
    """``error`` (classified from ``exc``) without the text that came from the exception.

    The variant and its numbers stay (the wait, the status); text that came
    from the message, a URL or a response becomes the exception's type name.
    """
    name = f"{type(exc).__name__} ({WITHHELD})"
    match error:
        case e.RateLimited():
            return error
        case e.Timeout():
            return error
        case e.InvalidArgs(path, expected, _):
            return e.InvalidArgs(path, expected, name)
        case e.NotFound():
            return e.NotFound(name)
        case e.Unavailable(_, status, ms):
            return e.Unavailable(name, status, ms)
        case e.Denied(_, required):
            return e.Denied(name, required)
        case e.Unknown():
            return e.Unknown(name)
        case _:
            e.assert_never(error)


Known = Callable[[BaseException], "e.ToolError | None"]
"""A framework-specific reading of one exception class (by qualified name)."""


class Shell:
    """One framework's side of the core: its signals, its known exceptions, its logger."""

    __slots__ = ("framework", "signals", "known", "logger", "_passes")

    def __init__(
        self,
        framework: str,
        *,
        signals: Iterable[str] = (),
        known: Mapping[str, Known] | None = None,
        logger: str | None = None,
    ) -> None:
        self.framework = framework
        self.signals: frozenset[str] = frozenset(signals)
        self.known: dict[str, Known] = dict(known or {})
        self.logger: logging.Logger | None = logging.getLogger(logger) if logger else None
        self._passes: dict[type, bool] = {}

    def passes(self, exc: BaseException) -> bool:
        """True when ``exc`` is no tool's error: the framework (or Python) must see it as it is."""
        cls = type(exc)
        try:
            return self._passes[cls]
        except KeyError:
            pass
        verdict = (
            not isinstance(exc, Exception)
            or isinstance(exc, asyncio.CancelledError)
            or any(name in self.signals for name in qualified_names(cls))
        )
        self._passes[cls] = verdict
        return verdict

    def known_error(self, exc: BaseException) -> e.ToolError | None:
        """The error a framework-known exception stands for (a tool timeout ...), or None."""
        if not self.known:
            return None
        for name in qualified_names(type(exc)):
            reading = self.known.get(name)
            if reading is not None:
                try:
                    return reading(exc)
                except Exception:
                    return None
        return None

    def error_of(
        self,
        exc: BaseException,
        classify: Callable[[Exception], e.ToolError] | None = None,
        show_exception_messages: bool = False,
        tool_name: str = "tool",
    ) -> e.ToolError:
        """The ToolError an exception raised by a tool becomes for the model; logs it.

        Call it only for an exception :meth:`passes` refuses.
        """
        if isinstance(exc, e.ToolFailure):
            return exc.error
        error = self.known_error(exc)
        if error is not None:
            self._log(logging.INFO, tool_name, error, exc)
            return error
        if classify is not None and isinstance(exc, Exception):
            try:
                error = classify(exc)
            except Exception as broken:
                error = e.Unknown(f"{type(exc).__name__} (the classifier raised {type(broken).__name__})")
            if not isinstance(error, VARIANTS):
                error = e.Unknown(f"{type(exc).__name__} (the classifier returned no ToolError)")
            self._log(logging.ERROR if isinstance(error, e.Unknown) else logging.INFO, tool_name, error, exc)
            return error
        error = from_exception(exc)
        self._log(logging.ERROR if isinstance(error, e.Unknown) else logging.INFO, tool_name, error, exc)
        return error if show_exception_messages else withheld(error, exc)

    def _log(self, level: int, tool_name: str, error: e.ToolError, exc: BaseException) -> None:
        logger = self.logger
        if logger is None or not logger.isEnabledFor(level):
            return
        if level >= logging.ERROR:
            logger.log(level, "Tool %r raised an unexpected exception", tool_name, exc_info=exc)
        else:
            logger.log(level, "Tool %r failed: %s (%s)", tool_name, error.tag, type(exc).__name__)
