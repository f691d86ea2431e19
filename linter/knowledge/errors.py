"""Typed errors and where an exception's text goes (TFH401, TFH5xx).

The runtime's ToolError variants, constructors, classes and parsers under every spelling (the
closed-union rules TFH5xx, ``linter/tools/``), where an error is recorded (loggers, trackers), and
TFH401's scope: the exception's text attributes, the calls and methods the text flows through,
format-repair and argument-validation errors, typed error events, the messages a model reads, and
where the text goes to a person instead (web routes and responses, CLI commands), code-running tools.
Read by the errors family (``rules/errors/``) and the union rules (``rules/union/``) through
:class:`~smullyan.linter.knowledge.Knowledge`, and by ``linter/tools/`` (the ``failures`` column).
"""

from __future__ import annotations

import re
from typing import Final, Mapping

from ...runtime import TAGS


# ---------------------------------------------------------------- typed errors

RUNTIME_MODULES: Final[tuple[str, ...]] = ("smullyan.runtime", "smullyan.runtime._errors")
# The variants are the runtime's own list (one source of truth: an eighth
# variant reaches the rules without an edit here); each has a lower-case
# constructor of the same name in snake_case.
TOOL_ERROR_VARIANTS: Final[tuple[str, ...]] = TAGS
_TOOL_ERROR_FUNCS: Final[tuple[str, ...]] = (
    *(re.sub(r"(?<!^)(?=[A-Z])", "_", tag).lower() for tag in TAGS),
    "ToolFailure",
    "from_exception",
    "from_http",
)
# Calls that turn an exception into a typed ToolError (building one from the
# exception's text is fine: the type carries the decision, not the text).
TOOL_ERROR_CONSTRUCTORS: Final[frozenset[str]] = frozenset(
    f"{mod}.{name}"
    for mod in (*RUNTIME_MODULES, "smullyan.runtime._mapping")
    for name in (*TOOL_ERROR_VARIANTS, *_TOOL_ERROR_FUNCS)
)

# ---------------------------------------------------------------- TFH5xx: the closed union

# Qualified name -> tag, for every variant class (``smullyan.runtime.Denied`` -> ``Denied``).
TOOL_ERROR_CLASSES: Final[Mapping[str, str]] = {
    f"{mod}.{tag}": tag for mod in RUNTIME_MODULES for tag in TOOL_ERROR_VARIANTS
}
# The union itself, and ``Result`` (``Ok[T] | Err[ToolError]``): an annotation
# naming one of them makes a value a ToolError (or a Result).
TOOL_ERROR_UNION: Final[frozenset[str]] = frozenset(f"{mod}.ToolError" for mod in RUNTIME_MODULES)
RESULT_TYPES: Final[frozenset[str]] = frozenset(f"{mod}.{n}" for mod in RUNTIME_MODULES for n in ("Result", "Err"))
OK_CLASSES: Final[frozenset[str]] = frozenset(f"{mod}.Ok" for mod in RUNTIME_MODULES)
ERR_CLASSES: Final[frozenset[str]] = frozenset(f"{mod}.Err" for mod in RUNTIME_MODULES)
# ``Err``'s one field, by keyword (``case Err(error=NotFound())``).
ERR_FIELD: Final[str] = "error"
# Functions whose result is a ToolError (or None): the wire parsers.
TOOL_ERROR_PARSERS: Final[frozenset[str]] = frozenset(
    f"{mod}.{fn}" for mod in ("smullyan.runtime", "smullyan.runtime._wire") for fn in ("parse", "parse_json")
)
# ``assert_never`` under its three homes; a bare ``assert_never`` defined in
# the module itself (the usual backport for Python 3.10) counts too.
ASSERT_NEVER: Final[frozenset[str]] = frozenset(
    {"typing.assert_never", "typing_extensions.assert_never", *(f"{mod}.assert_never" for mod in RUNTIME_MODULES)}
)
# Where a ToolError's tag lives: the class attribute ``e.tag``, the wire
# form's key ``d["_tag"]`` (also ``d.get("_tag")``), and the class name
# (``type(e).__name__``).
TAG_ATTRIBUTE: Final[str] = "tag"
WIRE_TAG_KEY: Final[str] = "_tag"

# Attributes of an exception that hold its message text.
EXCEPTION_TEXT_ATTRIBUTES: Final[frozenset[str]] = frozenset(
    {"args", "message", "msg", "strerror"}
)
# Calls that format the exception currently being handled.
TRACEBACK_FORMATTERS: Final[frozenset[str]] = frozenset(
    {
        "traceback.format_exc",
        "traceback.format_exception",
        "traceback.format_exception_only",
        "traceback.format_tb",
        "traceback.format_stack",
    }
)

