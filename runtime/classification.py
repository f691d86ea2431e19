"""Classify every call first: what may be retried, what must be keyed, what must never repeat.

Four bare decorators mark a function (``def`` or ``async def``) with how safe
it is to call twice. They return the very function they were given, so its
signature, its ``async``-ness and its type (for mypy) are unchanged::

    @read_safe            # a read: retry freely
    def get_balance(account: str) -> int: ...

    @idempotent_write     # doing it twice is doing it once (PUT, upsert, set)
    def set_status(order: str, status: str) -> None: ...

    @non_idempotent_write # doing it twice does it twice (POST /charges): key it
    async def charge_card(card: str, cents: int) -> str: ...

    @irreversible         # cannot be undone or repeated (send an e-mail, wire money)
    def send_email(to: str, body: str) -> None: ...

:func:`classification_of` reads the mark back, through ``calling_api(...)``,
``functools.partial`` and the runtime's stages, which carry it forward.

``clock.retrying(...)`` reads it when a pipeline is built and refuses a retry
over a ``non_idempotent_write`` that is not keyed (see
:func:`smullyan.runtime.keyed`) and over any ``irreversible`` tool. An
unclassified tool keeps the behaviour it had.

The linter reads these decorators statically by their qualified names
``smullyan.runtime.<name>`` and ``smullyan.runtime.classification.<name>``.
"""

from __future__ import annotations

import functools
import inspect
import types
from typing import Any, Callable, Final, Literal, TypeVar, get_args

__all__ = [
    "Classification",
    "CLASSIFICATIONS",
    "read_safe",
    "idempotent_write",
    "non_idempotent_write",
    "irreversible",
    "classification_of",
]

Classification = Literal["read_safe", "idempotent_write", "non_idempotent_write", "irreversible"]
"""How safe a call is to repeat, from safest to least safe."""

CLASSIFICATIONS: Final[tuple[Classification, ...]] = get_args(Classification)
"""Every classification, from safest to least safe."""

F = TypeVar("F", bound=Callable[..., Any])

_ATTR: Final = "__smullyan_classification__"


def _mark(fn: F, classification: Classification, decorator: str) -> F:
    if isinstance(fn, (staticmethod, classmethod)):  # the mark above @staticmethod: the function inside
        _mark(fn.__func__, classification, decorator)
        return fn
    if not callable(fn):
        raise TypeError(f"@{decorator} decorates a function, got {fn!r}")
    previous = getattr(fn, _ATTR, None)
    if previous is not None and previous != classification:
        raise TypeError(
            f"{_describe(fn)} is already classified {previous!r}; it cannot also be {classification!r}"
        )
    try:
        setattr(fn, _ATTR, classification)
    except (AttributeError, TypeError):
        raise TypeError(
            f"@{decorator} cannot mark {fn!r} (it takes no attributes); decorate the def itself"
        ) from None
    code = getattr(fn, "__code__", None)
    if isinstance(code, types.CodeType) and classification in _UNSAFE:
        _UNSAFE_CODE[code] = (classification, _describe(fn))
    return fn


def read_safe(fn: F) -> F:
    """Mark ``fn`` as a read: no effect, safe to call any number of times."""
    return _mark(fn, "read_safe", "read_safe")


def idempotent_write(fn: F) -> F:
    """Mark ``fn`` as a write whose repetition has no further effect (a PUT, an upsert)."""
    return _mark(fn, "idempotent_write", "idempotent_write")


def non_idempotent_write(fn: F) -> F:
    """Mark ``fn`` as a write that repeats its effect when repeated: retry it only when keyed."""
    return _mark(fn, "non_idempotent_write", "non_idempotent_write")


def irreversible(fn: F) -> F:
    """Mark ``fn`` as an effect that cannot be undone: it is never retried automatically."""
    return _mark(fn, "irreversible", "irreversible")


def classification_of(fn: object) -> Classification | None:
    """The classification of ``fn``, or None when it has none.

    Looks through ``functools.partial`` and ``__wrapped__`` chains (what
    ``functools.wraps`` leaves); the runtime's own wrappers copy the mark.
    """
    seen = 0
    while fn is not None and seen < 100:
        mark = getattr(fn, _ATTR, None)
        if mark in CLASSIFICATIONS:
            return mark  # type: ignore[no-any-return]
        if not isinstance(fn, (type, *_FUNCTIONS, functools.partial)):  # an instance: its class's __call__
            mark = getattr(getattr(type(fn), "__call__", None), _ATTR, None)
            if mark in CLASSIFICATIONS:
                return mark  # type: ignore[no-any-return]
        if isinstance(fn, functools.partial):
            fn = fn.func
        else:
            fn = getattr(fn, "__wrapped__", None)
        seen += 1
    return None


