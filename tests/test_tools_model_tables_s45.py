"""`smullyan tools` (issue 28, session 45): tools a module hands a model by name, in any SDK's shape. A ``{"name": fn}``
table is dispatched by the called name when the module declares the tools' schemas (dict literals before) as calls
(``types.FunctionDeclaration(name="x", parameters={...})``), or when the table itself is what the model is handed
(``tools=[schema(f) for f in TOOL_FUNCTIONS.values()]``)."""

from __future__ import annotations

from tools_support import source_rows


def test_a_table_beside_schemas_built_by_calls() -> None:
    rows = source_rows('''
        from google import genai
        from google.genai import types

        def get_weather(city: str) -> str:
            return city

        def get_time(zone: str) -> str:
            return zone

        DECLARATIONS = [
            types.FunctionDeclaration(name="get_weather", description="Weather", parameters={"type": "object"}),
            types.FunctionDeclaration(name="get_time", description="Time", parameters={"type": "object"}),
        ]
        FUNCTIONS = {"get_weather": get_weather, "get_time": get_time}

        def turn(client, contents):
            config = types.GenerateContentConfig(tools=[types.Tool(function_declarations=DECLARATIONS)])
            for call in client.models.generate_content(model="m", contents=contents, config=config).function_calls:
                FUNCTIONS[call.name](**call.args)
    ''')
    assert rows == [("get_time", "schema", "dispatch dict"), ("get_weather", "schema", "dispatch dict")]


_HANDED = '''
    from openai import OpenAI

    client = OpenAI()

    def search(query: str) -> str:
        """Search the web."""
        return query

    def fetch(url: str) -> str:
        """Fetch a page."""
        return url

    TOOL_FUNCTIONS = {"search": search, "fetch": fetch}

    def schema(fn):
        return {"type": "function", "function": {"name": fn.__name__, "description": fn.__doc__, "parameters": {}}}

    def loop(messages):
        reply = client.chat.completions.create(model="m", messages=messages,
                                               tools=[schema(f) for f in TOOL_FUNCTIONS.values()])
        for call in reply.choices[0].message.tool_calls:
            TOOL_FUNCTIONS[call.function.name](call.function.arguments)
'''


def test_a_table_whose_functions_the_model_is_handed() -> None:
    assert source_rows(_HANDED) == [("fetch", "schema", "dispatch dict"), ("search", "schema", "dispatch dict")]


def test_a_table_handed_to_no_model_is_not() -> None:
    assert source_rows(_HANDED.replace("tools=[schema(f) for f in TOOL_FUNCTIONS.values()]", "stream=True")) == []


def test_a_tool_runner_keeps_the_branches_no_schema_declares() -> None:
    """Gemini declarations built by calls name two tools; the third has no ``parameters``: the runner's branches still
    give all three (as they did with no schema at all)."""
    rows = source_rows('''
        from google.genai import types

        DECLARATIONS = [
            types.FunctionDeclaration(name="read_file", description="Read", parameters={"type": "object"}),
            types.FunctionDeclaration(name="list_dir", description="List", parameters={"type": "object"}),
            types.FunctionDeclaration(name="send_mail", description="Mail"),
        ]

        class Agent:
            def _execute_tool(self, tool_name: str, args: dict) -> str:
                if tool_name == "read_file":
                    return open(args["path"]).read()
                elif tool_name == "list_dir":
                    import os
                    return str(os.listdir(args["path"]))
                elif tool_name == "send_mail":
                    from mailer import send
                    return send()
                return "unknown"
    ''')
    assert [n for n, _fw, _form in rows] == ["list_dir", "read_file", "send_mail"]

