"""`smullyan tools` (issue 28, session 39, batch 11's forms still missed): tables naming functions of other modules
(a spec table whose callable is imported; a description table naming each function by name alone), a tool
description given to a function as an attribute (``f.tool_info = {...}``), tools declared as package entry points,
a known server's decorator applied by a call under a condition to a function of a module that imports the server,
and demo/example code left out of a run that finds other tools."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config
from smullyan.linter.tools.demos import demo_module
from smullyan.linter.tools.entrypoints import tool_group

from tools_support import tool_rows, write_tree


def _run(files: list[str]) -> tools.ToolRun:
    return tools.run(files, Config())


# --------------------------------------------------------------------------- a server applied under a condition

def test_an_imported_servers_decorator_applied_by_a_call_under_a_condition(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "ads/__init__.py": "",
        "ads/server.py": """
            from mcp.server.fastmcp import FastMCP
            mcp_server = FastMCP("ads")
        """,
        "ads/auth.py": """
            import os
            from .server import mcp_server

            ENABLED = not os.environ.get("DISABLE_LOGIN")

            async def get_login_link(token: str) -> str:
                return token

            def helper(x: int) -> int:
                return x

            if ENABLED:
                get_login_link = mcp_server.tool()(get_login_link)
        """,
    })
    run = _run(files)
    assert [(t.name, t.framework, t.form) for t in run.tools] == [("get_login_link", "mcp", "mcp_server.tool(...)")]
    assert "text" in run.tools[0].failures  # FastMCP turns what it raises into text, as for its decorator


# --------------------------------------------------------------------------- f.tool_info = {...}

def test_a_tool_description_given_to_a_function_as_an_attribute(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "light/__init__.py": "",
        "light/builtin.py": """
            import requests

            def upload(path: str) -> str:
                return requests.post("https://oss.example.org", data=open(path, "rb"), timeout=10).text

            upload.tool_info = {
                "tool_name": "upload_file",
                "tool_description": "Upload a file",
                "tool_params": [{"name": "path", "type": "string"}],
            }

            def not_a_tool(x):
                return x

            not_a_tool.meta = {"tool_name": "x"}  # no description: not a tool's
            not_a_tool.cache = {}
        """,
        "light/skills.py": """
            def create_skill_tools(manager):
                def list_skills() -> str:
                    return ", ".join(manager.names())

                list_skills.tool_info = {"tool_name": "list_skills", "tool_description": "List the skills"}
                return [list_skills]
        """,
    })
    assert tool_rows(files) == [("builtin.py", "upload_file", "schema", ".tool_info description"),
                                ("skills.py", "list_skills", "schema", ".tool_info description")]


# --------------------------------------------------------------------------- tables naming functions elsewhere

def test_a_spec_table_whose_callables_are_imported_from_other_modules(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "pay/__init__.py": "",
        "pay/shared/__init__.py": "",
        "pay/shared/orders.py": """
            def create_order(client, params):
                return client.post("/v2/checkout/orders", json=params)

            def get_order(client, params):
                return client.get(f"/v2/checkout/orders/{params['id']}")

            def unlisted(client):
                return client
        """,
        "pay/shared/tools.py": """
            from pydantic import BaseModel
            from .orders import create_order, get_order

            class OrderArgs(BaseModel):
                id: str = ""

            tools = [
                {"method": "create_order", "name": "Create PayPal Order", "description": "Create an order",
                 "args_schema": OrderArgs, "execute": create_order},
                {"method": "get_order_details", "name": "Get PayPal Order", "description": "Get an order",
                 "args_schema": OrderArgs, "execute": get_order},
            ]
        """,
    })
    # the title is no name a model can call: the called one (``method``) names the row, at the function's def
    assert tool_rows(files) == [("orders.py", "create_order", "schema", "tool spec table"),
                                ("orders.py", "get_order_details", "schema", "tool spec table")]


_DESCRIPTIONS = """
    description = [
        {
            "name": "query_uniprot",
            "description": "Query the UniProt REST API.",
            "required_parameters": [{"name": "prompt", "type": "str", "default": None}],
            "optional_parameters": [],
        },
        {
            "name": "create_visualization",
            "description": "A description with no function.",
            "required_parameters": [],
        },
        {"name": "just_a_label", "description": "no parameters: a label, not a tool"},
    ]