# Method names that record an error somewhere (a logger, a tracker, stderr).
RECORDING_METHODS: Final[frozenset[str]] = frozenset(
    {
        "debug",
        "info",
        "warning",
        "warn",
        "error",
        "exception",
        "critical",
        "fatal",
        "log",
        "print_exc",
        "print_exception",
        "capture_exception",
        "captureException",
        "capture_message",
        "record_exception",
        "set_status",
    }
)
RECORDING_FUNCTIONS: Final[frozenset[str]] = frozenset(
    {"print", "warnings.warn", "sys.exc_info", "sys.exception"}
)
# A callee whose name contains one of these hands the error to someone
# (``onerror(...)``, ``self.report_failure(...)``, ``notify_admin(...)``).
RECORDING_NAME_PARTS: Final[tuple[str, ...]] = ("error", "fail", "report", "warn", "log", "alert", "notify")

# ---------------------------------------------------------------- TFH401 scope

# The one attribute of an exception that *is* its text (``e.args[0]``).
# ``e.message``, ``e.status_code``, ``e.errors()`` are data the exception
# carries, not the exception turned into text (TFH401 stays silent on them).
EXCEPTION_ARGS_ATTRIBUTES: Final[frozenset[str]] = frozenset({"args"})
# Calls (qualified names) whose result is text built from their arguments, so
# the exception text flows through them (``json.dumps({"error": str(e)})``).
# Any other call's result is not the exception text: ``f(str(e))`` stops it.
TEXT_BUILDING_CALLS: Final[frozenset[str]] = frozenset(
    {"json.dumps", "textwrap.dedent", "textwrap.indent", "textwrap.shorten", "html.escape"}
)
# Builtins that build a container of their arguments (the text stays
# inside), and ``getattr(e, "message", str(e))`` whose default flows out.
TEXT_PASSING_BUILTINS: Final[frozenset[str]] = frozenset({"dict", "list", "tuple", "set", "frozenset", "getattr"})
# Methods whose result is text made of their arguments (``tmpl.format(error=str(e))``).
TEXT_PASSING_METHODS: Final[frozenset[str]] = frozenset({"format", "format_map", "join"})
# A call whose name has one of these words reshapes its argument and keeps
# its content (``normalize_response(MCPResponse(error=str(e)).model_dump())``):
# the text flows through it, as through a constructor. A redaction
# (``redact_secrets(str(exc))``, ``vault.redact(f"...{e}")``) masks secrets
# in the text and hands back the rest of it (s42: portainer-mcp's and
# askui's tool runners, batch 15).
TEXT_PASSING_CALL_WORDS: Final[frozenset[str]] = frozenset(
    {"normalize", "normalise", "normalized", "normalised", "redact", "redacted"}
)
# Keywords under which a constructor receives the exception object itself
# (``ToolOutput(content=str(e), exception=e)`` keeps the typed failure).
# Any keyword, or a positional argument, whose value is the bare exception
# counts; these names are documentation of the common spellings.
EXCEPTION_KEYWORDS: Final[frozenset[str]] = frozenset({"exception", "exc", "error", "err", "exc_info", "cause"})
# A function whose job is producing text for telemetry or serialisation
# (``_serialize_value``, ``safe_repr``, ``to_json``, ``format_attribute``):
# a name (lowercase, leading underscores stripped) containing one of these
# parts, or starting with one of the prefixes. TFH401 is silent inside it.
TEXT_PRODUCER_NAME_PARTS: Final[tuple[str, ...]] = ("serializ", "serialis", "repr", "to_json", "to_str")
# ``str__``/``format__``: an object's ``__str__``/``__format__`` (underscores
# stripped), whose job is its text for a person (an exception class's
# ``__str__`` falling back to ``f"Error in __str__: {e}"``).
TEXT_PRODUCER_NAME_PREFIXES: Final[tuple[str, ...]] = ("format_", "str__", "format__")
# Exceptions an output parser raises. A handler that catches only these and
# feeds the text back to the model as a re-prompt (into an argument named
# like ``messages``/``retry_messages`` or a ``...Message(...)``) is the
# format-repair loop, not a tool failure: TFH401 is silent there.
PARSER_ERRORS: Final[frozenset[str]] = frozenset(
    {"ValueError", "JSONDecodeError", "ValidationError", "OutputParserException", "OutputParserError"}
)
REPROMPT_KEYWORD_PART: Final[str] = "messages"
REPROMPT_CALL_SUFFIX: Final[str] = "Message"
# Errors of a format, by qualified name (resolved through the module's imports):
# a handler that catches only these around a parse of data already in memory
# (the model's own tool-call arguments or output: no call in the ``try``
# reaches outside) hands back format-repair feedback, the text the model
# needs to fix its output. TFH401 is silent there, wherever the text goes.
FORMAT_ERRORS: Final[frozenset[str]] = frozenset(
    {
        "json.JSONDecodeError", "json.decoder.JSONDecodeError",
        "pydantic.ValidationError", "pydantic_core.ValidationError", "pydantic_core._pydantic_core.ValidationError",
        "pydantic.v1.ValidationError", "pydantic.error_wrappers.ValidationError", "jsonschema.ValidationError",
        "jsonschema.exceptions.ValidationError", "langchain_core.exceptions.OutputParserException",
        "yaml.YAMLError", "tomllib.TOMLDecodeError",
        # a SQL parser's error: the model's query did not parse
        "sqlglot.ParseError", "sqlglot.errors.ParseError", "sqlglot.TokenError", "sqlglot.errors.TokenError",
        "sqlparse.exceptions.SQLParseError",
        # a regular expression that does not compile: the model's pattern (a search tool's argument)
        "re.error", "re.PatternError", "sre_constants.error",
    }
)
# Builtin format errors: ``SyntaxError`` from ``ast.parse``/``compile`` of code the model wrote.
FORMAT_ERROR_BUILTINS: Final[frozenset[str]] = frozenset({"SyntaxError"})
# Errors an SDK raises while checking a call's arguments, before any request is
# sent (botocore's parameter validation): a handler catching only these hands
# the model the text about its own arguments, whatever else the ``try`` calls.
ARGUMENT_VALIDATION_ERRORS: Final[frozenset[str]] = frozenset(
    {"botocore.exceptions.ParamValidationError", "botocore.exceptions.ValidationError"}
)
# A typed error event: a dict (or keyword arguments) that already carries
# what kind of failure it is, so the exception text beside it is only the
# detail (``{"error_type": type(e).__name__, "message": str(e)}``, an
# OpenAI-style ``{"type": "server_error", ...}`` chunk). A key below, with any
# value that is not the text; ``type`` with a literal naming a kind of error
# (``..._error``, not the bare ``"error"``); or a value that is the exception's
# class name or code (``type(e).__name__``, ``e.status_code``).
ERROR_DISCRIMINATOR_KEYS: Final[frozenset[str]] = frozenset(
    {"error_type", "errortype", "error_code", "errorcode", "code", "exception_type", "exc_type", "error_class",
     "error_kind", "errorkind", "status_code", "retryable", "is_retryable", "recoverable", "is_recoverable", "transient"}
)
# A code that says only that something failed does not type the failure: a
# constant catch-all (``code=ToolErrorCode.INTERNAL_ERROR``, ``"code":
# "error"``, ``UNKNOWN``) whose words, less ``error``/``code``, are all below.
# Readers in three packages (hello-agents' ``ToolResponse.error(code=
# INTERNAL_ERROR, message=str(e))``, openjiuwen's one FS error code, lagent's
# ``state=API_ERROR``) labelled such results true: the kind is only in the text.
GENERIC_ERROR_CODE_WORDS: Final[frozenset[str]] = frozenset(
    {"internal", "unknown", "unexpected", "unhandled", "uncaught", "general", "generic", "execution", "exec",
     "failed", "failure", "fail", "exception", "other"}
)
GENERIC_ERROR_CODE_FILLER: Final[frozenset[str]] = frozenset({"error", "errors", "err", "code"})
# A result class's failure factory (``ToolResponse.error(message=str(e))``,
# ``Result.fail(...)``): a classmethod building the result object, so the text
# flows into it as into the class's constructor.
RESULT_FAILURE_FACTORY_WORDS: Final[frozenset[str]] = frozenset(
    {"error", "err", "fail", "failed", "failure", "errored"}
)
# ... followed only when the class or the factory is named for a tool's result
# (``ToolResponse.error``, ``MCPError.tool_error``): langbot's 26 plugin-runtime
# RPC answers (``ActionResponse.error(message=f"Run list error: {e}")``) were false.
RESULT_FAILURE_FACTORY_CLASS_WORDS: Final[frozenset[str]] = frozenset(
    {"tool", "tools", "toolset", "toolsets", "toolkit", "toolkits", "toolbox"}
)
# A factory whose own name says it builds a failed result (``error_response``,
# ``error_result``, ``tool_error``: a failure word with one of these, or a tool
# word) is followed in a module with tool evidence, whatever its class
# (code-puppy's ``AskUserQuestionOutput.error_response(f"...{e!s}")`` in
# ``tools/``); a bare ``ActionResponse.error`` (langbot's RPC answers in
# ``*_actions.py``) still is not.
RESULT_FAILURE_FACTORY_RESULT_WORDS: Final[frozenset[str]] = frozenset(
    {"response", "result", "output", "reply", "tool"}
)
# TFH401 (s46, batch 19's misses): a handler that hands its text to a call announcing a tool's result
# (spidy-agent's intent router: ``AgentEventBus.emit_tool_result(intent, res)`` beside ``return res``, the
# ReAct loop's observation) says the text is a tool's answer: a callee whose name holds a tool word
# (``TOOL_EVIDENCE_WORDS``) and one of these.
TOOL_RESULT_EVENT_WORDS: Final[frozenset[str]] = frozenset({"result", "results", "output", "outputs", "observation"})
# s47: ``kind``/``error_kind`` too (aster's ``UpstreamError.kind``, set to one of a few literals per raise), read
# as a value or formatted into a field of its own (``reason=f"upstream failure ({e.kind})"``, ``rules/errors/kinds.py``).
ERROR_DISCRIMINATOR_ATTRIBUTES: Final[frozenset[str]] = frozenset(
    {"code", "status_code", "error_code", "errno", "status", "kind", "error_kind"}
)
# Messages a model reads: a framework's tool-result and tool-message types, by
# qualified name (the module's imports resolve them), and the chat-dict forms
# (a key's literal value). Exception text put into one of these reaches the
# model wherever the construct goes (returned, appended to the history, sent).
MESSAGE_CONSTRUCTORS: Final[frozenset[str]] = frozenset(
    {
        *(f"{m}.ToolMessage" for m in ("langchain_core.messages", "langchain_core.messages.tool", "langchain.messages",
                                       "langchain.schema.messages")),
        *(f"{m}.FunctionMessage" for m in ("langchain_core.messages", "langchain_core.messages.function")),
        *(f"{m}.FunctionExecutionResult" for m in ("autogen_core.models", "autogen_core.models._types")),
        *(f"{m}.{c}" for m in ("mcp.types", "mcp.types._types") for c in ("TextContent", "CallToolResult")),
        *(f"{m}.ToolReturnPart" for m in ("pydantic_ai.messages", "pydantic_ai")),
        *(f"{m}.FunctionResultContent" for m in ("semantic_kernel.contents",
                                                 "semantic_kernel.contents.function_result_content")),
        *(f"{m}.FunctionResponse" for m in ("google.genai.types",)),
        "google.genai.types.Part.from_function_response",
        *(f"{m}.ToolOutput" for m in ("llama_index.core.tools", "llama_index.core.tools.types")),
    }
)
# A message constructor's keyword arguments that the framework keeps beside
# the message and does not send to the model: LangChain's ``artifact``
# ("not meant to be sent to the model"), ``additional_kwargs`` and
# ``response_metadata`` of a ``ToolMessage``, pydantic-ai's ``metadata`` of a
# ``ToolReturnPart``. Exception text only there is not text the model reads.
MESSAGE_UNREAD_KEYWORDS: Final[frozenset[str]] = frozenset(
    {"artifact", "additional_kwargs", "response_metadata", "metadata"}
)
# s41: a tool declared with this keyword and value (LangChain's ``@tool(response_format="content_and_artifact")``)
# returns ``(content, artifact)``: the model reads the content, the artifact stays beside the message.
ARTIFACT_RESPONSE_FORMAT: Final[tuple[str, str]] = ("response_format", "content_and_artifact")
MESSAGE_DICT_FORMS: Final[tuple[tuple[str, str], ...]] = (
    ("role", "tool"), ("role", "function"), ("type", "function_call_output"), ("type", "tool_result"),
)
# Keys that, set to ``True``, make a dict a message the model reads: MCP's tools/call result in its wire form
# (``{"isError": True, "content": [{"type": "text", "text": ...}]}``, a hand-written MCP server's answer; s40:
# devmcp's ``_handle_tool_call``).
MESSAGE_DICT_FLAGS: Final[frozenset[str]] = frozenset({"isError"})
# s49: a hand-written MCP server's JSON-RPC error response (``{"jsonrpc": "2.0", "id": rid, "error": {"code": -32603,
# "message": str(e)}}``): the client hands a failed ``tools/call`` to the model. A module is an MCP server where it
# answers ``initialize`` (it names ``MCP_SERVER_ANSWER_KEY``) or its file's name has the word ``MCP_MODULE_WORD`` and
# one of ``MCP_SERVER_MODULE_WORDS`` (``mcp_server.py``, ``mcp_transport_stdio.py``); not a client's bridge
# (``mcp_cli/apps/bridge.py`` answers a browser page). The error's code says what kind of failure it is, unless it is
# the protocol's catch-all: internal error and the implementation-defined server-error range
# (``JSONRPC_CATCH_ALL_CODES``, inclusive bounds).
MCP_SERVER_ANSWER_KEY: Final[str] = "serverInfo"
MCP_MODULE_WORD: Final[str] = "mcp"
MCP_SERVER_MODULE_WORDS: Final[frozenset[str]] = frozenset({"server", "transport"})
JSONRPC_CATCH_ALL_CODES: Final[tuple[tuple[int, int], ...]] = ((-32603, -32603), (-32099, -32000))

