"""s49 (issue 24): a runner's handler that stands in for the tool's result (TFH401).

A tool runner's ``try`` binds a name to what the tool returns (``result = await tool.call(args, ctx)``, ``result =
tool.execute(action.args)``: a tool run, :func:`~.remote.runs_tool`), and its handler binds the same name to a
tool's result object built with the text (``result = ToolResult(result_for_model=f"Error executing tool: {e}",
is_error=True)``): nothing is returned in the handler, but the value takes the tool result's place, and goes where
the successful run's result goes: the model's tool message (crabcode's and zall's query loops). Only a constructor
named for a tool's result (``tool_result``) assigned to a name the same ``try`` binds to a tool run's result.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import Knowledge, walk_in_scope
from .remote import runs_tool

__all__ = ["stands_in"]


def stands_in(node: cst.Assign, statement: cst.CSTNode, knowledge: Knowledge) -> bool:
    """``node`` (in a handler of ``statement``) binds a name that ``statement``'s body binds to a tool run's result."""
    targets = {t.target.value for t in node.targets if isinstance(t.target, cst.Name)}
    body = getattr(statement, "body", None)
    if not targets or not isinstance(body, cst.BaseSuite):
        return False
    for n in walk_in_scope(body):
        if isinstance(n, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value in targets
                                             for t in n.targets):
            value = n.value.expression if isinstance(n.value, cst.Await) else n.value
            if isinstance(value, cst.Call) and runs_tool(cst.IndentedBlock(body=[cst.SimpleStatementLine(
                    body=[cst.Expr(value=value)])]), knowledge):
                return True
    return False
