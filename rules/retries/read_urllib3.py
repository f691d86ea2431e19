"""The urllib3 reader: ``Retry(total=, allowed_methods=, status_forcelist=, respect_retry_after_header=)``.

urllib3's defaults: 10 retries (11 attempts), the idempotent methods, no
status retried, ``Retry-After`` honoured.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import dotted, keyword_arg, positional
from ...linter.api import knowledge as kb
from .data import UNKNOWN, Condition, Retry, Stop
from .literals import _SAMPLE, _int, _ints
from .reader import Reader


class Urllib3Reader(Reader):
    def _urllib3_retry(self, node: cst.Call) -> Retry:
        retry = Retry("urllib3", node)
        if any(a.star == "**" for a in node.args):
            return retry
        methods = keyword_arg(node, "allowed_methods") or keyword_arg(node, "method_whitelist")
        if methods is None:
            retry.methods = kb.URLLIB3_DEFAULT_METHODS
        elif dotted(methods.value) in ("None", "False"):
            retry.methods = None
        elif isinstance(methods.value, (cst.List, cst.Tuple, cst.Set)) or (
            isinstance(methods.value, cst.Call) and dotted(methods.value.func) in ("frozenset", "set", "list", "tuple")
        ):
            elems = methods.value.elements if not isinstance(methods.value, cst.Call) else (
                methods.value.args[0].value.elements if methods.value.args and isinstance(methods.value.args[0].value, (cst.List, cst.Tuple, cst.Set)) else None
            )
            texts = [el.value.evaluated_value for el in elems or () if isinstance(el.value, cst.SimpleString)]
            retry.methods = frozenset(str(t).upper() for t in texts) if elems is not None and len(texts) == len(elems) else UNKNOWN
        forcelist = keyword_arg(node, "status_forcelist")
        if forcelist is None:
            retry.condition = Condition(default=True, statuses=frozenset())
        else:
            statuses = _ints(forcelist.value)
            retry.condition = Condition(node=forcelist.value, statuses=statuses & _SAMPLE) if statuses is not None else UNKNOWN
        total = keyword_arg(node, "total") or (positional(node)[0] if positional(node) else None)
        if total is None:
            retry.stop = Stop(attempts=11)
        else:
            v = _int(total.value)
            retry.stop = Stop(total.value, attempts=v + 1) if v is not None else (Stop(total.value, never=True) if dotted(total.value) in ("None", "False") else UNKNOWN)
        respect = keyword_arg(node, "respect_retry_after_header")
        retry.honours_retry_after = respect is None or dotted(respect.value) != "False"
        return retry
