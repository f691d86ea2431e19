"""`smullyan tools` (issue 28, session 45): the documented registration forms of the most used agent frameworks that
were not recognised: llama-index ``FunctionTool.from_defaults(async_fn=f)`` (an async-only tool: the callable keyword's
word after ``async``), pydantic-ai ``Tool.from_schema(function=f, ...)``, crewai-tools' ``BaseTool`` (the import its
docs gave before crewai 0.80)."""

from __future__ import annotations

from tools_support import source_rows


def test_llama_index_async_fn_is_the_tool() -> None:
    rows = source_rows('''
        from llama_index.core.tools import FunctionTool

        async def fetch_page(url: str) -> str:
            """Fetch a page."""
            return url

        fetch_tool = FunctionTool.from_defaults(async_fn=fetch_page, name="fetch")
    ''')
    assert rows == [("fetch", "llamaindex", "FunctionTool.from_defaults")]


def test_a_keyword_naming_no_callable_after_async_is_not() -> None:
    rows = source_rows('''
        from llama_index.core.tools import FunctionTool

        def fetch_page(url: str) -> str:
            return url

        fetch_tool = FunctionTool.from_defaults(async_mode=fetch_page)
    ''')
    assert rows == []


def test_pydantic_ai_tool_from_schema() -> None:
    rows = source_rows('''
        from pydantic_ai import Agent, Tool

        def lookup(**kwargs) -> str:
            return str(kwargs)

        lookup_tool = Tool.from_schema(function=lookup, name="lookup_user", description="Look a user up",
                                       json_schema={"type": "object", "properties": {}})
        agent = Agent("openai:gpt-4o", tools=[lookup_tool])
    ''')
    assert rows == [("lookup_user", "pydantic-ai", "Tool.from_schema")]


def test_crewai_tools_base_tool_subclass() -> None:
    rows = source_rows('''
        from crewai_tools import BaseTool

        class WordCounter(BaseTool):
            name: str = "word_counter"
            description: str = "Count the words of a text"

            def _run(self, text: str) -> str:
                return str(len(text.split()))
    ''')
    assert [(n, fw) for n, fw, _form in rows] == [("word_counter", "crewai")]


def test_pydantic_ai_function_toolset_positional_list() -> None:
    rows = source_rows('''
        from pydantic_ai import Agent
        from pydantic_ai.toolsets import FunctionToolset

        def temperature(city: str) -> float:
            return 21.0

        toolset = FunctionToolset([temperature])
        agent = Agent("openai:gpt-4o", toolsets=[toolset])
    ''')
    assert rows == [("temperature", "pydantic-ai", "FunctionToolset(tools=[...])")]


def test_llama_index_function_calling_agent_from_tools() -> None:
    rows = source_rows('''
        from llama_index.core.agent import FunctionCallingAgent

        def add(a: int, b: int) -> int:
            """Add two numbers."""
            return a + b

        agent = FunctionCallingAgent.from_tools([add], llm=None)
    ''')
    assert rows == [("add", "llama-index", "from_tools(tools=[...])")]


def test_openai_agents_function_tool_applied_as_a_call_is_openai_agents() -> None:
    """``agents.function_tool`` is openai-agents', not livekit's namespace spelling of ``livekit.agents.function_tool``."""
    rows = source_rows('''
        from agents import Agent, function_tool

        def lookup(city: str) -> str:
            return city

        agent = Agent(name="a", tools=[function_tool(lookup, name_override="lookup_city")])
    ''')
    assert rows == [("lookup_city", "openai-agents", "function_tool")]


_LANGROID = '''
    import langroid as lr
    from langroid.agent.tool_message import ToolMessage

    class SquareTool(ToolMessage):
        request: str = "square"
        purpose: str = "To square a <num>"
        num: int

    class MathAgent(lr.ChatAgent):
        def square(self, msg: SquareTool) -> str:
            return str(msg.num ** 2)
'''


def test_langroid_tool_message_handled_by_the_agent_method_its_request_names() -> None:
    assert source_rows(_LANGROID) == [("square", "langroid", "ToolMessage subclass")]


def test_langroid_method_of_that_name_taking_another_type_is_not_the_handler() -> None:
    assert source_rows(_LANGROID.replace("msg: SquareTool", "msg: int")) == []
