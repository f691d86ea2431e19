"""Loop shapes read in s40: a ``while`` whose test is the length of a list its ``try`` grows (it ends on success
only), and a loop whose ``try`` asks a person (a prompt asked again, not a retry)."""

from __future__ import annotations

import libcst as cst

from ...linter.api import dotted, knowledge
from .status_loops import all_nodes


def _grown_names(test: cst.BaseExpression) -> set[str]:
    """The names whose length a comparison tests: ``while idx >= len(decoded):`` -> ``decoded``."""
    if not isinstance(test, cst.Comparison):
        return set()
    return {
        n.args[0].value.value
        for n in all_nodes(test)
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == "len"
        and len(n.args) == 1 and isinstance(n.args[0].value, cst.Name)
    }


def grows_to_success(loop: cst.While, trynode: cst.Try) -> bool:
    """``while idx >= len(decoded): try: decoded.append(sample()) except ...: sleep``: the ``try`` body (or
    ``else``) appends to the list whose length the loop tests at its top level, so the loop ends on success
    only; a failure goes round for ever (s40: ai-researcher's data builder)."""
    grown = _grown_names(loop.test)
    if not grown:
        return False
    suites: list[cst.BaseSuite] = [trynode.body] + ([trynode.orelse.body] if trynode.orelse is not None else [])
    for suite in suites:
        for stmt in suite.body if isinstance(suite, cst.IndentedBlock) else ():
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                value = small.value if isinstance(small, cst.Expr) else None
                if (
                    isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                    and value.func.attr.value in ("append", "extend")
                    and isinstance(value.func.value, cst.Name) and value.func.value.value in grown
                ):
                    return True
    return False


def asks_a_person(trynode: cst.Try) -> bool:
    """The ``try`` body asks the person at the terminal (``input(...)``, ``getpass.getpass(...)``): a failure
    (a value that does not parse) asks again, and the person ends it; not a retry of a failed call (s40:
    camel-oasis's manual action loop)."""
    return any(
        isinstance(n, cst.Call) and dotted(n.func) in knowledge.PERSON_PROMPT_CALLS for n in all_nodes(trynode.body)
    )