"""


def test_a_description_table_naming_functions_of_the_module_of_the_same_name(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "bio/__init__.py": "",
        "bio/tool/__init__.py": "",
        "bio/tool/tool_description/__init__.py": "",
        "bio/tool/tool_description/database.py": _DESCRIPTIONS,
        "bio/tool/database.py": """
            import requests

            def query_uniprot(prompt: str) -> str:
                return requests.get("https://rest.uniprot.org/uniprotkb/search", params={"query": prompt}, timeout=30).text

            def just_a_label() -> str:
                return ""
        """,
        "bio/other.py": """
            def query_uniprot(prompt: str) -> str:  # a function of the same name in a module of another name
                return prompt
        """,
    })
    run = _run(files)
    assert [(Path(t.path).name, t.name, t.form) for t in run.tools] == [
        ("database.py", "query_uniprot", "tool description table")]
    assert run.tools[0].qualname == "bio.tool.database.query_uniprot"
    assert run.tools[0].calls  # described in its own file: the GET it sends


def test_a_description_table_with_no_function_of_that_name_in_a_module_of_that_name_makes_no_tool(
        tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "bio/__init__.py": "",
        "bio/tool/__init__.py": "",
        "bio/tool/tool_description/__init__.py": "",
        "bio/tool/tool_description/database.py": _DESCRIPTIONS,
        "bio/tool/genomics.py": """
            def query_uniprot(prompt: str) -> str:
                return prompt
        """,
    })
    assert tool_rows(files) == []


# --------------------------------------------------------------------------- entry points

_OTERM = {
    "oterm/__init__.py": "",
    "oterm/tools/__init__.py": "",
    "oterm/tools/date_time.py": """
        from datetime import datetime

        def date_time() -> str:
            return datetime.now().isoformat()
    """,
    "oterm/tools/shell.py": """
        import subprocess

        def shell(command: str) -> str:
            return subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    """,
    "oterm/cli.py": """
        def cli() -> None:
            pass
    """,
}
_ENTRY_POINTS = """[console_scripts]
oterm = oterm.cli:cli

[oterm.tools]
date_time = oterm.tools.date_time:date_time
shell = oterm.tools.shell:shell
elsewhere = otherpkg.tools:run
"""


def test_tools_declared_as_entry_points_of_an_installed_distribution(tmp_path: Path) -> None:
    files = write_tree(tmp_path, _OTERM)
    (tmp_path / "oterm-0.26.1.dist-info").mkdir()
    (tmp_path / "oterm-0.26.1.dist-info" / "entry_points.txt").write_text(_ENTRY_POINTS)
    run = _run(files)
    assert [(t.name, t.framework, t.form) for t in run.tools] == [
        ("date_time", "oterm", "oterm.tools entry point"), ("shell", "oterm", "oterm.tools entry point")]
    # described in its own file like any tool; its `subprocess.run(command, shell=True)` runs the model's command in a
    # tool the project declares (an entry point): TFH201 (s56: the split asks the project's tool table, as the CLI's
    # lint does), whether or not TFH203 is selected, and whatever ran before in the process
    assert run.tools[1].findings == {"TFH201": 1}
    selected = tools.run(files, Config().with_overrides(extend_select=["TFH203"]))
    assert selected.tools[1].findings == {"TFH201": 1}
    from smullyan.linter import project_tools

    project_tools.set_provider(lambda files, config: {})  # another caller's reader (no tool anywhere) is respected
    try:
        assert tools.run(files, Config()).tools[1].findings == {}
    finally:
        project_tools.set_provider(None)


def test_tools_declared_as_entry_points_in_a_checkouts_pyproject(tmp_path: Path) -> None:
    files = write_tree(tmp_path / "src", _OTERM)
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "oterm"\n\n[project.scripts]\noterm = "oterm.cli:cli"\n\n'
        '[project.entry-points."oterm.tools"]\nshell = "oterm.tools.shell:shell"\n')
    assert tool_rows(files) == [("shell.py", "shell", "oterm", "oterm.tools entry point")]


def test_no_entry_point_tools_without_a_tools_group(tmp_path: Path) -> None:
    files = write_tree(tmp_path, _OTERM)
    (tmp_path / "oterm-0.26.1.dist-info").mkdir()
    (tmp_path / "oterm-0.26.1.dist-info" / "entry_points.txt").write_text(
        "[console_scripts]\noterm = oterm.cli:cli\n[oterm.plugins]\nshell = oterm.tools.shell:shell\n")
    assert tool_rows(files) == []
    assert tool_group("oterm.tools") and tool_group("llm_tools") and not tool_group("console_scripts")
    assert not tool_group("toolbox.plugins")


# --------------------------------------------------------------------------- demo and example code

_AGENT = """
    from tiny.agent import tool

    @tool(name="read_file", description="Read a file")
    def read_file(path: str) -> str:
        return open(path).read()


    @tool(name="get_weather", description="Get the weather")
    def get_weather(city: str) -> str:
        return city


    async def run_example():
        @tool(name="search_web", description="Search")
        def search_web(q: str) -> str:
            return q

        agent = Agent(tools=[search_web])
        agent.add_tool(get_weather)


    if __name__ == "__main__":
        @tool(name="in_main", description="A demo")
        def in_main() -> str:
            return ""
