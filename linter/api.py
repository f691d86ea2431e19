"""The rule API: the one module of the engine that rules and the family models under ``rules/`` import.

A rule file (``rules/<family>/tfhNNN_<name>.py``) imports from here and from
its own family's package (``rules/retries/``, ``rules/timeouts/``,
``rules/union/``, ``rules/errors/``), nothing else of ``smullyan.linter``;
an import-linter contract in ``pyproject.toml`` holds it so. What is here:

- the rule base and what a rule is handed: :class:`Rule`, :class:`FileContext`
  (``ctx``: names, knowledge, models, the screen), :class:`Screen` (the cheap
  ``ast`` facts a rule's ``candidate_lines`` reads), :class:`NodeEdit` and
  :class:`RawFix` (what a fix is made of);
- the knowledge: the :class:`Knowledge` type a rule reads through
  ``self.ctx.knowledge``, the docs helpers, and the ``knowledge`` module itself
  for the family models, which read its tables;
- the name resolver's types (:class:`Names`, :class:`Handler`), the project's own imports followed on
  disk (:func:`imported_definition`, :func:`imported_method`: ``imports_disk.py``), the node helpers
  (``dotted``, ``keyword_arg``, ``walk_in_scope`` ...), what a call does to the
  world (``effects``), the fix builders, and :func:`node_lines`.
"""

from __future__ import annotations

from . import effects, knowledge
from .effects import (
    Effect, classify_call, declared_class, has_idempotency_key, inference_body, outside_screen, reaches_outside,
)
from .foreground_callers import foreground_only, summarise as summarise_callers
from .project_refusals import own_refusal
from .project_routes import route_template, serves_route
from .imports_ast import imported_definition_ast
from .imports_disk import imported_by, imported_definition, imported_method, project_call_arguments, project_method_stays_local, project_only_calls
from .importers import console_scripts, importing_modules, shares_import
from .imports_programs import project_program
from .held_names import attribute_names
from .imports_members import imported_global_member, imported_member, imported_member_default, local_member, held_attributes
from .client_defaults import client_default, family_paths
from .imports_params import parameter_client, self_assigned
from .returned import function_program, function_programs
from .tool_functions import decorator_names, registered_tool
from .project_tools import in_project_tool
from .fixes import add_keyword, expression, imported_name, imported_names, retry_keyword_fix, set_keyword
from .knowledge import Knowledge, TimeoutParam, canonical, markdown_calls, markdown_words
from .names import Handler, Names
from .nodes import (
    SCOPE_NODES_CST,
    argument,
    assignment_targets,
    chain_root,
    children,
    dotted,
    elements,
    every_node,
    handler_name,
    handler_types,
    has_star,
    is_none,
    keyword_arg,
    last_name,
    positional,
    receiver_name,
    string_literal,
    walk_in_scope,
)
from .lexical import lexical_children
from .scope_ast import SCOPE_NODES_AST, walk_in_scope_ast
from .positions import node_lines
from .rule import FileContext, NodeEdit, RawFinding, RawFix, Rule, Screen
from .fixes import timeout_escapes_handler

__all__ = [
    "decorator_names", "registered_tool", "in_project_tool",
    "effects", "knowledge",
    "Effect", "classify_call", "declared_class", "has_idempotency_key", "inference_body", "outside_screen",
    "reaches_outside",
    "add_keyword", "expression", "imported_name", "imported_names", "retry_keyword_fix", "set_keyword",
    "Knowledge", "TimeoutParam", "canonical", "markdown_calls", "markdown_words",
    "Handler", "Names", "console_scripts", "imported_by", "importing_modules", "imported_definition", "imported_definition_ast", "imported_method", "imported_member", "imported_member_default", "client_default", "family_paths", "imported_global_member", "local_member", "held_attributes", "attribute_names", "parameter_client", "self_assigned", "project_call_arguments", "project_method_stays_local", "project_only_calls",
    "foreground_only", "summarise_callers",
    "function_program", "function_programs", "own_refusal", "project_program", "route_template", "serves_route", "shares_import",
    "SCOPE_NODES_AST", "SCOPE_NODES_CST", "argument", "assignment_targets", "chain_root", "children", "dotted", "elements", "every_node", "handler_name", "handler_types",
    "has_star", "is_none", "keyword_arg", "last_name", "lexical_children", "positional", "receiver_name", "string_literal", "walk_in_scope",
    "walk_in_scope_ast",
    "node_lines",
    "FileContext", "NodeEdit", "RawFinding", "RawFix", "Rule", "Screen",
    "timeout_escapes_handler",
]