# Where the text goes to a person, not a model (TFH401 is silent there). A web
# endpoint: a function decorated with a route of an app or router object built
# from one of these classes (``@app.get(...)``, ``@self._app.route(...)``, by the
# module's imports), or with one of the route decorators below; and a web
# response built from the text (``JSONResponse({"error": str(e)})``), wherever it
# is built: the text goes to a browser or an HTTP client.
WEB_APP_CLASSES: Final[frozenset[str]] = frozenset(
    {
        "flask.Flask", "flask.Blueprint", "flask.app.Flask", "flask.blueprints.Blueprint",
        "quart.Quart", "quart.Blueprint",
        "fastapi.FastAPI", "fastapi.APIRouter", "fastapi.applications.FastAPI", "fastapi.routing.APIRouter",
        "starlette.applications.Starlette", "starlette.routing.Router",
        "aiohttp.web.RouteTableDef", "aiohttp.web_routedef.RouteTableDef",
        "sanic.Sanic", "sanic.Blueprint", "litestar.Router", "bottle.Bottle",
        "ninja.NinjaAPI", "ninja.Router",
    }
)
WEB_ROUTE_METHODS: Final[frozenset[str]] = frozenset(
    {"route", "get", "post", "put", "patch", "delete", "head", "options", "websocket", "api_route", "view"}
)
# s47: a route registered by a call handed the path and its handler (FastAPI/Starlette ``add_api_route``, Flask
# ``add_url_rule``, aiohttp ``router.add_get``): with the decorators above, the paths a project serves itself
# (``linter/project_routes.py``; TFH402: a loopback read of one of them is the tool's own service).
WEB_ROUTE_REGISTRATIONS: Final[frozenset[str]] = frozenset(
    {"add_api_route", "add_route", "add_url_rule", "add_get", "add_post", "add_put", "add_patch", "add_delete",
     "add_websocket_route"}
)
#: a module file that may register a route (``.get("/``, ``.route('/``, ``.add_api_route("/``): the byte screen, and the
#: name of the cache's ``defines:`` key for "which files of the project hold one" (no method is named so)
ROUTE_SCREEN: Final[re.Pattern[bytes]] = re.compile(
    rb"\.(?:" + b"|".join(sorted(m.encode() for m in WEB_ROUTE_METHODS | WEB_ROUTE_REGISTRATIONS)) + rb")\(\s*[rRuU]?[\"']/"
)
ROUTES_KEY: Final[str] = "<routes>"
WEB_ROUTE_DECORATORS: Final[frozenset[str]] = frozenset(
    {
        *(f"django.views.decorators.http.{d}" for d in ("require_http_methods", "require_GET", "require_POST",
                                                       "require_safe")),
        "rest_framework.decorators.api_view",
        *(f"litestar.{d}" for d in ("get", "post", "put", "patch", "delete", "route", "websocket")),
        *(f"bottle.{d}" for d in ("route", "get", "post", "put", "delete")),
    }
)
WEB_RESPONSE_CALLS: Final[frozenset[str]] = frozenset(
    {
        "flask.jsonify", "flask.make_response", "flask.Response", "quart.jsonify", "quart.make_response",
        *(f"{m}.{c}" for m in ("starlette.responses", "fastapi.responses")
          for c in ("JSONResponse", "Response", "PlainTextResponse", "HTMLResponse", "ORJSONResponse",
                    "UJSONResponse")),
        "fastapi.Response",
        *(f"{m}.{c}" for m in ("aiohttp.web", "aiohttp.web_response")
          for c in ("json_response", "Response")),
        *(f"django.http.{c}" for c in ("JsonResponse", "HttpResponse", "HttpResponseBadRequest",
                                       "HttpResponseServerError")),
        "rest_framework.response.Response", "sanic.response.json", "sanic.response.text",
    }
)
# A command-line program: a module that defines a command of one of these CLI
# frameworks (``@app.command()`` where ``app = typer.Typer()``, ``@click.command()``,
# ``@cli.command()`` on a ``click.Group``) writes its results for a person at a
# terminal: TFH401 is silent in its functions that are not tools.
CLI_COMMAND_DECORATORS: Final[frozenset[str]] = frozenset(
    {
        *(f"{m}.{d}" for m in ("click", "asyncclick", "rich_click", "cloup") for d in ("command", "group")),
        *(f"{m}.{c}.{d}" for m in ("click", "asyncclick", "rich_click", "cloup", "click.core")
          for c in ("Group", "Command") for d in ("command", "group")),
        *(f"typer.Typer.{d}" for d in ("command", "callback")),
        *(f"typer.main.Typer.{d}" for d in ("command", "callback")),
        *(f"cyclopts.App.{d}" for d in ("command", "default")),
    }
)

