"""A loop that goes round only on a context-window error and sends a smaller request each round (TFH303, s48).

TFH303's "How to label" (s46): a loop whose every going-round path sends a *different* request is not the target
when what its handler catches is the failure the change answers; a wait would not change the answer. For a request
too large for the model's context window (litellm's ``ContextWindowExceededError``, a package's ``ContextFull``) the
answer is a smaller request, read here in the two forms found in batches 20-21:

- ``for limit in (2000, 200):`` whose attempt reads ``limit`` (directly or through a name bound from it before the
  ``try``): each round sends the next, smaller budget;
- ``while True: try: ...(keep) except ContextWindowExceededError: pass`` and, after the ``try`` on the way round,
  ``keep = keep // 2``: a name the attempt reads rebound before the next round.

A handler that also catches anything else (a rate limit, every exception) is not this: the smaller request does not
lift a 429 (TFH303 stays).
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import dotted
from ...linter.api import knowledge as kb
from .data import Loop
from .paths import _after_try, _before_try, _walk, _walk_all


def _context_error(name: str) -> bool:
    flat = name.rsplit(".", 1)[-1].lower().replace("_", "")
    return any(word in flat for word in kb.CONTEXT_WINDOW_WORDS)


def catches_only_context_errors(handler: cst.ExceptHandler) -> bool:
    """The handler names only context-window errors (a bare or broad handler does not)."""
    if handler.type is None:
        return False
    elems = handler.type.elements if isinstance(handler.type, (cst.Tuple, cst.List)) else None
    types = [el.value for el in elems] if elems is not None else [handler.type]
    names = [dotted(t) for t in types]
    return bool(names) and all(n is not None and _context_error(n) for n in names)


def _read_by_attempt(loop: Loop) -> set[str]:
    return {
        name for n in _walk_all([loop.try_node.body, *_before_try(loop)])
        if isinstance(n, (cst.Name, cst.Attribute)) and (name := dotted(n))
    }


def _continues(handler: cst.ExceptHandler) -> bool:
    return any(isinstance(n, cst.Continue) for n in _walk(handler.body))


def shrinks_on_context_error(loop: Loop, handler: cst.ExceptHandler) -> bool:
    """The handler catches only a context-window error and the next round sends another request: the loop steps
    through a literal sequence the attempt reads, or (the handler falling through) the statements after the ``try``
    rebind a name the attempt reads."""
    if not catches_only_context_errors(handler):
        return False
    read = _read_by_attempt(loop)
    node = loop.node
    if (
        isinstance(node, cst.For) and isinstance(node.target, cst.Name) and isinstance(node.iter, (cst.Tuple, cst.List))
        and node.target.value in read
    ):
        return True
    if _continues(handler):
        return False
    rebound: set[str] = set()
    for n in _walk_all(_after_try(loop)):
        if isinstance(n, cst.AugAssign) and (name := dotted(n.target)):
            rebound.add(name)
        elif isinstance(n, cst.Assign):
            rebound.update(name for t in n.targets if (name := dotted(t.target)))
    return bool(rebound & read)
