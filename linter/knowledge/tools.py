"""Tools an agent can call: the framework forms that make a function or class a tool.

Tool decorators, the frameworks whose decorator turns a failure into text, tool base classes and
wrappers, module-based tool specs, tool-list constructors, and what a tool's body does (processes,
calls that stay local). Configuration's ``tool-decorators``/``tool-base-classes``/
``tool-list-constructors`` extend them. Read by ``smullyan tools`` (``linter/tools/``) and by the
errors rules through :class:`~smullyan.linter.knowledge.Knowledge` (``tool_decorators``,
``tool_base_classes``).
"""

from __future__ import annotations

from typing import Final, Mapping

from .toolsets import TOOLSET_BASES



# ---------------------------------------------------------------- tools (`smullyan tools`, linter/tools/)

# What makes a function a tool an agent can call, by qualified name -> framework.
# Decorators (``@tool``, ``@tool(...)``, ``@mcp.tool()`` where ``mcp = FastMCP(...)``:
# a method of an instance is spelled ``Class.method``). The configuration's
# ``tool-decorators`` adds to it (framework "configured").
TOOL_DECORATORS: Final[Mapping[str, str]] = {
    **{f"{m}.tool": "langchain" for m in ("langchain_core.tools", "langchain_core.tools.convert",
                                          "langchain.tools", "langchain.agents", "langchain.tools.convert")},
    **{f"{m}.function_tool": "openai-agents" for m in ("agents", "agents.tool")},
    # livekit-agents: ``@function_tool``/``@function_tool(name=..., raw_schema=...)`` (livekit/agents/llm/tool_context.py;
    # the first positional parameter is the function), on a module-level function as on an ``Agent`` method
    **{f"{m}.function_tool": "livekit" for m in ("livekit.agents", "livekit.agents.llm",
                                                 "livekit.agents.llm.tool_context")},
    **{f"{m}.tool": "mcp" for m in ("mcp.server.fastmcp.FastMCP", "mcp.server.fastmcp.server.FastMCP",
                                    "fastmcp.FastMCP", "fastmcp.server.FastMCP", "fastmcp.server.server.FastMCP",
                                    "mcp.server.MCPServer", "mcp.server.mcpserver.MCPServer",
                                    "mcp.server.mcpserver.server.MCPServer",
                                    # mcp 1.x re-exports FastMCP from ``mcp.server`` (``from mcp.server import FastMCP``)
                                    "mcp.server.FastMCP")},
    # ``server.add_tool(fn, name=..., title=...)``: the same registration as a call (mcp's FastMCP/MCPServer
    # ``add_tool``: its first parameter is the function; the tool is named by ``name=``, else by the function)
    **{f"{m}.add_tool": "mcp" for m in ("mcp.server.fastmcp.FastMCP", "mcp.server.fastmcp.server.FastMCP",
                                        "mcp.server.MCPServer", "mcp.server.mcpserver.MCPServer",
                                        "mcp.server.mcpserver.server.MCPServer", "mcp.server.FastMCP")},
    # the MCP Apps extension's ``@apps.tool(resource_uri=...)`` (mcp/server/apps.py ``Apps.tool``: the keywords go to
    # ``MCPServer.add_tool``; the instance is handed to ``MCPServer(extensions=[apps])``): one tool per function
    "mcp.server.apps.Apps.tool": "mcp",
    # ``@server.tool()`` on the low-level ``Server`` (a parameter annotated ``server: Server``): that class has no
    # ``tool`` method (mcp 1.x/2.x), so the decorator only means FastMCP's registration the code intends (quickbooks-mcp's
    # tools/*.py ``register_*_tools(server: Server, ...)``, batch 14): one tool per decorated function, as written
    **{f"{m}.tool": "mcp" for m in ("mcp.server.Server", "mcp.server.lowlevel.Server",
                                    "mcp.server.lowlevel.server.Server")},
    # the low-level server: one ``@server.call_tool()`` dispatcher serves the tools ``@server.list_tools()``
    # names (``types.Tool(name=...)``): one row per name, all run by the dispatcher
    **{f"{m}.call_tool": "mcp" for m in ("mcp.server.Server", "mcp.server.lowlevel.Server",
                                         "mcp.server.lowlevel.server.Server")},
    # lovia: ``@tool`` / ``@tool(name=..., description=...)`` (lovia/tools/base.py ``tool(fn=None, *, name=...)``,
    # re-exported by lovia.tools and lovia), its own plugins' tools as a user's
    **{f"{m}.tool": "lovia" for m in ("lovia", "lovia.tools", "lovia.tools.base")},
    **{f"{m}.kernel_function": "semantic-kernel" for m in ("semantic_kernel.functions",
                                                           "semantic_kernel.functions.kernel_function_decorator")},
    **{f"{m}.Registry.action": "browser-use" for m in ("browser_use.tools.registry.service",
                                                       "browser_use.controller.registry.service")},
    # Session 43: browser-use's documented ``tools = Tools(); @tools.action("...")`` (``Controller`` its alias;
    # browser_use/tools/service.py ``Tools.action``, re-exported by browser_use); mcp-agent ``app = MCPApp(...)``;
    # ``@app.tool`` / ``@app.async_tool(name=...)`` (mcp_agent/app.py)
    **{f"{m}.{c}.action": "browser-use" for m in ("browser_use", "browser_use.tools.service",
                                                  "browser_use.controller", "browser_use.controller.service")
       for c in ("Tools", "Controller")},
    **{f"{m}.MCPApp.{d}": "mcp-agent" for m in ("mcp_agent.app", "mcp_agent") for d in ("tool", "async_tool")},
    **{f"{m}.{d}": "pydantic-ai" for m in ("pydantic_ai.Agent", "pydantic_ai.agent.Agent",
                                           "pydantic_ai.FunctionToolset", "pydantic_ai.toolsets.FunctionToolset",
                                           "pydantic_ai.toolsets.function.FunctionToolset")
       for d in ("tool", "tool_plain")},
    **{f"{m}.tool": "crewai" for m in ("crewai.tools", "crewai.tools.base_tool", "crewai_tools")},
    **{f"{m}.tool": "smolagents" for m in ("smolagents", "smolagents.tools")},
    **{f"{m}.tool": "agno" for m in ("agno.tools", "agno.tools.decorator")},
    **{f"{m}.tool": "mirascope" for m in ("mirascope.llm", "mirascope.llm.tools", "mirascope.llm.tools.decorator")},
    # metagpt: on a function, or on a class (its public methods are the tool's)
    **{f"{m}.register_tool": "metagpt" for m in ("metagpt.tools.tool_registry",)},
    # strands-agents: ``@tool``, ``@tool(name=..., description=...)`` (the name by keyword only: the first
    # positional parameter is the function), on a function or a method (strands/tools/decorator.py)
    **{f"{m}.tool": "strands" for m in ("strands", "strands.tools", "strands.tools.decorator")},
    # inspect-ai: ``@tool`` / ``@tool(name=..., parallel=...)`` on a *factory* (``TOOL_FACTORY_DECORATORS``)
    **{f"{m}.tool": "inspect-ai" for m in ("inspect_ai.tool", "inspect_ai.tool._tool")},
    # aviary (fhaviary): ``Tool.from_function(fn)`` builds a tool of a function (aviary/tools/base.py), applied as a call
    **{f"{m}.Tool.from_function": "aviary" for m in ("aviary.core", "aviary.tools", "aviary.tools.base")},
    # promptflow: ``@tool`` / ``@tool(streaming_option_parameter=...)`` makes a flow node of a module-level function
    # or a ``ToolProvider`` method (promptflow/_core/tool.py, re-exported by promptflow, promptflow.core, ._internal)
    **{f"{m}.tool": "promptflow" for m in ("promptflow", "promptflow.core", "promptflow._internal",
                                           "promptflow._core.tool")},
    # arcade: ``@tool`` / ``@tool(requires_auth=..., metadata=...)`` on a toolkit's module-level function (arcade_tdk
    # ``tool``; arcade_mcp_server's ``tool`` mirrors it with an ``execution`` keyword; the toolkit loader collects the
    # decorated functions); ``@app.tool`` on an ``MCPApp`` (arcade_mcp_server/mcp_app.py)
    **{f"{m}.tool": "arcade" for m in ("arcade_tdk", "arcade_mcp_server",
                                       "arcade_mcp_server.decorators", "arcade_mcp_server.MCPApp",
                                       "arcade_mcp_server.mcp_app.MCPApp")},
    # nekro-agent: ``@plugin.mount_sandbox_method(SandboxMethodType.TOOL, name=..., description=...)`` where ``plugin =
    # NekroPlugin(...)`` registers a plugin's function for the model's sandbox code to call over RPC
    # (nekro_agent/services/plugin/base.py; re-exported by nekro_agent.api.plugin); not ``mount_prompt_inject_method``
    **{f"{m}.NekroPlugin.mount_sandbox_method": "nekro-agent" for m in ("nekro_agent.api.plugin",
                                                                       "nekro_agent.services.plugin.base")},
    # praisonaiagents: ``@tool`` / ``@tool(name=..., description=...)`` makes a ``FunctionTool`` of a function
    # (praisonaiagents/tools/decorator.py; re-exported by praisonaiagents.tools and, lazily, by praisonaiagents)
    **{f"{m}.tool": "praisonai" for m in ("praisonaiagents", "praisonaiagents.tools", "praisonaiagents.tools.decorator")},
    # NVIDIA NeMo Agent toolkit (nvidia-nat): ``@register_function(config_type=...)`` on an async generator that
    # builds the function from its config and builder and yields ``FunctionInfo.from_fn(inner, description=...)``
    # (nat/cli/register_workflow.py; an agent calls it as a tool by its config name): a factory
    # (``TOOL_FACTORY_DECORATORS``)
    "nat.cli.register_workflow.register_function": "nvidia-nat",
    # babyagi's functionz: ``@func.register_function(metadata=..., dependencies=...)`` (``func``, the framework's
    # ``Functionz`` instance) or ``@babyagi.register_function(...)`` stores the function in the framework's function
    # database (babyagi/functionz/core/registration.py ``register_function``: ``add_function(name, code=...)``); its
    # packs offer the registered functions to the model as tools (packs/default/function_calling_chat.py
    # ``chat_with_functions``: a LiteLLM ``tools=`` schema per function; drafts/react_agent.py). A pack imports ``func``
    # as ``babyagi.functionz.core.framework`` has it, or from below ``babyagi/`` (the loader puts it on ``sys.path``:
    # ``from functionz.core.framework import func``, ``from functionz import func``)
    **{f"{m}.register_function": "babyagi"
       for m in ("babyagi", "babyagi.functionz.core.framework.Functionz",
                 *(f"{p}.func" for p in ("babyagi.functionz", "babyagi.functionz.core.framework", "functionz",
                                         "functionz.core.framework")))},
    # fastmcp-extensions: ``@mcp_tool(read_only=..., idempotent=...)`` (keywords only: the tool is named after the
    # function) records the function for deferred registration; ``register_mcp_tools(app)`` hands each one to
    # fastmcp's ``app.tool(fn, annotations=...)`` (fastmcp_extensions/decorators.py, registration.py)
    **{f"{m}.mcp_tool": "fastmcp" for m in ("fastmcp_extensions", "fastmcp_extensions.decorators")},
    # crab (crab-framework): ``@action`` / ``@action(env_name=..., local=...)`` makes an ``Action`` of a function
    # (crab/core/decorators.py; re-exported by crab.core and crab); an environment's action space lists them
    **{f"{m}.action": "crab" for m in ("crab", "crab.core", "crab.core.decorators")},
    # llamabot: ``@tool`` / ``@tool(loopback_name=..., exclude_args=...)`` makes an AgentBot/ToolBot tool of a function
    # (llamabot/components/tools.py; lazily re-exported by llamabot)
    **{f"{m}.tool": "llamabot" for m in ("llamabot", "llamabot.components.tools")},
    # eidolon: ``@llm_function()`` / ``@llm_function(name=..., description=...)`` on a ``LogicUnit`` method registers
    # it as a function the agent's LLM calls (eidolon_ai_sdk/apu/logic_unit.py ``register_handler``)
    "eidolon_ai_sdk.apu.logic_unit.llm_function": "eidolon",
    # Session 42, the frameworks' own documented forms (each checked against the framework's docs or source):
    # anthropic SDK tool runner: ``@beta_tool`` / ``@beta_async_tool`` (anthropic/lib/tools/_beta_functions.py,
    # re-exported by anthropic and anthropic.lib.tools), run by ``client.beta.messages.tool_runner(tools=[...])``
    **{f"{m}.{d}": "anthropic" for m in ("anthropic", "anthropic.lib.tools", "anthropic.lib.tools._beta_functions")
       for d in ("beta_tool", "beta_async_tool")},
    # ag2 (autogen 0.2 line): ``@tool(name=..., description=...)`` (autogen/tools/tool.py) and
    # ``@assistant.register_for_llm(name=..., description=...)`` on a ``ConversableAgent`` (the LLM side of the pair
    # ``register_for_execution`` completes: one tool, named by ``name=``, else by the function)
    **{f"{m}.tool": "ag2" for m in ("autogen.tools", "autogen.tools.tool")},
    **{f"{m}.{c}.register_for_llm": "ag2" for m in ("autogen", "autogen.agentchat", "autogen.agentchat.conversable_agent")
       for c in ("ConversableAgent", "AssistantAgent", "UserProxyAgent")},
    # beeai-framework: ``@tool`` (beeai_framework/tools/tool.py, re-exported by beeai_framework.tools)
    **{f"{m}.tool": "beeai" for m in ("beeai_framework.tools", "beeai_framework.tools.tool")},
    # fastmcp 2.13+/3: the standalone ``@tool`` (fastmcp/tools/function_tool.py, re-exported by fastmcp.tools): the
    # function is an MCP tool once ``mcp.add_tool(fn)`` registers it
    **{f"{m}.tool": "mcp" for m in ("fastmcp.tools", "fastmcp.tools.function_tool")},
    # haystack-ai: ``@tool`` (haystack/tools/from_function.py, re-exported by haystack.tools)
    **{f"{m}.tool": "haystack" for m in ("haystack.tools", "haystack.tools.from_function")},
    # composio 0.x: ``@action(toolname=...)`` (composio/tools/local/base/decorators.py, re-exported by composio)
    **{f"{m}.action": "composio" for m in ("composio", "composio.tools.local.base.decorators")},
    # ell: ``@ell.tool()``; kani: ``@ai_function()`` on a ``Kani`` subclass's methods (kani/ai_function.py)
    **{f"{m}.tool": "ell" for m in ("ell", "ell.lmp.tool")},
    **{f"{m}.ai_function": "kani" for m in ("kani", "kani.ai_function")},
    # transformers (its agents, 4.x): ``@tool`` (transformers/agents/tools.py, re-exported by transformers)
    **{f"{m}.tool": "transformers" for m in ("transformers", "transformers.agents", "transformers.agents.tools")},
    # upsonic: ``@tool`` on a module-level function too (upsonic/tools/__init__.py; on ``ToolKit`` methods the
    # activity-style rule already finds it); phidata: ``@tool`` (phi/tools/decorator.py, re-exported by phi.tools)
    **{f"{m}.tool": "upsonic" for m in ("upsonic", "upsonic.tools")},
    **{f"{m}.tool": "phidata" for m in ("phi.tools", "phi.tools.decorator")},
    # composio 1.x/3.x: ``@composio.tools.custom_tool`` where ``composio = Composio()`` (composio/core/models/
    # tools.py ``Tools.custom_tool``)
    **{f"{m}.Composio.tools.custom_tool": "composio" for m in ("composio", "composio.sdk")},
    # agentscope 1.x: ``toolkit.register_tool_function(fn)`` where ``toolkit = Toolkit()`` (agentscope/tool/_toolkit.py)
    **{f"{m}.Toolkit.register_tool_function": "agentscope" for m in ("agentscope.tool", "agentscope.tool._toolkit")},
    # Session 44, the next frameworks' documented forms: Microsoft Agent Framework ``@tool`` / ``@tool(name=...,
    # description=...)`` (agent_framework/_tools.py ``tool(func=None, *, name=...)``: the name by keyword only; its
    # 1.0 betas' ``@ai_function`` likewise); claude-agent-sdk ``@tool("greet", "Greet a user", {"name": str})``
    # (claude_agent_sdk/__init__.py: the name first, an ``SdkMcpTool`` served by ``create_sdk_mcp_server(tools=[...])``)
    **{f"{m}.{d}": "agent-framework" for m in ("agent_framework", "agent_framework._tools")
       for d in ("tool", "ai_function")},
    "claude_agent_sdk.tool": "claude-agent-sdk",
    **{f"{m}.{d}": "runtime" for m in ("smullyan.runtime", "smullyan.runtime.classification")
       for d in ("read_safe", "idempotent_write", "non_idempotent_write", "irreversible")},
}
# Decorators of a tool *factory*: the decorated function builds the tool and returns it, and the tool the model
# calls is the function it returns (a nested ``def``, returned by name or handed to the call it returns:
# ``return execute``, ``return ToolDef(execute, ...).as_tool()``): its docstring, parameters and body are the
# tool's (or the nested function a generator factory yields). inspect-ai (inspect_ai/tool/_tool.py ``tool``: the
# registered object is the factory's result); nvidia-nat ``register_function``.
TOOL_FACTORY_DECORATORS: Final[frozenset[str]] = frozenset(
    {*(f"{m}.tool" for m in ("inspect_ai.tool", "inspect_ai.tool._tool")),
     # nvidia-nat: the factory is an async generator; the tool is the nested function it yields
     "nat.cli.register_workflow.register_function"}
)
# Tool decorators whose framework runs the tool inside a ``try`` that hands the model its failure as an error
# result (text) instead of letting the exception end the agent's turn: decorator qualified name -> (the
# wrapper's method, shown as ``failures_by``; a keyword of the decorator call that turns it off when given
# ``None``, or ""). Each checked against the framework's code:
# strands ``DecoratedFunctionTool.stream`` (strands/tools/decorator.py: ``except Exception as e`` yields a
# ``{"status": "error", "content": [{"text": f"Error: ..."}]}`` result); openai-agents ``@function_tool``
# (agents/tool.py: ``failure_error_function`` defaults to ``default_tool_error_function``, a fixed message;
# ``failure_error_function=None`` re-raises); MCP ``FastMCP``/``MCPServer`` ``@tool`` (the server's
# ``_handle_call_tool`` returns ``CallToolResult(content=[TextContent(text=str(exc))], is_error=True)``);
# every registration form of a framework carries its conversion: the decorator applied by a call
# (``mcp.tool()(fn)``, here or in another module), FastMCP's ``add_tool(fn)`` (the same tool manager and
# ``call_tool``), and the low-level ``@server.call_tool()`` dispatcher (mcp 1.x mcp/server/lowlevel/server.py
# ``Server.call_tool``'s handler: ``except Exception as e: return self._make_error_result(str(e))``, checked in 1.12.4);
# the standalone ``fastmcp`` ``FastMCP`` @tool (fastmcp/server/server.py ``FastMCP.call_tool``: any exception
# becomes ``ToolError(f"Error calling tool {name!r}: {e}")``, its details masked only when
# ``mask_error_details`` is set, default False; the MCP server returns it as an ``isError`` text result).
# Not here: langchain (``BaseTool.run`` turns only ``ToolException`` into text, and only with
# ``handle_tool_error``: a raised ``ToolException`` is already "typed"; any other exception propagates).
TOOL_DECORATOR_TEXT: Final[Mapping[str, tuple[str, str]]] = {
    **{f"{m}.tool": ("strands.tools.decorator.DecoratedFunctionTool.stream", "")
       for m in ("strands", "strands.tools", "strands.tools.decorator")},
    **{f"{m}.function_tool": ("agents.tool._FailureHandlingFunctionToolInvoker.__call__", "failure_error_function")
       for m in ("agents", "agents.tool")},
    **{f"{m}.{verb}": ("mcp.server.mcpserver.server.MCPServer._handle_call_tool", "")
       for m in ("mcp.server.fastmcp.FastMCP", "mcp.server.fastmcp.server.FastMCP", "mcp.server.MCPServer",
                 "mcp.server.mcpserver.MCPServer", "mcp.server.mcpserver.server.MCPServer", "mcp.server.FastMCP")
       for verb in ("tool", "add_tool")},
    "mcp.server.apps.Apps.tool": ("mcp.server.mcpserver.server.MCPServer._handle_call_tool", ""),  # its add_tool's
    **{f"{m}.call_tool": ("mcp.server.lowlevel.server.Server.call_tool", "")
       for m in ("mcp.server.Server", "mcp.server.lowlevel.Server", "mcp.server.lowlevel.server.Server")},
    **{f"{m}.tool": ("fastmcp.server.server.FastMCP.call_tool", "")
       for m in ("fastmcp.FastMCP", "fastmcp.server.FastMCP", "fastmcp.server.server.FastMCP")},
    # arcade ``@tool`` (arcade_core/executor.py ``ToolExecutor.run``: a ``ToolRuntimeError`` becomes a failed
    # ``ToolCallOutput`` carrying its message, any other exception one saying "Error in execution of 'name'" with
    # ``str(e)`` as its developer message; the model reads the failure as the call's output, s39)
    **{f"{m}.tool": ("arcade_core.executor.ToolExecutor.run", "")
       for m in ("arcade_tdk", "arcade_mcp_server", "arcade_mcp_server.decorators", "arcade_mcp_server.MCPApp",
                 "arcade_mcp_server.mcp_app.MCPApp")},
    # the Anthropic SDK's tool runner (``client.beta.messages.tool_runner(tools=[...])``) runs a ``@beta_tool`` /
    # ``@beta_async_tool`` in ``_run_tool``: ``except ToolError`` and ``except Exception`` both answer an ``is_error``
    # tool result carrying ``tool_error_content(exc)``, the exception's text (anthropic 2.x
    # anthropic/lib/tools/_beta_runner.py ``BaseSyncToolRunner._run_tool`` / ``BaseAsyncToolRunner._run_tool``, s57)
    **{f"{m}.{d}": (f"anthropic.lib.tools._beta_runner.Base{flavour}ToolRunner._run_tool", "")
       for m in ("anthropic", "anthropic.lib.tools", "anthropic.lib.tools._beta_functions")
       for d, flavour in (("beta_tool", "Sync"), ("beta_async_tool", "Async"))},
    # fastmcp-extensions' ``@mcp_tool``: registered later on a fastmcp ``FastMCP`` by ``app.tool(fn)``
    **{f"{m}.mcp_tool": ("fastmcp.server.server.FastMCP.call_tool", "")
       for m in ("fastmcp_extensions", "fastmcp_extensions.decorators")},
}
#: MCP server classes by qualified name -> the method that answers what a tool raises with an error result carrying
#: its text (their ``TOOL_DECORATOR_TEXT`` wrapper: the official FastMCP/MCPServer's ``_handle_call_tool``, the
#: standalone fastmcp's ``FastMCP.call_tool``, the low-level ``Server.call_tool``). A tool registered on a receiver
#: the run cannot type (``def register(mcp, ctx): @mcp.tool ...``) is served by one of the run's imported servers:
#: when they all share one wrapper, it is the row's (linter/tools/describe.py, s50)
MCP_SERVER_TEXT: Final[Mapping[str, str]] = {
    key.rpartition(".")[0]: text for key, (text, _off) in TOOL_DECORATOR_TEXT.items()
    if TOOL_DECORATORS.get(key) == "mcp" and key.rpartition(".")[0].rsplit(".", 1)[-1] in ("FastMCP", "MCPServer", "Server")
}
# Base classes whose subclasses are tools, by qualified name -> (framework, the
# methods that run the tool). "*register" instead of method names: the methods
# the subclass registers by referring to ``self.<method>`` in ``__init__``
# (agno's ``Toolkit(tools=[self.search])``). Subclasses of subclasses count,
# across the files of one run. The configuration's ``tool-base-classes`` adds
# to it (methods ``_run``, ``_arun``, ``run``, ``forward``).
TOOL_BASE_CLASSES: Final[Mapping[str, tuple[str, tuple[str, ...]]]] = {
    **{f"{m}.{c}": ("langchain", ("_run", "_arun")) for m in ("langchain_core.tools", "langchain_core.tools.base",
                                                             "langchain_core.tools.simple",
                                                             "langchain_core.tools.structured", "langchain.tools")
       for c in ("BaseTool", "Tool", "StructuredTool")},
    # crewai; crewai-tools before crewai 0.80 documented ``from crewai_tools import BaseTool`` (crewai_tools/tools/base_tool.py)
    **{f"{m}.BaseTool": ("crewai", ("_run", "_arun")) for m in ("crewai.tools", "crewai.tools.base_tool", "crewai_tools",
                                                               "crewai_tools.tools", "crewai_tools.tools.base_tool")},
    **{f"{m}.{c}": ("smolagents", ("forward",)) for m in ("smolagents", "smolagents.tools")
       for c in ("Tool", "PipelineTool")},
    **{f"{m}.{c}": ("autogen", ("run",)) for m in ("autogen_core.tools", "autogen_core.tools._base")
       for c in ("BaseTool", "BaseToolWithState")},
    **{f"{m}.Toolkit": ("agno", ("*register",)) for m in ("agno.tools", "agno.tools.toolkit")},
    # agentica: a ``Tool`` subclass registers its methods in ``__init__`` (``self.register(self.search)``,
    # agentica/tools/base.py ``Tool.register`` wraps each in a ``Function``); re-exported by agentica.tools and agentica
    **{f"{m}.Tool": ("agentica", ("*register",)) for m in ("agentica", "agentica.tools", "agentica.tools.base")},
    **{f"{m}.BaseTool": ("google-adk", ("run_async",)) for m in ("google.adk.tools", "google.adk.tools.base_tool")},
    **{f"{m}.ToolBase": ("agentscope", ("call",)) for m in ("agentscope.tool", "agentscope.tool._base")},
    **{f"{m}.ToolMessage": ("langroid", ("handle", "handle_async", "response", "response_async"))
       for m in ("langroid", "langroid.agent", "langroid.agent.tool_message")},
    # praisonaiagents: ``BaseTool`` (praisonaiagents/tools/base.py, an ABC): a subclass implements the abstract ``run``
    # (``__call__`` and ``safe_run`` run it); re-exported by praisonaiagents.tools and, lazily, by praisonaiagents
    **{f"{m}.BaseTool": ("praisonai", ("run",)) for m in ("praisonaiagents", "praisonaiagents.tools",
                                                           "praisonaiagents.tools.base")},
    # Session 42: atomic-agents ``BaseTool`` (``run(params)``: atomic_agents/base/base_tool.py in 2.x, re-exported by
    # atomic_agents; atomic_agents/lib/base/base_tool.py in 1.x); beeai-framework ``Tool`` (``_run``); agency-swarm
    # ``BaseTool`` (a pydantic model whose ``run`` the agency calls); phidata ``Toolkit`` (``self.register(self.fn)``,
    # as agno's); taskweaver's ``Plugin`` (``__call__``, registered by ``@register_plugin``)
    **{f"{m}.BaseTool": ("atomic-agents", ("run",)) for m in ("atomic_agents", "atomic_agents.base",
                                                                "atomic_agents.base.base_tool",
                                                                "atomic_agents.lib.base.base_tool")},
    **{f"{m}.Tool": ("beeai", ("_run",)) for m in ("beeai_framework.tools", "beeai_framework.tools.tool")},
    **{f"{m}.BaseTool": ("agency-swarm", ("run",)) for m in ("agency_swarm", "agency_swarm.tools",
                                                               "agency_swarm.tools.BaseTool")},
    **{f"{m}.Toolkit": ("phidata", ("*register",)) for m in ("phi.tools", "phi.tools.toolkit")},
    **{f"{m}.Plugin": ("taskweaver", ("__call__",)) for m in ("taskweaver.plugin", "taskweaver.plugin.base")},
    # llama-index ``BaseToolSpec``: the methods ``spec_functions`` names; simonw ``llm.Toolbox``: its public methods
    **{f"{m}.BaseToolSpec": ("llama-index", ("*spec_functions",)) for m in ("llama_index.core.tools.tool_spec.base",
                                                                             "llama_index.core.tools")},
    **{f"{m}.Toolbox": ("llm", ("*public",)) for m in ("llm", "llm.models")},
    # strands-agents: the ``AgentTool`` interface (strands/types/tools.py, re-imported by strands/tools/tools.py)
    # and ``PythonAgentTool``; the agent's executor runs ``stream``
    **{f"{m}.{c}": ("strands", ("stream",)) for m, c in (("strands.types.tools", "AgentTool"),
                                                         ("strands.tools.tools", "AgentTool"),
                                                         ("strands.tools", "PythonAgentTool"),
                                                         ("strands.tools.tools", "PythonAgentTool"))},
    # flowllm ``BaseAsyncToolOp`` (flowllm/core/op/base_async_tool_op.py; flowllm/op/ before 0.2): a subclass describes
    # its tool in ``build_tool_call`` and runs it in ``async_execute`` (served as MCP/HTTP flow tools; finance-mcp)
    **{f"{m}.BaseAsyncToolOp": ("flowllm", ("async_execute",)) for m in ("flowllm.core.op",
                                                                          "flowllm.core.op.base_async_tool_op",
                                                                          "flowllm.op", "flowllm.op.base_async_tool_op")},
    **TOOLSET_BASES,  # the Anthropic SDK's computer and browser toolsets: each member a subclass overrides (toolsets.py)
}
# Tool classes run by an agent's method when they have no run method of their own: framework -> the class field whose
# literal default names that method (langroid: ``request: str = "square"`` is handled by ``def square(self, msg:
# SquareTool)`` on the ``ChatAgent`` subclass that enables the message, langroid/agent/base.py ``handle_message``:
# ``getattr(self, tool.request)``); the method must take the class as a parameter's annotation, in the same file.
TOOL_REQUEST_FIELDS: Final[Mapping[str, str]] = {"langroid": "request"}
# Calls that make a tool of a function passed to them: qualified name ->
# (framework, keyword, position) of the function argument (``FunctionTool.from_defaults(fn=search)``,
# ``FunctionTool(self.search)``); only a function of the same module (or a
# method of the enclosing class) becomes a row.
TOOL_WRAPPERS: Final[Mapping[str, tuple[str, str, int | None]]] = {
    **{f"{m}.FunctionTool.from_defaults": ("llamaindex", "fn", 0)
       for m in ("llama_index.core.tools", "llama_index.core.tools.function_tool")},
    **{f"{m}.{c}.from_function": ("langchain", "func", 0) for m in ("langchain_core.tools", "langchain.tools",
                                                                   "langchain_core.tools.structured",
                                                                   "langchain_core.tools.simple")
       for c in ("StructuredTool", "Tool")},
    **{f"{m}.Tool": ("pydantic-ai", "function", 0) for m in ("pydantic_ai", "pydantic_ai.tools")},
    # pydantic-ai ``Tool.from_schema(function=f, name=..., description=..., json_schema=...)`` (pydantic_ai/tools.py:
    # a tool whose parameters schema is given, not read from the signature)
    **{f"{m}.Tool.from_schema": ("pydantic-ai", "function", 0) for m in ("pydantic_ai", "pydantic_ai.tools")},
    **{f"{m}.FunctionTool": ("camel", "func", 0) for m in ("camel.toolkits", "camel.toolkits.function_tool")},
    **{f"{m}.FunctionTool": ("autogen", "func", 0) for m in ("autogen_core.tools", "autogen_core.tools._function_tool")},
    **{f"{m}.FunctionTool": ("google-adk", "func", 0) for m in ("google.adk.tools", "google.adk.tools.function_tool")},
    **{f"{m}.LongRunningFunctionTool": ("google-adk", "func", 0) for m in ("google.adk.tools",
                                                                            "google.adk.tools.long_running_tool")},
    **{f"{m}.PythonAgentTool": ("strands", "tool_func", 2) for m in ("strands.tools", "strands.tools.tools")},
    # openai-agents: ``FunctionTool(name=..., params_json_schema=..., on_invoke_tool=run)`` (agents/tool.py)
    **{f"{m}.FunctionTool": ("openai-agents", "on_invoke_tool", 3) for m in ("agents", "agents.tool")},
    # ToolAgents: ``FunctionTool(search)``, ``AsyncFunctionTool(self.fetch)`` (ToolAgents/function_tool.py: the
    # first parameter ``function_tool`` is a function, a pydantic model with ``run``, or a (spec, callback) pair)
    **{f"{m}.{c}": ("toolagents", "function_tool", 0) for m, c in (("ToolAgents", "FunctionTool"),
                                                                  ("ToolAgents.function_tool", "FunctionTool"),
                                                                  ("ToolAgents.function_tool", "AsyncFunctionTool"))},
    # Session 42: fastmcp 2.x ``Tool.from_function(fn, name=...)`` (fastmcp/tools/tool.py; ``FunctionTool`` in 2.10+,
    # fastmcp/tools/function_tool.py), handed to ``mcp.add_tool(...)``
    **{f"{m}.{c}.from_function": ("mcp", "fn", 0) for m in ("fastmcp.tools", "fastmcp.tools.tool",
                                                            "fastmcp.tools.function_tool")
       for c in ("Tool", "FunctionTool")},
    # haystack-ai ``create_tool_from_function(f)`` (haystack/tools/from_function.py)
    **{f"{m}.create_tool_from_function": ("haystack", "function", 0) for m in ("haystack.tools",
                                                                                "haystack.tools.from_function")},
    # dspy ``dspy.Tool(f)`` (dspy/adapters/types/tool.py; dspy/primitives/tool.py before 2.6.14)
    **{f"{m}.Tool": ("dspy", "func", 0) for m in ("dspy", "dspy.adapters", "dspy.adapters.types",
                                                  "dspy.adapters.types.tool", "dspy.primitives.tool")},
    # letta ``client.tools.upsert_from_function(func=f)`` / ``create_from_function`` where ``client = Letta(...)``
    # (letta_client's ToolsClient); semantic-kernel ``kernel.add_function(plugin_name, function=f)`` (a ``Kernel``'s
    # ``KernelFunctionExtension.add_function``: a plain function becomes a ``KernelFunctionFromMethod``)
    **{f"{m}.{c}.tools.{v}": ("letta", "func", None) for m in ("letta_client",) for c in ("Letta", "AsyncLetta")
       for v in ("upsert_from_function", "create_from_function")},
    **{f"{m}.Kernel.add_function": ("semantic-kernel", "function", 1) for m in ("semantic_kernel",
                                                                                  "semantic_kernel.kernel")},
    # ag2 ``register_function(f, caller=..., executor=..., name=..., description=...)`` (autogen/agentchat/
    # conversable_agent.py, re-exported by autogen)
    **{f"{m}.register_function": ("ag2", "f", 0) for m in ("autogen", "autogen.agentchat",
                                                           "autogen.agentchat.conversable_agent")},
    # openai-agents ``function_tool(f, name_override=...)`` applied as a call (agents/tool.py: ``func`` first); here so
    # that livekit's namespace spelling ``agents.function_tool`` (linter/tools/model.py) does not claim the name
    **{f"{m}.function_tool": ("openai-agents", "func", 0) for m in ("agents", "agents.tool")},
    # livekit-agents: ``function_tool(self._end_call, name="end_call")``, ``function_tool(impl, raw_schema=...)``
    **{f"{m}.function_tool": ("livekit", "f", 0) for m in ("livekit.agents", "livekit.agents.llm",
                                                          "livekit.agents.llm.tool_context")},
    # Session 43: pydantic-ai ``toolset.add_function(f)`` (pydantic_ai/toolsets/function.py ``FunctionToolset``);
    # pipecat ``llm.register_function("get_weather", fetch_weather)``, ``llm.register_direct_function(f)`` on any of
    # its LLM services (pipecat/services/llm_service.py ``LLMService``, which every provider's service derives from:
    # ``pkg.*.method`` is a method of any class of the package, :func:`linter.tools.wrappers.wrapper_of`)
    **{f"{m}.FunctionToolset.add_function": ("pydantic-ai", "func", 0)
       for m in ("pydantic_ai", "pydantic_ai.toolsets", "pydantic_ai.toolsets.function")},
    "pipecat.*.register_function": ("pipecat", "handler", 1),
    "pipecat.*.register_direct_function": ("pipecat", "handler", 0),
    # Session 44: agent-framework ``FunctionTool(name=..., description=..., func=f)`` (agent_framework/_tools.py);
    # gptme's tool modules ``tool = ToolSpec(name=..., desc=..., execute=f)`` (gptme/tools/base.py: ``execute`` runs
    # the tool's block). (claude-agent-sdk's ``SdkMcpTool(name=..., handler=f)`` is found as any ``*Tool`` class
    # handed a callable is.)
    **{f"{m}.FunctionTool": ("agent-framework", "func", None) for m in ("agent_framework", "agent_framework._tools")},
    **{f"{m}.ToolSpec": ("gptme", "execute", None) for m in ("gptme.tools", "gptme.tools.base")},
}
# Module-based tools: a module whose top level assigns this name a dict literal holding these keys, and
# defines a function named after the module itself (its file's stem; a package's name for its
# ``__init__.py``), is one tool run by that function, named by the dict's literal "name"; not when the module
# holds a decorated tool of the same framework (they come first). strands-agents: strands/tools/loader.py
# ``load_tools_from_module`` (the function), strands/tools/registry.py ``validate_tool_spec`` (the keys).
TOOL_MODULE_SPECS: Final[Mapping[str, tuple[str, frozenset[str]]]] = {
    "TOOL_SPEC": ("strands", frozenset({"name", "description", "inputSchema"})),
}
# A tool spec dict that carries the function running it: a dict literal with a description, an input schema and
# the callable, by these keys (``{"description": ..., "input_schema": Args.model_json_schema(), "function": f}``,
# alone with a literal "name" or as the value under a tool name in a registry dict): what a low-level MCP server's
# ``list_tools`` hands the model and its ``call_tool`` runs (linter/tools/specs.py). The same keys make a call a tool
# spec (indusagi's ``ToolSpec(name="write", description=..., parameters=..., run=_run_write)``: ``run``).
TOOL_SPEC_KEYS: Final[tuple[frozenset[str], frozenset[str], frozenset[str]]] = (
    frozenset({"description"}),
    frozenset({"input_schema", "inputSchema", "parameters", "args_schema"}),
    frozenset({"function", "func", "fn", "handler", "callable", "callback", "executor", "execute", "run"}),
)
# A tool description: a dict literal naming a tool and saying what it does for a model, by these keys (the name's
# and the description's, then its parameters'). Given to a function as an attribute (LightAgent: ``f.tool_info =
# {"tool_name": ..., "tool_description": ..., "tool_params": [...]}``, read back by the agent's tool registry), the
# function is the tool; in a module-level table of such entries naming a function only by that name (biomni's
# ``tool_description`` modules: ``description = [{"name": "query_uniprot", "description": ..., "required_parameters":
# [...]}]``, the function in the module of the same name one package up), the function of the run so named and so
# placed is (linter/tools/specs.py).
TOOL_DESCRIPTION_KEYS: Final[tuple[frozenset[str], frozenset[str], frozenset[str]]] = (
    frozenset({"name", "tool_name"}),
    frozenset({"description", "tool_description"}),
    frozenset({"parameters", "required_parameters", "optional_parameters", "tool_params", "params", "input_schema",
               "inputSchema", "args_schema", "arguments"}),
)
# Constructors whose ``tools=[f, g]`` list takes plain functions (pydantic-ai ``Agent(tools=[...])``).
# Besides these, any call whose callee's last name ends in ``Agent`` (``Agent``, ``ChatAgent``,
# ``AssistantAgent``: linter/tools/forms.py ``_AGENT_SUFFIX``) and the configuration's
# ``tool-list-constructors`` (framework "configured").
TOOL_LIST_CONSTRUCTORS: Final[Mapping[str, str]] = {
    **{f"{m}.Agent": "pydantic-ai" for m in ("pydantic_ai", "pydantic_ai.agent")},
    **{f"{m}.FunctionToolset": "pydantic-ai" for m in ("pydantic_ai", "pydantic_ai.toolsets",
                                                       "pydantic_ai.toolsets.function")},
    # Session 42, the frameworks' documented agent constructors whose name does not end in ``Agent``:
    # langgraph ``create_react_agent(model, tools=[...])``, ``ToolNode([f, g])``; langchain 1.x ``create_agent(model,
    # tools=[...])``, 0.x ``initialize_agent(tools, llm)``, ``AgentExecutor(agent=..., tools=[...])``
    **{f"{m}.create_react_agent": "langgraph" for m in ("langgraph.prebuilt", "langgraph.prebuilt.chat_agent_executor")},
    **{f"{m}.ToolNode": "langgraph" for m in ("langgraph.prebuilt", "langgraph.prebuilt.tool_node")},
    **{f"{m}.create_agent": "langchain" for m in ("langchain.agents", "langchain.agents.factory")},
    **{f"{m}.{c}": "langchain" for m in ("langchain.agents", "langchain_classic.agents")
       for c in ("initialize_agent", "AgentExecutor")},
    # llama-index ``AgentWorkflow.from_tools_or_functions([f], llm=...)``; ``ReActAgent.from_tools([f])`` (0.10-0.11)
    **{f"{m}.AgentWorkflow.from_tools_or_functions": "llama-index" for m in ("llama_index.core.agent.workflow",
                                                                            "llama_index.core.agent.workflow.multi_agent_workflow")},
    **{f"{m}.{c}.from_tools": "llama-index" for m in ("llama_index.core.agent", "llama_index.agent.openai")
       for c in ("ReActAgent", "OpenAIAgent", "FunctionCallingAgent")},
    # dspy ``dspy.ReAct(signature, tools=[f])``, ``dspy.CodeAct(...)``; controlflow / marvin ``run(..., tools=[f])``,
    # ``Task(..., tools=[f])``; upsonic ``Task(..., tools=[f])``; swarm ``Agent(functions=[f])``; haystack ``ToolInvoker``
    **{f"{m}.{c}": "dspy" for m in ("dspy", "dspy.predict") for c in ("ReAct", "CodeAct")},
    **{f"{m}.{c}": m for m in ("controlflow", "marvin") for c in ("run", "run_async", "Task")},
    **{f"{m}.Task": "upsonic" for m in ("upsonic",)},
    **{f"{m}.Agent": "swarm" for m in ("swarm", "swarm.types")},
    **{f"{m}.ToolInvoker": "haystack" for m in ("haystack.components.tools",)},
    # magentic ``@prompt("...", functions=[f])`` / ``@chatprompt(..., functions=[f])`` (magentic/prompt_function.py)
    **{f"{m}.{c}": "magentic" for m in ("magentic",) for c in ("prompt", "chatprompt")},
    # Session 43: ollama ``chat(model, messages, tools=[f])`` (a plain function: ollama/_client.py, its schema from
    # the signature and docstring), the module's and a ``Client``'s; google-genai
    # ``types.GenerateContentConfig(tools=[f])`` (automatic function calling); any-agent ``AgentConfig(tools=[f])``;
    # mcp-agent ``Agent(name=..., functions=[f])`` (mcp_agent/agents/agent.py)
    **{f"{m}.chat": "ollama" for m in ("ollama", "ollama.Client", "ollama.AsyncClient", "ollama._client.Client",
                                       "ollama._client.AsyncClient")},
    **{f"{m}.GenerateContentConfig": "google-genai" for m in ("google.genai.types",)},
    **{f"{m}.AgentConfig": "any-agent" for m in ("any_agent", "any_agent.config")},
    **{f"{m}.Agent": "mcp-agent" for m in ("mcp_agent.agents.agent",)},
    # Session 44: claude-agent-sdk ``create_sdk_mcp_server(name=..., tools=[greet])`` (the ``@tool`` functions it serves)
    "claude_agent_sdk.create_sdk_mcp_server": "claude-agent-sdk",
}
# Of those, the ones whose tool list is not (only) the ``tools=`` keyword: qualified name -> (the keyword, the
# position of the argument that may hold it, else None).
TOOL_LIST_ARGUMENTS: Final[Mapping[str, tuple[str, int | None]]] = {
    **{f"{m}.ToolNode": ("tools", 0) for m in ("langgraph.prebuilt", "langgraph.prebuilt.tool_node")},
    **{f"{m}.initialize_agent": ("tools", 0) for m in ("langchain.agents", "langchain_classic.agents")},
    **{f"{m}.AgentWorkflow.from_tools_or_functions": ("tools_or_functions", 0)
       for m in ("llama_index.core.agent.workflow", "llama_index.core.agent.workflow.multi_agent_workflow")},
    **{f"{m}.{c}.from_tools": ("tools", 0) for m in ("llama_index.core.agent", "llama_index.agent.openai")
       for c in ("ReActAgent", "OpenAIAgent", "FunctionCallingAgent")},
    # pydantic-ai ``FunctionToolset([f, g])`` (pydantic_ai/toolsets/function.py: ``tools`` is its first parameter)
    **{f"{m}.FunctionToolset": ("tools", 0) for m in ("pydantic_ai", "pydantic_ai.toolsets",
                                                      "pydantic_ai.toolsets.function")},
    **{f"{m}.Agent": ("functions", None) for m in ("swarm", "swarm.types")},
    **{f"{m}.{c}": ("functions", None) for m in ("magentic",) for c in ("prompt", "chatprompt")},
    **{f"{m}.Agent": ("functions", None) for m in ("mcp_agent.agents.agent",)},
}
# Methods whose tool list is their argument on any receiver the run resolves (a chat model of any provider): method ->
# (framework, keyword, position). langchain ``llm.bind_tools([f, g])`` (``BaseChatModel.bind_tools``).
TOOL_LIST_METHODS: Final[Mapping[str, tuple[str, str, int | None]]] = {
    "bind_tools": ("langchain", "tools", 0),
}
# Calls in the timeout tables that are not a call out of the process: they build a
# client (whose timeout its requests inherit) or bound other work; a tool's row
# does not list them as external calls.
TOOL_NOT_EXTERNAL: Final[frozenset[str]] = frozenset(
    {"httpx.Client", "httpx.AsyncClient", "redis.Redis", "redis.from_url", "redis.Redis.from_url",
     "redis.asyncio.Redis", "redis.asyncio.from_url", "redis.asyncio.Redis.from_url",
     "asyncio.wait_for", "asyncio.timeout", "asyncio.timeout_at", "async_timeout.timeout",
     "async_timeout.timeout_at", "anyio.fail_after", "anyio.move_on_after"}
)
# Process calls with no timeout parameter at all (a row lists them, timeout "none possible").
TOOL_PROCESS_CALLS: Final[frozenset[str]] = frozenset(
    {"os.system", "os.popen", "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell", "subprocess.Popen"}
)
# Activity-style frameworks: a decorator whose last name is one of these (or any snake-case name with the word
# ``tool`` that is not an event hook: ``tool_api``, not ``on_tool_start``; linter/tools/index.py ``tool_word``),
# imported from the
# same top-level package as a base class of the class whose method (or a function nested in one) it
# decorates (at any depth: the class's ancestors through the files of the run), makes a tool
# (``from upsonic.tools import ToolKit, tool``; ``@tool`` on ``ToolKit``
# subclass methods) without configuration.
TOOL_DECORATOR_WORDS: Final[frozenset[str]] = frozenset(
    {"tool", "function_tool", "tool_method", "action", "activity", "kernel_function", "register_tool", "toolkit_tool"}
)
# A project class that defines a tool, by its name: the word ``Tool`` and then one of these as its last word
# (``ToolSpec``, ``ToolDef``, ``ToolDefinition``; linter/tools/spec_classes.py). A call of the run's own such class
# naming the tool by a literal first argument and handing one function of the module, by a later positional argument
# (``ToolSpec("list_modules", "List ...", schema, _h_list_modules)``) or by a keyword that says it runs
# (``ToolDef("bash", desc, params, run=_run_bash)``), makes that function the tool.
TOOL_SPEC_CLASS_NOUNS: Final[frozenset[str]] = frozenset({"Spec", "Specification", "Def", "Definition"})
# The low-level MCP server classes (mcp 1.x/2.x ``mcp/server/lowlevel/server.py``): mcp 2.x hands one its
# ``tools/call`` handler by keyword, ``Server(name, on_list_tools=..., on_call_tool=handler)``, called
# ``handler(ctx, params)`` with ``params.name`` the called tool (linter/tools/jsonrpc.py).
LOWLEVEL_MCP_SERVERS: Final[frozenset[str]] = frozenset(
    {"mcp.server.Server", "mcp.server.lowlevel.Server", "mcp.server.lowlevel.server.Server"})