# Methods that put their argument into the container they are called on
# (``out["error"] = str(e)`` is the subscript form): the container then
# carries the exception text, and returning it hands the text back.
CONTAINER_FILLING_METHODS: Final[frozenset[str]] = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "appendleft"}
)
# A tool whose job is to run code the model wrote returns that code's error
# so the model can fix it: the text is the product. The ``try`` calls one of
# these builtins, or a callee (or the enclosing function) whose name has one
# of these parts.
CODE_RUNNING_BUILTINS: Final[frozenset[str]] = frozenset({"exec", "eval", "compile"})
# The standard library's in-process runs of a program file or module, by qualified name.
CODE_RUNNING_CALLS: Final[frozenset[str]] = frozenset({"runpy.run_path", "runpy.run_module"})
# Matched on whole ``_``-separated words (``repl`` is not ``reply``; a
# sandbox's file tools are not code runs, so ``sandbox`` is not one).
CODE_RUNNING_NAME_PARTS: Final[tuple[str, ...]] = (
    "run_code", "execute_code", "exec_code", "run_python", "execute_python", "python_repl", "repl",
    "run_cell", "execute_cell", "code_interpreter", "evaluate_code", "run_python_code", "execute_python_code",
)
# Reports for a person, by name (TFH401): a function whose module, package
# directories, class or own name says it belongs to an evaluation harness, a
# benchmark, a health check or a diagnostics report hands its result to a
# person or a report, not to a model (``EvaluationRunner._execute_agent``,
# ``HealthChecker.check_vector_db``, ``.../diagnostics.py``). Whole words of
# the names (split on ``_``, ``-`` and camelCase). A tool or a message a model
# reads is still reported there (``ToolMessage(content=str(e))`` in an eval).
REPORT_NAME_WORDS: Final[frozenset[str]] = frozenset(
    {"evaluation", "evaluations", "evaluator", "evaluators", "evals", "benchmark", "benchmarks", "health",
     "healthcheck", "diagnostic", "diagnostics"}
)
# s57 (issue 24): words of a module's own name (its stem only) that say the
# person who ran a command reads what its functions return: a doctor command's
# checks (lado's, pxx's ``doctor.py``), a setup's or an installer's report
# lines (swarmly's and tokenkick's ``mcp_setup.py``, email-tool's
# ``setup_page.py``, local-shell's ``remote_worker_installer.py``), a bot
# conformance report (chipzen's ``conformance.py``): false labels on 7
# packages of batches 20-25. Not a function's or a class's name: a tool's
# dispatcher ``_setup_exec_tool``, a tool ``kind_ingress_setup`` (batches
# 1-19, true labels). Not ``install`` (a tool's verb: ``install_package``).
REPORT_MODULE_WORDS: Final[frozenset[str]] = frozenset({"doctor", "setup", "installer", "conformance"})
# s51: plugin base classes of frameworks that are not agents: a method of a subclass answers that framework by its
# contract (Ansible's action plugin returns the task result ``result["msg"]`` to the playbook run), not a model, so
# its ``action`` words are no tool's. Qualified names, resolved through the imports.
NON_MODEL_PLUGIN_BASES: Final[frozenset[str]] = frozenset(
    {"ansible.plugins.action.ActionBase", "ansible.plugins.callback.CallbackBase", "ansible.plugins.lookup.LookupBase",
     "ansible.plugins.inventory.BaseInventoryPlugin", "ansible.plugins.filter.FilterBase"}
)
# Also a package directory (not a module or function name: ``eval`` is a tool's
# word too) named ``eval``/``eval_framework``. Not ``test``/``tests``: a
# checkout's own directories (``/home/me/test/project``) are read too. s47:
# ``dashboard`` (a dashboard's services answer its web API for the person
# looking at it: codegeass's approval service, batch 19).
REPORT_DIRECTORY_WORDS: Final[frozenset[str]] = frozenset({"eval", "dashboard"})
# A package directory that is a command-line program's subpackage: named
# exactly ``cli`` (leading underscores ignored: ``_cli``), the whole name, not
# a word of it (``cli_agent/``, ``cli_mcp_server/`` are an agent and a server
# driving a CLI). Its modules' helpers return checks and messages for the
# person at the terminal (a ``doctor`` command's checks, a setup validation);
# on the labels of batches 1-9 every TFH401 finding there was such a report.
CLI_DIRECTORY_NAMES: Final[frozenset[str]] = frozenset({"cli"})
# s53 (issue 24): the modules of a package that are its command line: a module or
# package directory named exactly so (leading underscores ignored: ``_cli``),
# ``mailmcp/cli.py``, ``swarm/cli.py``, ``pkg/__main__.py``, ``dulus_mcp/commands.py``
# (slash commands). A module whose only evidence for tools is its MCP server
# package's name, and that only such modules import, is the command line's
# helper (``mailmcp/install.py``: the ``mailmcp install`` command's report lines).
COMMAND_LINE_MODULE_NAMES: Final[frozenset[str]] = frozenset({"cli", "__main__", "commands"})
# ... unless that module serves tools itself (portal-mcp-server's ``cli.py`` is its
# MCP server): its text names a tool registration or an MCP server class (a
# decorator ending in ``tool``/``tools``, ``call_tool``, ``register_tool``,
# ``add_tool``, ``on_call_tool``, ``FastMCP``, ``MCPServer``, ``@tool``).
COMMAND_LINE_TOOL_HINTS: Final[str] = (
    r"@[\w.]*\btools?\b|\b(?:call_tool|list_tools|register_tool|add_tool|on_call_tool|FastMCP|MCPServer)\b")