"""


def test_demo_and_example_tools_are_left_out_of_a_run_with_other_tools(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "tiny/__init__.py": "",
        "tiny/agent.py": """
            def tool(name=None, description=None):
                def deco(fn):
                    fn._tool = (name, description)
                    return fn
                return deco
        """,
        "tiny/code/__init__.py": "",
        "tiny/code/agent_tools.py": _AGENT,
        "tiny/code/example_tools.py": """
            from tiny.agent import tool

            @tool(name="get_traffic", description="Traffic")
            def get_traffic(city: str) -> str:
                return city
        """,
    })
    run = _run(files)
    assert [t.name for t in run.tools] == ["read_file"]
    assert len(run.notes) == 1 and run.notes[0].startswith("4 tool(s) in example or demo code")


_EXAMPLES = {
    "tiny/__init__.py": "",
    "tiny/agent.py": """
        def helper() -> None:
            pass
    """,
    "tiny/examples/__init__.py": "",
    "tiny/examples/weather.py": """
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("weather")

        @mcp.tool()
        def get_weather(city: str) -> str:
            return city
    """,
}


def test_an_example_packages_tools_are_left_out_of_a_run_over_the_whole_package(tmp_path: Path) -> None:
    run = _run(write_tree(tmp_path, _EXAMPLES))  # no other tool, but code outside the examples
    assert run.tools == [] and run.notes[0].startswith("1 tool(s) in example or demo code")


def test_a_run_over_example_code_alone_lists_its_tools(tmp_path: Path) -> None:
    files = [f for f in write_tree(tmp_path, _EXAMPLES) if "/examples/" in f]
    run = _run(files)
    assert [t.name for t in run.tools] == ["get_weather"] and run.notes == []


def test_demo_functions_tools_are_kept_when_the_run_finds_no_other_tool(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"demo_app/__init__.py": "", "demo_app/main.py": """
        from mcp.server.fastmcp import FastMCP

        def run_demo():
            mcp = FastMCP("demo")

            @mcp.tool()
            def echo(text: str) -> str:
                return text

            mcp.run()
    """})
    assert [t.name for t in _run(files).tools] == ["echo"]


def test_a_scripts_tools_used_under_its_main_guard_are_its_own(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"bot/__init__.py": "", "bot/main.py": """
        from pydantic_ai import Agent

        def search(q: str) -> str:
            return q

        def fetch(url: str) -> str:
            return url

        if __name__ == "__main__":
            Agent("openai:gpt-4o", tools=[search, fetch]).run_sync("hi")
    """})
    assert [t.name for t in _run(files).tools] == ["search", "fetch"]


def test_demo_module_names() -> None:
    assert demo_module("biomni.tool.example_mcp_tools.pubmed_mcp")
    assert demo_module("xiaogpt.langchain.examples.email.tools")
    assert demo_module("pkg.demo")
    assert not demo_module("examples.weather")  # the top-level package: a user's own examples directory
    assert demo_module("nova_act.samples.booking")
    assert not demo_module("ads.tools.search_demographics") and not demo_module("db.tools.sample_rows")
    # a scaffold to copy (crab's ``environments/template.py``), named so whole; not a tool that renders templates
    assert demo_module("crab.environments.template") and demo_module("pkg.template.env")
    assert not demo_module("pkg.tools.render_template") and not demo_module("pkg.template_tools")
    assert not demo_module("mcp_proxmox.tools.templates")  # tools about VM templates
