"""`smullyan tools` (issue 28) on the agent frameworks' own documented tool-registration forms (session 42): for each
framework, the smallest example its docs show (real imports and aliases), one small project run through
``smullyan.linter.tools.run`` with the default configuration. Names are resolved through the imports (the framework's
module path), never by text; each case holds every row the example gives (the forms found before stay found)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools_support import tool_rows, write_tree

CASES: dict[str, tuple[str, str, list[tuple[str, str, str]]]] = {
    'ag2': ('ag2_tools.py', '''\
import requests
from autogen import AssistantAgent, UserProxyAgent, register_function
from autogen.tools import tool, Tool

assistant = AssistantAgent("assistant")
user_proxy = UserProxyAgent("user_proxy")


@user_proxy.register_for_execution()
@assistant.register_for_llm(name="ag2_register_for_llm", description="d")
def _calc(a: int, b: int) -> int:
    return requests.get("https://x").status_code


def ag2_register_function(a: int) -> int:
    return requests.get("https://x").status_code


register_function(ag2_register_function, caller=assistant, executor=user_proxy, name="ag2_register_function", description="d")


@tool(name="ag2_tool_deco", description="d")
def _ag2(a: int) -> int:
    return requests.get("https://x").status_code


def ag2_tool_ctor(a: int) -> int:
    return requests.get("https://x").status_code


t = Tool(name="ag2_tool_ctor", description="d", func_or_tool=ag2_tool_ctor)
''', [
        ('ag2_register_for_llm', 'ag2', '@assistant.register_for_llm'),
        ('ag2_register_function', 'ag2', 'register_function'),
        ('ag2_tool_ctor', 'autogen', 'Tool(func_or_tool=...)'),
        ('ag2_tool_deco', 'ag2', '@tool'),
    ]),
    'agencyswarm': ('asw_tools.py', '''\
import requests
from agency_swarm.tools import BaseTool
from pydantic import Field


class AswTool(BaseTool):
    q: str = Field(..., description="q")

    def run(self):
        return requests.get("https://x").text
''', [
        ('AswTool', 'agency-swarm', 'BaseTool subclass'),
    ]),
    'agentscope': ('as_tools.py', '''\
import requests
from agentscope.tool import Toolkit, ToolResponse


def as_register_tool_function(q: str) -> ToolResponse:
    """d"""
    return ToolResponse(content=[requests.get("https://x").text])


toolkit = Toolkit()
toolkit.register_tool_function(as_register_tool_function)
''', [
        ('as_register_tool_function', 'agentscope', 'toolkit.register_tool_function(...)'),
    ]),
    'anthropic': ('an_tools.py', '''\
import requests
import anthropic
from anthropic import beta_tool, beta_async_tool

client = anthropic.Anthropic()


@beta_tool
def an_beta_tool(city: str) -> str:
    """d"""
    return requests.get("https://x").text


@beta_async_tool
async def an_beta_async_tool(city: str) -> str:
    """d"""
    return requests.get("https://x").text


runner = client.beta.messages.tool_runner(model="claude-sonnet-4-5", max_tokens=1024, tools=[an_beta_tool],
                                          messages=[])
''', [
        ('an_beta_async_tool', 'anthropic', '@beta_async_tool'),
        ('an_beta_tool', 'anthropic', '@beta_tool'),
    ]),
    'atomic': ('atomic_tools.py', '''\
import requests
from atomic_agents import BaseTool, BaseToolConfig, BaseIOSchema


class AtomicSearchTool(BaseTool):
    def run(self, params):
        return requests.get("https://x").json()
''', [
        ('AtomicSearchTool', 'atomic-agents', 'BaseTool subclass'),
    ]),
    'atomic_old': ('atomic_old_tools.py', '''\
import requests
from atomic_agents.lib.base.base_tool import BaseTool, BaseToolConfig


class AtomicOldTool(BaseTool):
    def run(self, params):
        return requests.get("https://x").json()
''', [
        ('AtomicOldTool', 'atomic-agents', 'BaseTool subclass'),
    ]),
    'beeai': ('bee_tools.py', '''\
import requests
from beeai_framework.tools import tool, Tool, StringToolOutput


@tool
def bee_deco(q: str) -> str:
    """d"""
    return requests.get("https://x").text


class BeeSubclass(Tool):
    name = "bee_subclass"
    description = "d"

    async def _run(self, input, options, context):
        return StringToolOutput(requests.get("https://x").text)
''', [
        ('bee_deco', 'beeai', '@tool'),
        ('bee_subclass', 'beeai', 'Tool subclass'),
    ]),
    'composio': ('comp_tools.py', '''\
import requests
from composio import Composio
from pydantic import BaseModel

composio = Composio()


class Req(BaseModel):
    q: str


@composio.tools.custom_tool
def comp_custom_tool(request: Req) -> dict:
    """d"""
    return requests.get("https://x").json()
''', [
        ('comp_custom_tool', 'composio', '@composio.tools.custom_tool'),
    ]),
    'composio_old': ('comp_old_tools.py', '''\
import requests
from composio import action


@action(toolname="cow")
def comp_action(q: str) -> str:
    """d"""
    return requests.get("https://x").text
''', [
        ('comp_action', 'composio', '@action'),
    ]),
    'controlflow': ('cf_tools.py', '''\
import requests
import controlflow as cf


def cf_task_tools(q: str) -> str:
    """d"""
    return requests.get("https://x").text


def cf_agent_tools(q: str) -> str:
    """d"""
    return requests.get("https://x").text


agent = cf.Agent(name="a", tools=[cf_agent_tools])
result = cf.run("x", tools=[cf_task_tools])
''', [
        ('cf_agent_tools', 'controlflow', 'Agent(tools=[...])'),
        ('cf_task_tools', 'controlflow', 'run(tools=[...])'),
    ]),
    'dspy': ('dspy_tools.py', '''\
import requests
import dspy


def dspy_react(q: str) -> str:
    """d"""
    return requests.get("https://x").text


react = dspy.ReAct("question -> answer", tools=[dspy_react])


def dspy_tool_ctor(q: str) -> str:
    """d"""
    return requests.get("https://x").text


t = dspy.Tool(dspy_tool_ctor)
''', [
        ('dspy_react', 'dspy', 'ReAct(tools=[...])'),
        ('dspy_tool_ctor', 'dspy', 'Tool'),
    ]),
    'ell': ('ell_tools.py', '''\
import requests
import ell


@ell.tool()
def ell_tool(city: str) -> str:
    """d"""
    return requests.get("https://x").text
''', [
        ('ell_tool', 'ell', '@ell.tool'),
    ]),
    'fastmcp': ('fm_tools.py', '''\
import requests
from fastmcp import FastMCP
from fastmcp.tools import Tool

mcp = FastMCP("demo")


@mcp.tool
def fm_bare(q: str) -> str:
    return requests.get("https://x").text


@mcp.tool(name="fm_named")
def _fm(q: str) -> str:
    return requests.get("https://x").text


def fm_from_function(q: str) -> str:
    return requests.get("https://x").text


mcp.add_tool(Tool.from_function(fm_from_function))
''', [
        ('fm_bare', 'mcp', '@mcp.tool'),
        ('fm_from_function', 'mcp', 'Tool.from_function'),
        ('fm_named', 'mcp', '@mcp.tool'),
    ]),
    'fastmcp3': ('fm3_tools.py', '''\
import requests
from fastmcp.tools import tool


@tool
def fm3_standalone(q: str) -> str:
    return requests.get("https://x").text
''', [
        ('fm3_standalone', 'mcp', '@tool'),
    ]),
    'haystack': ('hs_tools.py', '''\
import requests
from haystack.tools import Tool, tool, create_tool_from_function
from haystack.components.agents import Agent
from haystack.components.tools import ToolInvoker


def hs_tool_ctor(city: str) -> str:
    return requests.get("https://x").text


t = Tool(name="hs_tool_ctor", description="d", parameters={"type": "object"}, function=hs_tool_ctor)


@tool
def hs_deco(city: str) -> str:
    """d"""
    return requests.get("https://x").text


def hs_create_from_function(city: str) -> str:
    """d"""
    return requests.get("https://x").text


t2 = create_tool_from_function(hs_create_from_function)
invoker = ToolInvoker(tools=[t, hs_deco, t2])
agent = Agent(chat_generator=None, tools=[t])
''', [
        ('hs_create_from_function', 'haystack', 'create_tool_from_function'),
        ('hs_deco', 'haystack', '@tool'),
        ('hs_tool_ctor', 'haystack', 'Tool(function=...)'),
    ]),
    'kani': ('kani_tools.py', '''\
import requests
from kani import Kani, ai_function


class MyKani(Kani):
    @ai_function()
    def kani_ai_function(self, city: str) -> str:
        """d"""
        return requests.get("https://x").text
''', [
        ('kani_ai_function', 'kani', '@ai_function'),
    ]),
    'langchain': ('lc_tools.py', '''\
import requests
from langchain_core.tools import tool, StructuredTool, BaseTool, Tool
from langchain.agents import create_agent
from langchain_openai import ChatOpenAI


@tool
def lc_deco(query: str) -> str:
    """Search."""
    return requests.get("https://x", params={"q": query}).text


@tool("lc_deco_named", parse_docstring=True)
def _named(query: str) -> str:
    """Search."""
    return requests.get("https://x").text


def lc_from_function(a: int) -> int:
    """Multiply."""
    return requests.get("https://x").status_code


structured = StructuredTool.from_function(func=lc_from_function, name="lc_from_function")


def lc_tool_ctor(q: str) -> str:
    return requests.get("https://x").text


plain = Tool(name="lc_tool_ctor", func=lc_tool_ctor, description="d")


class LcSubclass(BaseTool):
    name: str = "lc_subclass"
    description: str = "d"

    def _run(self, q: str) -> str:
        return requests.get("https://x").text


def lc_create_agent(city: str) -> str:
    """Weather."""
    return requests.get("https://x").text


agent = create_agent(model="openai:gpt-4o", tools=[lc_create_agent])


def lc_bind_tools(a: int, b: int) -> int:
    """Add."""
    return requests.get("https://x").status_code


llm = ChatOpenAI(model="gpt-4o")
llm_with_tools = llm.bind_tools([lc_bind_tools])
''', [
        ('lc_bind_tools', 'langchain', 'bind_tools(tools=[...])'),
        ('lc_create_agent', 'langchain', 'create_agent(tools=[...])'),
        ('lc_deco', 'langchain', '@tool'),
        ('lc_deco_named', 'langchain', '@tool'),
        ('lc_from_function', 'langchain', 'StructuredTool.from_function'),
        ('lc_subclass', 'langchain', 'BaseTool subclass'),
        ('lc_tool_ctor', 'langchain-core', 'Tool(func=...)'),
    ]),
    'langgraph': ('lg_tools.py', '''\
import requests
from langgraph.prebuilt import ToolNode, create_react_agent


def lg_toolnode(city: str) -> str:
    """Weather."""
    return requests.get("https://x").text


tool_node = ToolNode([lg_toolnode])


def lg_react(city: str) -> str:
    """Weather."""
    return requests.get("https://x").text


graph = create_react_agent("anthropic:claude-3-7-sonnet-latest", tools=[lg_react])
''', [
        ('lg_react', 'langgraph', 'create_react_agent(tools=[...])'),
        ('lg_toolnode', 'langgraph', 'ToolNode(tools=[...])'),
    ]),
    'langroid': ('lr_tools.py', '''\
import requests
import langroid as lr
from langroid.agent.tool_message import ToolMessage


class LrTool(ToolMessage):
    request: str = "lr_tool"
    purpose: str = "d"
    q: str

    def handle(self) -> str:
        return requests.get("https://x").text
''', [
        ('lr_tool', 'langroid', 'ToolMessage subclass'),
    ]),
    'letta': ('letta_tools.py', '''\
import requests
from letta_client import Letta

client = Letta(token="x")


def letta_upsert(q: str) -> str:
    """d"""
    return requests.get("https://x").text


tool = client.tools.upsert_from_function(func=letta_upsert)


def letta_create(q: str) -> str:
    """d"""
    return requests.get("https://x").text


tool2 = client.tools.create_from_function(func=letta_create)
''', [
        ('letta_create', 'letta', 'create_from_function'),
        ('letta_upsert', 'letta', 'upsert_from_function'),
    ]),
    'llamaindex': ('li_tools.py', '''\
import requests
from llama_index.core.tools import FunctionTool
from llama_index.core.agent.workflow import FunctionAgent, ReActAgent, AgentWorkflow
from llama_index.core.tools.tool_spec.base import BaseToolSpec


def li_from_defaults(a: int) -> int:
    """d"""
    return requests.get("https://x").status_code


t = FunctionTool.from_defaults(fn=li_from_defaults)


def li_from_defaults_pos(a: int) -> int:
    """d"""
    return requests.get("https://x").status_code


t2 = FunctionTool.from_defaults(li_from_defaults_pos)


def li_function_agent(a: int) -> int:
    """d"""
    return requests.get("https://x").status_code


agent = FunctionAgent(tools=[li_function_agent], llm=None, system_prompt="x")


def li_workflow(a: int) -> int:
    """d"""
    return requests.get("https://x").status_code


wf = AgentWorkflow.from_tools_or_functions([li_workflow], llm=None)


class LiToolSpec(BaseToolSpec):
    spec_functions = ["li_spec_fn"]

    def li_spec_fn(self, q: str) -> str:
        """d"""
        return requests.get("https://x").text
''', [
        ('li_from_defaults', 'llamaindex', 'FunctionTool.from_defaults'),
        ('li_from_defaults_pos', 'llamaindex', 'FunctionTool.from_defaults'),
        ('li_function_agent', 'llama-index', 'FunctionAgent(tools=[...])'),
        ('li_spec_fn', 'llama-index', 'BaseToolSpec method'),
        ('li_workflow', 'llama-index', 'from_tools_or_functions(tools_or_functions=[...])'),
    ]),
    'magentic': ('mag_tools.py', '''\
import requests
from magentic import prompt, FunctionCall


def mag_prompt_functions(city: str) -> str:
    """d"""
    return requests.get("https://x").text


@prompt("weather in {city}?", functions=[mag_prompt_functions])
def ask(city: str) -> FunctionCall[str]: ...
''', [
        ('mag_prompt_functions', 'magentic', 'prompt(functions=[...])'),
    ]),
    'openaiagents': ('oa_tools.py', '''\
import requests
from agents import Agent, function_tool, FunctionTool, RunContextWrapper


@function_tool
def oa_deco(q: str) -> str:
    return requests.get("https://x").text


@function_tool(name_override="oa_deco_named")
def _oa(q: str) -> str:
    return requests.get("https://x").text


async def oa_invoke(ctx: RunContextWrapper, args: str) -> str:
    return requests.get("https://x").text


ft = FunctionTool(name="oa_functiontool", description="d", params_json_schema={}, on_invoke_tool=oa_invoke)
agent = Agent(name="a", tools=[oa_deco, ft])
''', [
        ('oa_deco', 'openai-agents', '@function_tool'),
        ('oa_deco_named', 'openai-agents', '@function_tool'),
        ('oa_functiontool', 'openai-agents', 'FunctionTool'),
    ]),
    'phidata': ('phi_tools.py', '''\
import requests
from phi.agent import Agent
from phi.tools import Toolkit


def phi_agent_list(q: str) -> str:
    """d"""
    return requests.get("https://x").text


agent = Agent(tools=[phi_agent_list])


class PhiKit(Toolkit):
    def __init__(self):
        super().__init__(name="phi_kit")
        self.register(self.phi_kit_register)

    def phi_kit_register(self, q: str) -> str:
        return requests.get("https://x").text
''', [
        ('phi_agent_list', 'phi', 'Agent(tools=[...])'),
        ('phi_kit_register', 'phidata', 'Toolkit method'),
    ]),
    'semantickernel': ('sk_tools.py', '''\
import requests
from semantic_kernel import Kernel
from semantic_kernel.functions import kernel_function


class WeatherPlugin:
    @kernel_function(name="sk_kernel_function", description="d")
    def get(self, city: str) -> str:
        return requests.get("https://x").text

    @kernel_function
    def sk_kernel_function_bare(self, city: str) -> str:
        return requests.get("https://x").text


kernel = Kernel()
kernel.add_plugin(WeatherPlugin(), plugin_name="weather")


def sk_add_function(city: str) -> str:
    return requests.get("https://x").text


kernel.add_function(plugin_name="p", function=sk_add_function)
''', [
        ('sk_add_function', 'semantic-kernel', 'add_function'),
        ('sk_kernel_function', 'semantic-kernel', '@kernel_function'),
        ('sk_kernel_function_bare', 'semantic-kernel', '@kernel_function'),
    ]),
    'simonw_llm': ('llm_tools.py', '''\
import requests
import llm


def llm_chain(city: str) -> str:
    """d"""
    return requests.get("https://x").text


model = llm.get_model("gpt-4.1-mini")
resp = model.chain("weather?", tools=[llm_chain])


class LlmToolbox(llm.Toolbox):
    def llm_toolbox_method(self, q: str) -> str:
        """d"""
        return requests.get("https://x").text


def llm_plugin(q: str) -> str:
    """d"""
    return requests.get("https://x").text


@llm.hookimpl
def register_tools(register):
    register(llm_plugin)
''', [
        ('llm_toolbox_method', 'llm', 'Toolbox method'),
    ]),
    'swarm': ('swarm_tools.py', '''\
import requests
from swarm import Swarm, Agent


def swarm_functions(city: str) -> str:
    return requests.get("https://x").text


agent = Agent(name="a", instructions="x", functions=[swarm_functions])
''', [
        ('swarm_functions', 'swarm', 'Agent(functions=[...])'),
    ]),
    'taskweaver': ('tw_tools.py', '''\
import requests
from taskweaver.plugin import Plugin, register_plugin


@register_plugin
class TwPlugin(Plugin):
    def __call__(self, q: str):
        return requests.get("https://x").text
''', [
        ('TwPlugin', 'taskweaver', 'Plugin subclass'),
    ]),
    'transformers': ('tf_tools.py', '''\
import requests
from transformers import tool


@tool
def tf_tool(q: str) -> str:
    """d

    Args:
        q: q
    """
    return requests.get("https://x").text
''', [
        ('tf_tool', 'transformers', '@tool'),
    ]),
    'upsonic': ('up_tools.py', '''\
import requests
from upsonic import Task, Agent
from upsonic.tools import tool, ToolKit


@tool
def up_deco(q: str) -> str:
    """d"""
    return requests.get("https://x").text


def up_task_list(q: str) -> str:
    """d"""
    return requests.get("https://x").text


task = Task("x", tools=[up_task_list])


class UpKit(ToolKit):
    @tool
    def up_kit_method(self, q: str) -> str:
        """d"""
        return requests.get("https://x").text
''', [
        ('up_deco', 'upsonic', '@tool'),
        ('up_kit_method', 'upsonic', '@tool'),
        ('up_task_list', 'upsonic', 'Task(tools=[...])'),
    ]),
    # Session 43: eleven more frameworks' documented forms (the wheels' own APIs: pydantic-ai-slim 2.78, autogen-core
    # 0.7.5, mcp-agent 0.2.6, semantic-kernel 1.45, google-adk 2.13, livekit-agents 1.8.9, pipecat-ai 1.14, ollama 0.6.3,
    # google-genai 3.6.1, browser-use 0.13.14, any-agent 1.18)
    'any-agent': ('aa_agent.py', '''\
import requests
from any_agent import AgentConfig, AnyAgent


def aa_search_web(query: str) -> str:
    return requests.get("https://x", params={"q": query}, timeout=5).text


agent = AnyAgent.create("tinyagent", AgentConfig(model_id="mistral:mistral-small-latest", tools=[aa_search_web]))
''', [
        ('aa_search_web', 'any-agent', 'AgentConfig(tools=[...])'),
    ]),
    'autogen-core': ('agc_tools.py', '''\
import requests
from autogen_core import CancellationToken
from autogen_core.tools import FunctionTool


async def agc_function_tool(ticker: str, date: str) -> float:
    return float(requests.get("https://x", params={"t": ticker}, timeout=5).text)


stock_price_tool = FunctionTool(agc_function_tool, description="Get the stock price.")
''', [
        ('agc_function_tool', 'autogen', 'FunctionTool'),
    ]),
    'browser-use': ('bu_tools.py', '''\
import requests
from browser_use import Agent, ActionResult, Tools, Controller

tools = Tools()


@tools.action(description="Ask the human for help")
def bu_ask_human(question: str) -> ActionResult:
    return ActionResult(extracted_content=input(question))


controller = Controller()


@controller.action("Fetch a page")
def bu_controller_action(url: str) -> str:
    return requests.get(url, timeout=5).text


agent = Agent(task="t", llm=None, tools=tools)
''', [
        ('bu_ask_human', 'browser-use', '@tools.action'),
        ('bu_controller_action', 'browser-use', '@controller.action'),
    ]),
    'google-adk-long-running': ('adk_long.py', '''\
import requests
from google.adk.agents import Agent
from google.adk.tools import LongRunningFunctionTool, FunctionTool


def adk_long_running(purpose: str, amount: float) -> dict:
    return requests.post("https://x", json={"p": purpose}, timeout=5).json()


def adk_function_tool(q: str) -> dict:
    return requests.get("https://x", params={"q": q}, timeout=5).json()


approval = LongRunningFunctionTool(func=adk_long_running)
agent = Agent(model="gemini-2.0-flash", name="reimburse", tools=[approval, FunctionTool(func=adk_function_tool)])
''', [
        ('adk_function_tool', 'google-adk', 'FunctionTool'),
        ('adk_long_running', 'google-adk', 'LongRunningFunctionTool'),
    ]),
    'google-genai': ('gg_config.py', '''\
import requests
from google import genai
from google.genai import types


def gg_get_current_temperature(location: str) -> dict:
    return requests.get("https://x", params={"l": location}, timeout=5).json()


client = genai.Client()
config = types.GenerateContentConfig(tools=[gg_get_current_temperature])
response = client.models.generate_content(model="gemini-2.5-flash", contents="temp?", config=config)
''', [
        ('gg_get_current_temperature', 'google-genai', 'GenerateContentConfig(tools=[...])'),
    ]),
    'livekit-agents': ('lk_agent.py', '''\
import aiohttp
from livekit.agents import Agent, RunContext, function_tool


class Assistant(Agent):
    def __init__(self) -> None:
        super().__init__(instructions="You are a helpful voice AI assistant.")

    @function_tool()
    async def lk_lookup_weather(self, context: RunContext, location: str) -> str:
        """Look up weather information for a given location."""
        async with aiohttp.ClientSession() as s:
            async with s.get("https://x", params={"l": location}) as r:
                return await r.text()


@function_tool(name="lk_standalone")
async def _standalone(context: RunContext, q: str) -> str:
    return q


helper = Agent(instructions="x", tools=[_standalone])
''', [
        ('lk_lookup_weather', 'livekit', '@function_tool'),
        ('lk_standalone', 'livekit', '@function_tool'),
    ]),
    'mcp-agent': ('mca_tools.py', '''\
import requests
from mcp_agent.app import MCPApp
from mcp_agent.agents.agent import Agent

app = MCPApp(name="finder")


@app.tool
def mca_app_tool(q: str) -> str:
    return requests.get("https://x", params={"q": q}, timeout=5).text


@app.async_tool(name="mca_async_tool")
async def _long(q: str) -> str:
    return requests.get("https://x", params={"q": q}, timeout=5).text


def mca_agent_functions(q: str) -> str:
    return requests.get("https://x", params={"q": q}, timeout=5).text


finder = Agent(name="finder", instruction="find", functions=[mca_agent_functions])
''', [
        ('mca_agent_functions', 'mcp-agent', 'Agent(functions=[...])'),
        ('mca_app_tool', 'mcp-agent', '@app.tool'),
        ('mca_async_tool', 'mcp-agent', '@app.async_tool'),
    ]),
    'ollama': ('ol_chat.py', '''\
import ollama
from ollama import Client, chat


def ol_add_two_numbers(a: int, b: int) -> int:
    return a + b


def ol_client_tool(a: int) -> int:
    return a


response = chat("llama3.1", messages=[{"role": "user", "content": "1+2"}], tools=[ol_add_two_numbers])
client = Client(host="http://localhost:11434")
client.chat(model="llama3.1", messages=[], tools=[ol_client_tool])
''', [
        ('ol_add_two_numbers', 'ollama', 'chat(tools=[...])'),
        ('ol_client_tool', 'ollama', 'chat(tools=[...])'),
    ]),
    'pipecat': ('pc_bot.py', '''\
import requests
from pipecat.services.openai.llm import OpenAILLMService
from pipecat.services.llm_service import FunctionCallParams

llm = OpenAILLMService(api_key="k", model="gpt-4o")


async def pc_fetch_weather(params: FunctionCallParams) -> None:
    await params.result_callback(requests.get("https://x", timeout=5).json())


async def pc_direct(params: FunctionCallParams, location: str) -> None:
    await params.result_callback({"l": location})


llm.register_function("pc_fetch_weather", pc_fetch_weather)
llm.register_direct_function(pc_direct)
''', [
        ('pc_direct', 'pipecat', 'register_direct_function'),
        ('pc_fetch_weather', 'pipecat', 'register_function'),
    ]),
    'pydantic-ai-toolsets': ('pyd_toolset.py', '''\
import requests
from pydantic_ai import Agent, RunContext
from pydantic_ai.toolsets import FunctionToolset


def pyd_toolset_list(city: str) -> str:
    return requests.get("https://x", params={"c": city}, timeout=5).text


toolset = FunctionToolset(tools=[pyd_toolset_list])


@toolset.tool
def pyd_toolset_deco(ctx: RunContext[str], q: str) -> str:
    return requests.get("https://x", params={"q": q}, timeout=5).text


def pyd_toolset_add(q: str) -> str:
    return requests.get("https://x", params={"q": q}, timeout=5).text


toolset.add_function(pyd_toolset_add)
agent = Agent("openai:gpt-4o", toolsets=[toolset])
''', [
        ('pyd_toolset_add', 'pydantic-ai', 'add_function'),
        ('pyd_toolset_deco', 'pydantic-ai', '@toolset.tool'),
        ('pyd_toolset_list', 'pydantic-ai', 'FunctionToolset(tools=[...])'),
    ]),
    'semantic-kernel-plugin': ('sk_plugin.py', '''\
from typing import Annotated

import requests
from semantic_kernel import Kernel
from semantic_kernel.functions import kernel_function


class LightsPlugin:
    @kernel_function(name="sk_change_state", description="Changes the state of the light")
    def change_state(self, id: Annotated[int, "id"], is_on: bool) -> str:
        return requests.post("https://x", json={"id": id, "on": is_on}, timeout=5).text

    @kernel_function
    def sk_get_lights(self) -> str:
        return requests.get("https://x", timeout=5).text


kernel = Kernel()
kernel.add_plugin(LightsPlugin(), plugin_name="Lights")
''', [
        ('sk_change_state', 'semantic-kernel', '@kernel_function'),
        ('sk_get_lights', 'semantic-kernel', '@kernel_function'),
    ]),
    # Session 44: the next frameworks' documented forms (each from the wheel's own docstrings and source)
    'agent-framework': ('maf_tools.py', '''\
from typing import Annotated

import requests
from agent_framework import Agent, FunctionTool, tool
from agent_framework.openai import OpenAIChatClient


@tool(name="maf_get_weather", description="Get the weather for a location.")
def get_weather(location: Annotated[str, "The location"]) -> str:
    return requests.get("https://x", params={"l": location}, timeout=5).text


@tool
def maf_get_time(city: str) -> str:
    return requests.get("https://x", params={"c": city}, timeout=5).text


def maf_plain(q: str) -> str:
    return requests.get("https://x", params={"q": q}, timeout=5).text


def _lookup(q: str) -> str:
    return requests.get("https://x", params={"q": q}, timeout=5).text


lookup_tool = FunctionTool(name="maf_lookup", description="Look up", func=_lookup)
agent = Agent(client=OpenAIChatClient(), instructions="helpful", tools=[get_weather, maf_get_time, maf_plain, lookup_tool])
''', [
        ('maf_get_time', 'agent-framework', '@tool'),
        ('maf_get_weather', 'agent-framework', '@tool'),
        ('maf_lookup', 'agent-framework', 'FunctionTool'),
        ('maf_plain', 'agent-framework', 'Agent(tools=[...])'),
    ]),
    'claude-agent-sdk': ('cas_tools.py', '''\
from typing import Any

import requests
from claude_agent_sdk import ClaudeAgentOptions, create_sdk_mcp_server, tool


@tool("cas_greet", "Greet a user", {"name": str})
async def greet_user(args: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": f"Hello, {args['name']}!"}]}


@tool("cas_fetch", "Fetch a page", {"url": str})
async def fetch(args: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": requests.get(args["url"], timeout=5).text}]}


server = create_sdk_mcp_server(name="my-tools", version="1.0.0", tools=[greet_user, fetch])
options = ClaudeAgentOptions(mcp_servers={"tools": server}, allowed_tools=["mcp__tools__cas_greet"])
''', [
        ('cas_fetch', 'claude-agent-sdk', '@tool'),
        ('cas_greet', 'claude-agent-sdk', '@tool'),
    ]),
    'gptme': ('gptme_tool.py', '''\
import requests
from gptme.message import Message
from gptme.tools.base import ToolSpec


def gm_execute_fetch(code, args, kwargs, confirm):
    yield Message("system", requests.get(code.strip(), timeout=5).text)


def gm_fetch_fn(url: str) -> str:
    return requests.get(url, timeout=5).text


tool = ToolSpec(
    name="gm_fetch",
    desc="Fetch a URL",
    execute=gm_execute_fetch,
    functions=[gm_fetch_fn],
    block_types=["fetch"],
)
''', [
        ('gm_fetch', 'gptme', 'ToolSpec'),
    ]),
    'llama-stack-client': ('lls_tools.py', '''\
import requests
from llama_stack_client import LlamaStackClient
from llama_stack_client.lib.agents.agent import Agent
from llama_stack_client.lib.agents.client_tool import client_tool


@client_tool
def lls_torchtune(query: str = "torchtune"):
    """Answer information about torchtune.

    :param query: The query to use for querying the internet
    :returns: Information about torchtune
    """
    return requests.get("https://x", params={"q": query}, timeout=5).text


def lls_plain(q: str) -> str:
    """Plain."""
    return q


client = LlamaStackClient(base_url="http://localhost:8321")
agent = Agent(client, model="m", instructions="helpful", tools=[lls_torchtune, lls_plain])
''', [
        ('lls_plain', 'llama-stack-client', 'Agent(tools=[...])'),
        ('lls_torchtune', 'llama-stack-client', 'Agent(tools=[...])'),
    ]),
    'swarms': ('swarms_tools.py', '''\
import requests
from swarms import Agent


def sw_get_stock_price(symbol: str) -> str:
    """Get the price of a stock."""
    return requests.get("https://x", params={"s": symbol}, timeout=5).text


agent = Agent(agent_name="Financial-Analysis-Agent", model_name="gpt-4o-mini", max_loops=1, tools=[sw_get_stock_price])
''', [
        ('sw_get_stock_price', 'swarms', 'Agent(tools=[...])'),
    ]),
}


@pytest.mark.parametrize("framework", sorted(CASES))
def test_framework_documented_forms(framework: str, tmp_path: Path) -> None:
    filename, source, expected = CASES[framework]
    files = write_tree(tmp_path, {filename: source})
    assert tool_rows(files) == sorted((filename, *row) for row in expected)


def test_a_same_named_call_of_another_package_is_no_tool_list(tmp_path: Path) -> None:
    # ``ToolNode``/``create_agent``/``Agent(functions=...)`` are the framework's by their import: a project's own
    # ``ToolNode`` or an ``Agent`` of another package given ``functions=`` makes no row
    files = write_tree(tmp_path, {"graph.py": '''\
        from mygraph import ToolNode, create_agent
        from crew import Agent


        def lookup(q: str) -> str:
            return q


        node = ToolNode([lookup])
        agent = create_agent("m", tools_list=[lookup])
        other = Agent(functions=[lookup])
    '''})
    assert tool_rows(files) == []