# How many package directories above a module are read for those words.
REPORT_DIRECTORY_DEPTH: Final[int] = 4
# Libraries that render a user interface: in a module importing one, a
# function that is not a tool hands its result to the page a person reads.
UI_MODULE_ROOTS: Final[frozenset[str]] = frozenset({"gradio", "streamlit", "chainlit", "nicegui"})
# Printing for a person at a terminal (TFH401's printed results): the
# functions besides the builtin ``print`` (by qualified name), the console
# classes whose instances print, and those instances' printing methods
# (``console.print(result.message)``). A function whose results the module
# binds and prints this way reports to a person (a ``doctor`` command's checks).
PRINT_FUNCTIONS: Final[frozenset[str]] = frozenset({"rich.print", "rich.print_json", "pprint.pprint"})
CONSOLE_CLASSES: Final[frozenset[str]] = frozenset({"rich.console.Console"})
CONSOLE_PRINT_METHODS: Final[frozenset[str]] = frozenset({"print", "log", "print_json", "out"})

# TFH401's positive evidence that a function's result reaches a model, for a
# function the module says nothing else about (not a tool, a route, a CLI or a
# report): the module, a package directory (as deep as REPORT_DIRECTORY_DEPTH),
# the enclosing class or function is named for tools (a word of
# TOOL_EVIDENCE_WORDS: ``tools/``, ``jina_tool.py``, ``FileToolkit``,
# ``toolsets``, an agent framework's ``actions``; not ``toolbar``),
# or a package directory or the module names an MCP server (a name containing
# one of TOOL_EVIDENCE_NAME_PARTS: ``k8s_mcp``, ``fxhoudinimcp``). Without it the
# function's text is not reported: on the held-out labels of batches 3-10 such
# helpers were true in about half the findings (a storage client's status tuple,
# a webhook's answer, a plugin manager's record), those with it in 97%.
TOOL_EVIDENCE_WORDS: Final[frozenset[str]] = frozenset(
    {"tool", "tools", "toolset", "toolsets", "toolkit", "toolkits", "toolbox", "action", "actions"}
)
TOOL_EVIDENCE_NAME_PARTS: Final[tuple[str, ...]] = ("mcp",)
# s41: a function a tools module of the same project imports by name (``tools/build.py``: ``from ..incremental
# import full_build``) has that evidence too; a module whose dotted name has a part starting with one of these
# (``tests/test_tools.py``, ``examples/``, ``benchmarks/``, ``evals/``) is not a tools module for it.
TOOL_IMPORTER_SKIPPED_PREFIXES: Final[tuple[str, ...]] = ("test", "example", "benchmark", "eval", "demo")
# s45 (issue 24 item 2): a handler keeps the exception's text on the instance (``self.last_error = str(e)``)
# and another method returns it. Such a method answers a tool's call only when it is the tool or the module
# names it for tools; a method named with one of these words reads the object's status for a person or a
# dashboard (``get_status``, ``stats``, ``to_dict``, ``health``: 30 of the 40 sites counted in session 44).
STATUS_READER_WORDS: Final[frozenset[str]] = frozenset(
    {"status", "stats", "statistics", "info", "health", "state", "summary", "dict", "json", "serialize",
     "snapshot", "progress", "metrics", "describe", "repr", "str", "report", "details", "overview"}
)
# s45 (issue 24): a dict or result object keyed as a model's response (``{"content": [...f"API error: {e}"...],
# "stop_reason": "error"}``, ``LLMResponse(finish_reason="error")``) is a provider's answer typed by its stop
# reason: the chat loop shows it as the assistant's turn, no model reads it as a tool's result (batch 17 x3).
MODEL_RESPONSE_KEYS: Final[frozenset[str]] = frozenset({"stop_reason", "finish_reason"})