def carry(source: object, target: F) -> F:
    """Copy ``source``'s runtime marks (classification, key, the user's name) onto the wrapper ``target``."""
    try:
        setattr(target, _NAME, tool_name(source))
        setattr(target, ORIGIN, getattr(source, ORIGIN, source))
    except (AttributeError, TypeError):  # pragma: no cover - a wrapper without __dict__
        pass
    for attr in _CARRIED:
        value = classification_of(source) if attr == _ATTR else getattr(source, attr, None)
        if value is not None:
            try:
                setattr(target, attr, value)
            except (AttributeError, TypeError):  # pragma: no cover - a wrapper without __dict__
                pass
    return target


def _describe(fn: object) -> str:
    return str(getattr(fn, "__qualname__", None) or repr(fn))


_NAME: Final = "__smullyan_tool__"
ORIGIN: Final = "__smullyan_origin__"
"""The user's callable a runtime wrapper was built on (its signature is the wrapper's, for checks)."""
_UNSAFE: Final[tuple[Classification, ...]] = ("irreversible", "non_idempotent_write")
_UNSAFE_CODE: dict[types.CodeType, tuple[Classification, str]] = {}
"""The code of every function marked unsafe: the block form finds them in a traceback."""
_FUNCTIONS: Final = (types.FunctionType, types.MethodType, types.BuiltinFunctionType, types.BuiltinMethodType)


def tool_name(fn: object) -> str:
    """The user's name for a tool: through the runtime's wrappers, to the function (or class) it was built on.

    ``carry`` passes it on, so a whole pipeline answers with its tool's name
    (refusal messages; ``traced(...)``'s default span name), not the name of its outer stage.
    """
    carried = getattr(fn, _NAME, None)
    if isinstance(carried, str):
        return carried
    if isinstance(fn, functools.partial):
        return f"partial({tool_name(fn.func)})"
    if not isinstance(fn, (type, *_FUNCTIONS)) and not hasattr(fn, "__qualname__"):
        return f"{type(fn).__qualname__}.__call__"
    code = getattr(fn, "__code__", None)
    if getattr(fn, "__name__", None) == "<lambda>" and isinstance(code, types.CodeType):
        return f"the lambda at {code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno}"
    return _describe(fn)


def unsafe_in_traceback(tb: types.TracebackType | None) -> tuple[Classification, str] | None:
    """The unsafe marked function an exception came out of (its frame is in ``tb``), if any."""
    depth = 0
    while tb is not None and depth < 1000:
        hit = _UNSAFE_CODE.get(tb.tb_frame.f_code)
        if hit is not None:
            return hit
        tb = tb.tb_next
        depth += 1
    return None


def wrapped_unsafe(
    fn: object, keyed: Callable[[object], bool] = lambda _: False, depth: int = 4
) -> tuple[Classification, str] | None:
    """An unsafe mark the unmarked callable ``fn`` hides: a marked function it refers to.

    A lambda or a decorator without ``functools.wraps`` around a
    ``non_idempotent_write`` or ``irreversible`` function carries no mark;
    the functions its closure holds, and the global names (and their
    attributes) its code uses, say what it may call. Returns the least safe
    such mark and that function's name, or None. A ``non_idempotent_write``
    for which ``keyed`` holds is safe to retry and not reported.
    """
    found: tuple[Classification, str] | None = None
    seen: set[int] = set()

    def consider(obj: object) -> None:
        nonlocal found
        kind = classification_of(obj)
        if kind == "non_idempotent_write" and keyed(obj):  # a keyed write may be retried
            return
        if kind in _UNSAFE and (found is None or _UNSAFE.index(kind) < _UNSAFE.index(found[0])):
            found = (kind, tool_name(obj))

    def visit(obj: object, left: int) -> None:
        if left <= 0 or id(obj) in seen:
            return
        seen.add(id(obj))
        while isinstance(obj, functools.partial):
            consider(obj.func)
            obj = obj.func
        wrapped = getattr(obj, "__wrapped__", None)
        if wrapped is not None:
            visit(wrapped, left - 1)
        code = getattr(obj, "__code__", None)
        if not isinstance(code, types.CodeType):
            return
        for cell in getattr(obj, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if callable(value):
                if classification_of(value) is not None or keyed(value):
                    consider(value)  # marked (or keyed): what it is, not what it wraps
                else:
                    visit(value, left - 1)
        names = _names(code)
        module = getattr(obj, "__globals__", {})
        for name in names:
            value = module.get(name)
            if value is None:
                continue
            if callable(value) and not isinstance(value, type):
                consider(value)
            if isinstance(value, (type, types.ModuleType)):
                for attr in names:
                    try:
                        member = inspect.getattr_static(value, attr)
                    except AttributeError:
                        continue
                    if isinstance(member, (staticmethod, classmethod)):
                        member = member.__func__
                    if callable(member):
                        consider(member)

    visit(fn, depth)
    return found


def _names(code: types.CodeType) -> set[str]:
    """The global and attribute names ``code`` (and the code nested in it) uses."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


_CARRIED: list[str] = [_ATTR]
"""The attributes :func:`carry` copies; the keys module adds its own."""
