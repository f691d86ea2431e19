"""``smullyan tools``: find every tool an agent can call and describe its failure design.

Two phases over the files of a run, both on the process pool when ``--jobs`` asks:

1. **Index** (``ast`` only): each file's tool forms (decorators, wrapper calls,
   ``tools=[...]`` lists, subclasses of the frameworks' tool base classes) and
   the classes it defines with their bases, resolved from the file's imports
   (relative ones through its package). A file whose tools depend on nothing
   outside it (every base class is known or not from this project) is
   described at once, from the same ``ast`` tree.
2. **Describe** the rest, once the classes of every file are known (``class
   SendMessage(GmailBaseTool)`` in one file, ``class GmailBaseTool(BaseTool)``
   in another; ``ancestry.py`` follows them at any depth).

The modules, by job: ``model.py`` (the tables and the rows), ``index.py`` (one
file's ``ast``), ``forms.py`` (discovery, form by form; ``dispatch.py``: tool factories, a project's registry
decorator on a class, tools dispatched by the called name; ``registries.py``: a project's registry decorators on
functions, tool decorators applied by a call; ``gated.py``: a registry decorator handing its function to a gate given the server;
``toolwords.py``: the words of registry names; ``handing.py``: what a call hands a tool helper, ``*args`` too;
``handed.py``: tool classes built around a callable; ``servers.py``: project server
subclasses, shared server objects and the servers the run's calls hand to registering functions; ``markers.py``: decorators
that mark a function and hand it on; ``specs.py``: tool spec dicts carrying their function; ``remote.py``: tools one module makes of another's
functions, names a loader injects, tables naming functions of other modules; ``entrypoints.py``: tools declared as package
entry points; ``commands.py``: a Typer CLI's commands a module of the run serves as tools; ``jsonrpc.py``: a hand-written MCP server's
``tools/call`` answer, its branches and tables on the called name; ``applied_registries.py``: a registry decorator applied by a call; ``demos.py``: tools of example and demo code, left out), ``ancestry.py`` (what a
class inherits across the run), ``facts.py`` and ``failures.py`` (facts per
tool), ``follow.py`` (the run's own helpers in other modules, joined at the end of the run), ``describe.py`` (one file through the lint; the run's two phases),
``declared.py`` (tools declared in data files: holmesgpt's YAML toolsets), ``report.py`` (summary, ``--fail-on``, text, Markdown, JSON). This package is the
one part of the linter that imports ``smullyan.rules``; only the CLI imports it.

Describing a file is one lint of it (``engine.lint_source`` with an
:class:`~smullyan.linter.engine.Observer`): the tool definitions and the
same-module helpers they call are the observer's region, so narrowing keeps
them, only the rules with a candidate line in that region run, and the
``ToolFacts`` visitor (``facts.py``) rides the same traversal as the resolver, the
retry model (:mod:`~smullyan.rules.retries.model`, which also classifies calls
through :mod:`~smullyan.linter.effects`), the error family's models (``rules/errors/``:
TFH401's exception-text taint) and the rules. Findings are
attributed to a tool by the line ranges of its functions and helpers.

Names are resolved as the screens resolve them: the file's imports, a
module-level or local ``x = Class(...)`` (``mcp = FastMCP(...)``;
``@mcp.tool()`` is ``FastMCP.tool``), classes of the same module.
"""

from .describe import describe_source, run
from .forms import discover
from .index import module_name
from .model import SCHEMA_VERSION, CallFact, RetryFact, Tables, Tool, ToolRun
from .table import discover_spans

__all__ = [
    "SCHEMA_VERSION",
    "CallFact",
    "RetryFact",
    "Tool",
    "ToolRun",
    "Tables",
    "discover",
    "discover_spans",
    "module_name",
    "run",
    "describe_source",
]