# s48 (TFH401, ``linter/project_refusals.py``): the package's own refusal. Names that may hold another failure where
# the package builds its exception (``def _vcs_unavailable(tool, exc)``: ``ToolError(f"... ({exc})")`` formats a
# failure handed in), beside the names an enclosing ``except ... as`` binds and parameters annotated with an exception
# class; and the keywords that carry an exception's message when no positional argument is given.
CONVENTIONAL_EXCEPTION_NAMES: Final[frozenset[str]] = frozenset(
    {"e", "ex", "exc", "err", "error", "exception", "cause", "original", "inner"}
)
EXCEPTION_MESSAGE_KEYWORDS: Final[frozenset[str]] = frozenset(
    {"message", "msg", "detail", "details", "reason", "error", "text", "description"}
)
# s52 (TFH401, ``linter/project_refusals.py``): a call that binds arguments to a function's signature
# (``inspect.signature(fn).bind(**arguments)``): its ``TypeError`` says which argument the caller got wrong, the
# caller's own input, as a parser's error does (``INPUT_PARSERS``); the methods of the signature that bind.
SIGNATURE_FACTORIES: Final[frozenset[str]] = frozenset({"inspect.signature", "inspect.Signature.from_callable"})
SIGNATURE_BINDING_METHODS: Final[frozenset[str]] = frozenset({"bind", "bind_partial"})

