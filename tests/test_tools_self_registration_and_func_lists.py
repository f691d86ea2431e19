"""`smullyan tools` (issue 28): the registration forms batch 13 showed (tuned after its blind run). A class registering
in itself by a verb that alone says tool (``self.register_tool("get_x", "Get x", lambda **kw: tools.get_x(c, **kw))``:
the function the lambda calls), a list named for tools of ``{"func": f}`` entries, a wrapper built in a comprehension
over a literal list (``[FunctionTool(func) for func in [self.a, self.b]]``), the decorators of crab (``@action``),
eidolon (``@llm_function()``) and llamabot (``@tool``, applied in the framework's own module too), and a name a package
re-exports from below a directory without ``__init__.py`` (``src.api.tools.user.get_user_info``)."""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows as rows, tool_rows, write_tree


def test_a_class_registering_in_itself_by_a_tool_verb() -> None:
    assert rows("""
        def get_x(client, **kwargs):
            return client.get("x")

        class Server:
            def __init__(self, client):
                self._tools = {}
                self.client = client
                self.register_tool("get_x", "Get x", lambda **kw: get_x(self.client, **kw))
                self.register_tool("get_y", "Get y", self._get_y)
                self.register_tool(name="get_z", description="Get z", function=self._get_z)

            def _get_y(self):
                return 1

            def _get_z(self):
                return 2

            def register_tool(self, name, description, function):
                self._tools[name] = function
        """) == [("get_x", "registry", "self.register_tool(...)"), ("get_y", "registry", "self.register_tool(...)")]


def test_not_a_self_registration() -> None:
    # a verb that needs a registrar's name (``add_tool``) on ``self``, a verb that says nothing, a lambda calling nothing
    assert rows("""
        def get_x():
            return 1

        class Hooks:
            def __init__(self):
                self.add_tool("x", self._x)
                self.register_hook("y", self._x)
                self.register_tool("z", "Z", lambda: 1)

            def _x(self):
                return get_x()
        """) == []


def test_register_tool_lambdas_naming_functions_of_another_module(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "gl/__init__.py": "",
        "gl/tools/__init__.py": "from .issues import list_issues, get_issue\n",
        "gl/tools/issues.py": """
            def list_issues(client, project_id):
                return client.get(f"/projects/{project_id}/issues")

            def get_issue(client, project_id, iid):
                return client.get(f"/projects/{project_id}/issues/{iid}")

            def not_registered(client):
                return client
            """,
        "gl/server.py": """
            from gl import tools

            class GitLabServer:
                def __init__(self, client):
                    self._tools = {}
                    self.client = client
                    self.register_tool("list_issues", "List issues", lambda **kw: tools.list_issues(self.client, **kw))
                    self.register_tool("get_issue", "Get an issue", lambda **kw: tools.get_issue(self.client, **kw))

                def register_tool(self, name, description, function):
                    self._tools[name] = function
            """,
    })
    assert [r[:3] for r in tool_rows(files)] == [("issues.py", "get_issue", "registry"),
                                                  ("issues.py", "list_issues", "registry")]


def test_a_list_named_for_tools_of_func_entries() -> None:
    assert rows("""
        def get_user_info():
            return {}

        def stage_upload_file_local(path):
            return path

        def helper():
            return 1

        tools_definition = [
            {"func": get_user_info},
            {"func": stage_upload_file_local, "name": "stage_upload_file", "local_only": True},
        ]
        """) == [("get_user_info", "schema", "tool spec dict"), ("stage_upload_file", "schema", "tool spec dict")]


def test_not_a_list_of_tool_entries() -> None:
    # a list not named for tools; a tools list with an entry that hands no function
    assert rows("""
        def a():
            return 1

        def b():
            return 2

        handlers = [{"func": a}, {"func": b}]
        TOOLS = [{"func": a}, {"label": "b"}]
        """) == []


def test_a_wrapper_built_in_a_comprehension_over_a_literal_list() -> None:
    assert rows("""
        from camel.toolkits import FunctionTool

        class SocialAction:
            def get_openai_function_list(self):
                return [FunctionTool(func) for func in [self.create_post, self.like_post]]

            def names(self):
                return [str(func) for func in [self.refresh]]

            async def create_post(self, content: str):
                return content

            async def like_post(self, post_id: int):
                return post_id

            async def refresh(self):
                return None
        """) == [("create_post", "camel", "FunctionTool"), ("like_post", "camel", "FunctionTool")]


def test_not_a_comprehension_over_a_literal_list() -> None:
    assert rows("""
        from camel.toolkits import FunctionTool

        class Actions:
            def tools(self, funcs):
                return [FunctionTool(func) for func in funcs]

            def create_post(self):
                return 1
        """) == []


def test_crab_eidolon_and_llamabot_decorators() -> None:
    assert rows("""
        from crab import action, evaluator
        from eidolon_ai_sdk.apu.logic_unit import LogicUnit, llm_function
        from llamabot import tool

        @action
        def click(element: int) -> None:
            pass

        @action(env_name="android")
        def tap(element: int) -> None:
            pass

        @evaluator
        def check_done() -> bool:
            return True

        class WebSearch(LogicUnit):
            @llm_function()
            async def search(self, query: str):
                return query

            async def helper(self):
                return None

        @tool
        def today_date() -> str:
            return "2026-12-05"
        """) == [("click", "crab", "@action"), ("search", "eidolon", "@llm_function"), ("tap", "crab", "@action"),
                 ("today_date", "llamabot", "@tool")]


def test_a_tool_decorator_in_the_frameworks_own_module(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "llamabot/__init__.py": "",
        "llamabot/components/__init__.py": "",
        "llamabot/components/tools.py": """
            def tool(func=None, *, loopback_name="decide"):
                return func

            @tool
            def add(a: int, b: int) -> int:
                return a + b

            def not_a_tool(a: int) -> int:
                return a
            """,
    })
    assert [r[:3] for r in tool_rows(files)] == [("tools.py", "add", "llamabot")]


def test_a_reexport_below_a_directory_without_init(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "src/__init__.py": "",
        "src/api/tools/__init__.py": "",
        "src/api/tools/user/__init__.py": "from .user import get_user_info\n",
        "src/api/tools/user/user.py": """
            def get_user_info():
                return {}
            """,
        "src/api/tools/tools.py": """
            from src.api.tools.user import get_user_info

            tools_definition = [{"func": get_user_info}]
            """,
    })
    assert [r[:3] for r in tool_rows(files)] == [("user.py", "get_user_info", "schema")]
