"""`smullyan tools` (issue 28, session 57): a project's tool decorator whose body registers, through a framework's
tool decorator, a wrapper a module function makes of the function it is given, and gives back that wrapper or the
registration (tuned on batches 1-29, not blind).

- meshbook-mcp (batch 29): ``def tool(*, read_only=False): def deco(fn): wrapped = with_hints(fn, hints);
  mcp.tool(annotations=ann)(_quiet(wrapped, fn.__name__, kind="tool")); return wrapped; return deco``.
- colab-cli-mcp (batch 23): ``def _tool(fn): return mcp.tool()(guard(fn))``.

The wrapper is made by a call handed the function first, with options or without; the base took only a wrapper
handed the function alone (``timed = _timed(func)``) or a nested ``def``.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows, tools_by_name

_OPTIONS = '''
    from fastmcp import FastMCP

    from pkg.core import with_hints

    mcp = FastMCP("meshbook")


    def _quiet(fn, name, *, kind):
        def adapter(*args, **kwargs):
            return fn(*args, **kwargs)
        return adapter


    def tool(*, read_only=False, hints=None):
        def deco(fn):
            wrapped = with_hints(fn, hints)
            ann = {"readOnlyHint": read_only}
            mcp.tool(annotations=ann)(_quiet(wrapped, fn.__name__, kind="tool"))
            return wrapped
        return deco


    def resource(uri):
        def deco(fn):
            wrapped = with_hints(fn)
            mcp.resource(uri)(_quiet(wrapped, uri, kind="resource"))
            return wrapped
        return deco


    @tool(read_only=True)
    def list_meshes() -> dict:
        return {}


    @tool()
    def delete_contact(contact: str) -> dict:
        return {}


    @resource("meshbook://me")
    def me() -> dict:
        return {}
'''

_CORE = '''
    def with_hints(fn, hints=None):
        return fn
'''


def test_a_decorator_registering_a_wrapper_made_with_options_gives_back_its_tools(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/core.py": _CORE, "pkg/server.py": _OPTIONS})
    assert sorted(found) == ["delete_contact", "list_meshes"]  # the resource is no tool
    assert found["list_meshes"].form == "@tool"
    assert found["list_meshes"].framework == "mcp"


def test_a_decorator_returning_the_registration_of_a_wrapper_makes_tools() -> None:
    rows = source_rows('''
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("colab")


        def guard(fn):
            def inner(*args, **kwargs):
                return fn(*args, **kwargs)
            return inner


        def _tool(fn):
            """Register fn as an MCP tool."""
            return mcp.tool()(guard(fn))


        @_tool
        def colab_sessions() -> str:
            return ""


        @_tool
        def colab_stop(session: str) -> str:
            return ""
    ''')
    assert [r[0] for r in rows] == ["colab_sessions", "colab_stop"]
    assert {r[2] for r in rows} == {"@_tool"}


def test_a_decorator_that_registers_nothing_makes_no_tools() -> None:
    rows = source_rows('''
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        def guard(fn, retries=2):
            return fn


        def traced(fn):
            wrapped = guard(fn, retries=3)  # made of the function, but registered nowhere
            return wrapped


        @traced
        def helper() -> str:
            return ""
    ''')
    assert rows == []


# A registration loop over a literal list of (title, fn) pairs: in a helper of another module that loops over its
# parameter (google-ecommerce-mcp, batch 29: ``ads_common.register_tools(mcp, tools)``, called by each module's
# ``register(mcp)`` with its ``TOOLS = [("Ads overview", ads_overview)]``), or in the module's own function
# (``for title, fn in TOOLS: mcp.tool(title=title)(fn)``).

_COMMON = '''
    from typing import Any, Callable, Sequence


    def register_tools(mcp: Any, tools: Sequence[tuple[str, Callable]]) -> list[str]:
        names = []
        for title, fn in tools:
            mcp.tool(title=title)(fn)
            names.append(fn.__name__)
        return names


    def log_all(logger: Any, entries: Sequence[tuple[str, Callable]]) -> None:
        for title, fn in entries:
            logger.info(title, fn)
'''

_OVERVIEW = '''
    from typing import Any

    from pkg.common import log_all, register_tools


    def ads_overview(period: str = "7d") -> dict:
        return {}


    def ads_compare(period: str = "7d") -> dict:
        return {}


    def _formatter(x: dict) -> str:
        return ""


    TOOLS = [
        ("Ads overview", ads_overview),
        ("Ads compare", ads_compare),
    ]


    def register(mcp: Any) -> list[str]:
        log_all(mcp, [("format", _formatter)])  # a loop that registers nothing
        return register_tools(mcp, TOOLS)
'''

_LOOPED = '''
    from typing import Any


    def plan_pause(ids: list[str]) -> dict:
        return {}


    def plan_budget(amount: int) -> dict:
        return {}


    PLAN_TOOLS = [("Plan a pause", plan_pause), ("Plan a budget change", plan_budget)]


    def register(mcp: Any) -> list[str]:
        names = []
        for title, fn in PLAN_TOOLS:
            mcp.tool(name=fn.__name__, title=title)(fn)
            names.append(fn.__name__)
        return names
'''


def test_a_helper_looping_over_its_parameter_makes_tools_of_the_pairs_each_caller_hands(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/common.py": _COMMON, "pkg/overview.py": _OVERVIEW})
    assert sorted(found) == ["ads_compare", "ads_overview"]  # not the formatter handed to a loop that logs
    assert found["ads_overview"].qualname == "pkg.overview.ads_overview"
    assert found["ads_overview"].framework == "mcp"


def test_a_loop_unpacking_a_module_list_of_pairs_makes_tools_of_their_functions() -> None:
    rows = source_rows(_LOOPED)
    assert [r[0] for r in rows] == ["plan_budget", "plan_pause"]


# A framework tool subclass of the project whose run method dispatches to a hook it leaves open (``raise
# NotImplementedError``) is a base: its subclasses, which fill the hook in, are the tools (crewai-anakin, batch 29:
# ``AnakinBaseTool._run`` -> ``self._call(args)``, "Shared setup for the Anakin tools"; langchain-send0's ``Send0Tool``
# said so in its docstring already).

_HOOKED = '''
    import json
    from typing import Any

    from crewai.tools import BaseTool


    class AnakinBaseTool(BaseTool):
        """Shared setup for the Anakin tools: the API key and JSON results."""

        def _run(self, **kwargs: Any) -> str:
            return json.dumps(self._call(kwargs))

        def _call(self, args: Any) -> Any:
            raise NotImplementedError


    class AnakinScrapeTool(AnakinBaseTool):
        name: str = "anakin_scrape"
        description: str = "Scrape a page."

        def _call(self, args: Any) -> Any:
            return {"url": args["url"]}


    class AnakinSearchTool(AnakinBaseTool):
        name: str = "anakin_search"
        description: str = "Search the web."

        def _call(self, args: Any) -> Any:
            return []
'''


def test_a_tool_class_whose_run_calls_a_hook_it_leaves_open_is_a_base() -> None:
    assert [r[0] for r in source_rows(_HOOKED)] == ["anakin_scrape", "anakin_search"]


def test_a_run_calling_an_optional_hook_stays_a_tool() -> None:
    optional = _HOOKED.replace("raise NotImplementedError", "return None")  # a default, not a hole
    assert "AnakinBaseTool" in [r[0] for r in source_rows(optional)]