# s50 (TFH401, ``rules/errors/input_check.py``; the lead's decision "the model's own input"): a ``try`` whose body
# only checks or parses what the model sent. A callee named with one of these words (``_validate_session_id``,
# ``parse_tags``, ``coerce_str_list``, ``_resolve_workspace_path``, ``self.Params.model_validate``) and not
# reaching outside is a check; so are these parsers of text in memory; calls of these names only move values
# (``args.get("x")``, ``path.strip()``); the model's input is a tool's parameter, or a parameter (or an attribute
# of one: ``call.input``, ``event.args``) named as a tool call's arguments.
INPUT_CHECK_WORDS: Final[frozenset[str]] = frozenset(
    {"validate", "validation", "check", "parse", "assert", "coerce", "normalize", "normalise", "sanitize",
     "sanitise", "resolve", "compile"}
)
INPUT_PARSERS: Final[frozenset[str]] = frozenset(
    {"json.loads", "shlex.split", "re.compile", "ast.parse", "ast.literal_eval", "datetime.datetime.strptime",
     "datetime.datetime.fromisoformat", "datetime.date.fromisoformat", "urllib.parse.urlparse", "uuid.UUID",
     "ipaddress.ip_address", "ipaddress.ip_network", "pathlib.Path", "pathlib.PurePath"}
)
# A validation model's parser (pydantic's ``Model.model_validate(data)``, a ``TypeAdapter``'s): a parser, which
# needs the model's input proper (an API record validated so is a server's output).
INPUT_MODEL_PARSERS: Final[frozenset[str]] = frozenset(
    {"model_validate", "model_validate_json", "parse_obj", "parse_raw", "validate_python", "validate_json"}
)
INPUT_MOVING_CALLS: Final[frozenset[str]] = frozenset(
    {"get", "strip", "lstrip", "rstrip", "lower", "upper", "split", "rsplit", "startswith", "endswith", "expanduser",
     "int", "float", "str", "bool", "len", "isinstance", "list", "dict", "tuple", "set", "sorted", "replace"}
)
TOOL_ARGUMENT_NAMES: Final[frozenset[str]] = frozenset(
    {"arguments", "args", "tool_args", "tool_arguments", "tool_input", "tool_inputs", "tool_params", "inputs",
     "input", "params", "parameters", "kwargs", "raw_args", "raw_arguments", "function_args"}
)
# A check named for a peer (``_validate_chef_server_connection``, ``check_copilot_agent_status``) asks it: no input
# check, whatever its words.
INPUT_CHECK_REMOTE_WORDS: Final[frozenset[str]] = frozenset(
    {"connection", "connectivity", "connect", "connected", "status", "server", "remote", "health", "ping", "reachable",
     "available", "availability", "api", "auth", "login", "credentials", "token", "online"}
)