# MCP client sessions whose ``call_tool(name, arguments)`` runs a remote server's tool: a function calling it with a
# name that is no literal forwards the model's calls to that server's tools (a proxy: ``smullyan tools`` gives it one
# row, ``<source>:<tool>``, linter/tools/proxies.py) -> the source word of the row's name.
MCP_CLIENT_SESSIONS: Final[Mapping[str, str]] = {c: "mcp" for c in (
    "mcp.ClientSession", "mcp.client.session.ClientSession", "mcp.ClientSessionGroup", "mcp.client.session_group.ClientSessionGroup",
    "fastmcp.Client", "fastmcp.client.Client", "fastmcp.client.client.Client")}
# Methods a configured ``tool-base-classes`` subclass runs.
CONFIGURED_TOOL_METHODS: Final[tuple[str, ...]] = ("_run", "_arun", "run", "arun", "forward", "__call__")

# ---------------------------------------------------------------- tools declared in data files (linter/tools/declared.py)

# Frameworks whose users declare tools in YAML that one runner class of the framework runs: framework -> (the
# runner class's qualified name, its method that runs a declared tool, the top-level package whose import by the run
# makes the form apply, the file's shape: top-level key, per-toolset list key, the keys whose text runs; the form
# shown; the runner's calls out (what, timeout) and failure modes, used when the runner is not among the run's files
# (when it is, its own row's facts are copied)). holmesgpt: holmes/plugins/toolsets/*.yaml, ``toolsets: <name>:
# tools: - name: ... command: | script: ...``, loaded with ``yaml.safe_load`` (holmes/plugins/toolsets/__init__.py),
# each tool a ``YAMLTool`` whose ``_invoke`` renders the Jinja template and runs it with ``subprocess.run(shell=True)``
# and no timeout; a non-zero exit or an exception comes back as an error text (holmes/core/tools.py).
TOOL_DATA_FILES: Final[Mapping[str, tuple[str, str, str, tuple[str, str, tuple[str, ...]], str,
                                          tuple[tuple[str, str], ...], tuple[str, ...]]]] = {
    "holmesgpt": ("holmes.core.tools.YAMLTool", "_invoke", "holmes", ("toolsets", "tools", ("command", "script")),
                  "YAML toolset", (("subprocess.run", "missing"),), ("text",)),
}
# Tool decorators that take the MCP annotation hints as their own keywords and send all of them, a hint not given
# being False (fastmcp-extensions' ``@mcp_tool(read_only=True, idempotent=True)`` builds ``{readOnlyHint: read_only,
# destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: open_world}``, each defaulting to False;
# fastmcp_extensions/decorators.py): decorator -> keyword -> the MCP hint it sets. The tool's class is declared when
# at least one hint is given literally and none is given by a variable.
HINT_KEYWORD_DECORATORS: Final[Mapping[str, Mapping[str, str]]] = {
    f"{m}.mcp_tool": {"read_only": "readOnlyHint", "destructive": "destructiveHint", "idempotent": "idempotentHint"}
    for m in ("fastmcp_extensions", "fastmcp_extensions.decorators")
}
