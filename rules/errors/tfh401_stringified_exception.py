"""TFH401 stringified-exception."""

from __future__ import annotations

import libcst as cst

from ...linter.api import FileContext, Knowledge, Screen, walk_in_scope
from .jsonrpc import call_parts, catch_all_number, dict_parts, jsonrpc_number, serves_mcp
from .model import ErrorModel, ErrorRule, source_of
from .standin import stands_in
from .text import ExceptionText
from .text_screen import screen_lines


class StringifiedException(ErrorRule):
    code = "TFH401"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "stringified-exception"
    summary = "An exception is turned into text and handed back to the caller."
    message = (
        "{verb} the exception as text ({text}); return a typed ToolError instead, "
        "e.g. {fix}, so the agent can tell a retryable failure from a permanent one"
    )
    docs = """\
## What it does
Reports the text of a caught exception where it reaches a model. Inside an
`except ... as e` handler it finds the exception turned into text: `str(e)`,
`repr(e)`, `f"...{e}"`, `"%s" % e`, `"{}".format(e)`, `e.args[0]`,
`traceback.format_exc()`, also inside a dict/list/tuple or as an argument to
a result object (`ToolResult(content=f"Error: {e}")`), and follows it to
where it goes:
- a `return` or `yield` of it, in the handler or after it: through a
  variable the handler set to the text (`msg = str(e)` ... `return {"error":
  msg}`), a container it filled (`results.append(f"{e}")`, `out["error"] =
  str(e)`, a container inside it: `out["failed"].append(f"{e}")`, a dict or
  list that holds the filled container: `result = {"warnings": warnings}`
  before `warnings.append(f"{e}")`), or a variable it bound to the exception itself (`error = e` ...
  `return str(error)`; the result of a same-module helper that returns the
  exception it caught, `return e`, or as an item of a tuple, `return None, e`,
  unpacked by the caller: `out, err = _invoke(...)` ... `str(err)`; or the
  exception's text beside a literal `None`, `return None, f"request failed:
  {{err}}"`, whose unpacked name then holds the text: `data, err =
  _http_get(url)` ... `return {{"error": err}}`, s44; a tuple with no `None`,
  `return False, str(e)`, is not followed: its text slot may carry a success
  message too; s53: nor the text of a helper's handler that would be silent
  in place, format-repair feedback or the project's own refusal, below:
  screaming-frog's `_compile_row_filter` answering `re.error` of the model's
  filter, quick-mcp-shell's `except ConfigurationError as exc: return None,
  str(exc)`; and a later unpacking, `target, err = _resolve_export_file(...)`,
  gives the name a new value, as a plain assignment does). Every `return` of such a variable counts, in the
  handler or after it (after it only when the handler does not end in
  `return`/`raise`), and only those: a value built anywhere else is not
  the exception text. A new value given to the variable inside an
  `if`/`try`/loop of the handler (`detail = str(e)`, then `if ...: detail =
  body["message"]`) only may replace the text: it is still followed;
- a message a model reads, wherever it goes (returned, appended to the
  history, sent): a framework's tool message or tool result, resolved
  through the module's imports (`ToolMessage`, `FunctionExecutionResult`,
  MCP `CallToolResult`/`TextContent`, `ToolReturnPart`,
  `FunctionResultContent`, `FunctionResponse`, llama-index `ToolOutput`),
  and the chat dicts `{"role": "tool", ...}`, `{"type":
  "function_call_output", ...}`, `{"type": "tool_result", ...}`, and MCP's
  tools/call result in its wire form (`{"isError": True, "content": [...]}`).
  So is a hand-written MCP server's JSON-RPC error response (s49: `{"jsonrpc":
  "2.0", "id": rid, "error": {"code": -32603, "message": str(e)}}`, written to
  stdout or handed to its transport; or a call of the module's own builder of
  one, `_error(rid, INTERNAL_ERROR, f"Internal error: {e}")`): the client
  hands a failed tools/call to the model. Only in a module that is an MCP
  server (it answers `initialize`: it names `serverInfo`; or its file's name
  has the words `mcp` and `server` or `transport`), and only under the
  protocol's catch-all code (internal error `-32603`, the server-error range
  `-32000`..`-32099`, a constant named only for a failure: `INTERNAL_ERROR`):
  a code that says what failed (`-32602`, `METHOD_NOT_FOUND`, `e.code`) types
  it.
- a runner's stand-in for the tool's result (s49): the handler binds the
  name its `try` binds to a tool run's result (`result = await
  tool.call(args, ctx)`) to a tool's result object with the text (`result
  = ToolResult(result_for_model=f"Error executing tool: {e}")`): the value
  takes the result's place and goes where the successful run's goes.
- an error formatter handed the caught exception as a parameter (s49): a
  parameter annotated as any exception (`e: Exception`, `exc: BaseException
  | None`, `Optional[Exception]`) holds it as a handler's `as` name does,
  so `def _handle_error(e: Exception, op: str) -> dict: ... return
  {"error": f"... while {op}: {_describe(e)}"}` is reported at its
  `return`, once, where the text is made, under the same evidence as any
  function (below). Only a helper named for a failure (a word of
  `RESULT_FAILURE_FACTORY_WORDS`: `_handle_error`, `_failed`,
  `_restamp_failure_result`; not `reask_tools`, `_leaf_exception_messages`)
  and not annotated to return a truth value (`-> bool`). Not where the helper returns the parameter as text one
  level deep (`return {"error": str(e)}`): its callers' `return
  _handle_error(e)` are reported then, and the helper stays silent (one
  finding per text). s56: where a function of the helper's own module
  calls it, the text is followed one helper further, into a helper of the
  module the formatter hands the text it built (`payload = {"error":
  f"{type(exc).__name__}: {exc}"}; return _json(payload)`, `return
  _err(code, f"...: {exc}")` -> `return _res({...})`): its callers are
  reported then; a helper only other modules call keeps the one-level
  reading (their second helper's names are not the caller's), and a helper
  handed the exception itself (`_describe(e)`) is not followed further. A parameter not annotated, or annotated with one
  class (`e: DocEditError`, `exc: httpx.HTTPError`), is not read so; nor
  a helper annotated to return an exception (`def _page_failure(e:
  Exception) -> Exception`, `-> ToolError | None`: the error its caller
  raises).

- a tool's result object a handler builds with the text (a constructor
  named for a tool's or an action's result, `ToolOutcome(output=str(e))`,
  or the module's own builder of one) and hands to a callee its `try` also
  hands a value to (s46: a runner's `mailbox.deliver(_settled(call.id,
  ToolOutcome(output=str(cause), is_error=True)))` beside `result = await
  self._runner.run(call)`, `mailbox.deliver(_settled(call.id, result))`):
  reported at that call, though nothing is returned; the object handed to
  another callee (an audit log) is not.
- the exception object itself in a tool's result (`return {"error": e}`,
  `return e`, `return [e]`): the framework turns the result into the
  message text (`str(result)`), so the model reads the exception as text.
- text a handler stored on the instance (`self.last_error = str(e)`,
  `self.error = f"Failed: {e}"`, or a dict/list holding it) and a method of
  the same class returns or yields (`return {"error": self.last_error}`;
  s45): reported at that return when the method answers a tool: it is a
  tool, or the module names it for tools (as below) and its name is not a
  status reader's (`get_status`, `stats`, `to_dict`, `health`, `info`:
  `STATUS_READER_WORDS`, a person's or a dashboard's view of the object).
  A local name bound to the attribute (`err = self.error` ... `return err`)
  and an attribute read in another class or module are not followed.
  A tool is what `smullyan tools` knows, resolved in the file: a tool
  decorator (`@tool`, `@mcp.tool()`, ...) or the run method of a subclass of
  a tool base class (`BaseTool._run`, ...).

The scope is "the text reaches a model". Where the module says where a
function's result goes, the rule follows it: a tool (reported), a message
construct (reported wherever it goes), a web endpoint, a web or UI module,
an evaluation or health report or a command-line program (not a model: not
reported, see below). A function the module says nothing else about is
reported only with positive evidence that its result feeds a tool's answer:
the module, one of its package directories (up to four), its class or the
function itself is named for tools (a whole word `tool`/`tools`,
`toolset(s)`, `toolkit(s)`, `toolbox`: `tools/`, `jina_tool.py`, `class
FileToolkit`, `def call_tool`; or `action`/`actions`, an agent framework's
tools), or a package directory or
the module names an MCP server (`k8s_mcp/`, `weather_mcp.py`), or the
value returned is built by a constructor named so (`ActionResult(error=
...)`, `ToolOutput(...)`), or by the module's own function or method that
builds one (s46: `return _failure(f"...{err}")` where `def _failure(message)
-> ToolResult` or whose every `return` of a value is such a constructor;
`return self._error_result(str(e))` likewise; a name imported is not read
so). Also evidence (s41): the function runs a tool in a
`try` it handles (`retval = await coded_tool.async_invoke(args)`: a tool run
as TFH402 reads it; s46: or a call of any callable with a tool's arguments
unpacked, `func(**tool_params)`, `handler(*call.tool_args)`: a `*`/`**`
argument named with a `tool`/`plugin` word; not `func(**params)`) or a handler
hands its text to a call announcing a tool's result (s46: `bus.emit_tool_result(
intent, res)` after `res = f"...{exc}"`: a callee named with a tool word and
`result`/`output`/`observation`, `TOOL_RESULT_EVENT_WORDS`; not `emit_tool_call`
nor `emit_error`) or a handler of it builds a tool's result or error
(`error = ActToolError(message=f"{e}")`); a tools module of the same
project imports the function by name (`tools/build.py`: `from
..incremental import full_build`; tests, examples, benchmarks and evaluations
do not count; a class imported so is not evidence for its methods: a helper
class of many uses, 2 true of 9 on batches 9-13); or its class calls its own methods by a name it was sent
(`getattr(self, action.value)`) in a module that imports a project name a
tools module imports too (the `Channel` an agent's tools send their action
over: the method's result is what the tool reads back). Without such
evidence it is not reported: on the held-out labels of batches 3-10 those
helpers were true in 33 of the 100 findings labelled true or false (a
storage client's `(False, str(e))` status for the app, a webhook's HTTP
answer, a plugin manager's record for a dashboard, an installer's report
lines), the helpers with that evidence in 329 of 341 (96%). Some true
findings are given up that way (33 of the 421 held-out true ones: an agent's own message to its team, a document
loader's page text, a helper in a module nothing names that a tool of
another module calls: the finding is per file, the caller is not read); a
tool's result, a message construct and a helper in a tools module keep
being reported. A tool-named class that no other module of its package
names (harombe's `BrowserTools`, registered nowhere) is still reported: s46 counted the
TFH401 labels of batches 1-18 on methods of such classes (no other
module and no line outside the class naming it) at 20 true, 4 false,
4 debatable (agentuniverse's tools loaded from YAML, tapeagents'
environments from config, agno's toolkits for the library's users): a
library's tool classes are registered by its users, not by its own
modules, so the run's own registrations are no evidence of absence.
This default, positive evidence by names, imports and runs rather than
only a tool `smullyan tools` discovers, was measured again in s51 (issue
24): on the held-out labels of batches 19-23, the findings in files that
hold a tool the blind run discovered were 113 true, 23 false, 15
debatable, those in files holding none 107/48/13, and 56 of the 110
recall sites read in drawn tools sit in files with no discovered tool
(the tool's helper in another module, or a tool the run did not find).
"A discovered tool or a message construct only" would give up about half
the recall and half the true findings to silence 48 false ones, most of
them text no model reads (22 for a consumer that is not a model, 8 a
command's report for a person), which the report words and the
placements below decide one class at a time. The text is followed through variables
(s47: also each name of a parallel assignment, `output, failed = ToolOutput(f"error: {e}"), True`, given its
own item; such an assignment only adds the text, and items of a container, `step["error"], step["kind"] =
str(e), e.kind`, are not followed),
containers, string methods (`str(e).strip()`), text builders (`json.dumps`, `"sep".join`),
result objects' constructors (a capitalised callee, `dict(...)`), a
normaliser (a callee named with `normalize`: `normalize_reply(Reply(error=
str(e)).model_dump())` keeps the text), a redaction (a callee named with
`redact`: `redact_secrets(str(exc))`, `vault.redact(f"...{e}")` masks
secrets and keeps the rest of the text; s42) and one
level into a helper that returns its argument as text (directly or through
a local name: `text = str(error)` ... `return text`): a function or a
method of the module (`self.m(...)`/`cls.m(...)`: `return
self.format_error_result(str(e))` where the module defines
`format_error_result`), or of another module of the same project: a
function imported from it (`from ..utils.errors import describe_error`,
`errors.describe_error(e)`, a name its package's `__init__.py`
re-exports) or a method inherited from a base class imported from it. That
module is read from disk for the helper's body only (never linted, never
outside the linted file's top-level package), and the cache keys the
finding on it. It stops at any other call's result (`f(str(e))` is what
`f` made of it) and at a helper's own helpers. s54: a kind in the helper's
result that is one of its parameters (`def err(message, *, code="error"):
return {"ok": False, "error": {"code": code, "message": message}}`) types
the text only where the call gives that parameter a kind the program chose
(`code="NOT_FOUND"`, a classifier's result); the exception's class name
(`err(str(exc), code=exc.__class__.__name__)`, vmnest's envelope), a
catch-all code, `None` or a default of those types nothing, as in place.

Not reported: logging the exception, returning only its type name
(`type(e).__name__`), raising, or building one of the runtime's ToolErrors from
it (`Err(unknown(str(e)))`, `Unknown(message=str(e))`, `ToolFailure(...)`).
Also not reported, because the text does not reach a model as an untyped
failure:
- a web endpoint: a function decorated with a route of an app or router
  built from Flask, Quart, FastAPI, Starlette, aiohttp's `RouteTableDef`,
  Sanic, Litestar, Bottle or django-ninja (`@app.get(...)`,
  `@self._app.route(...)`, resolved through the imports), or with a Django
  or DRF view decorator; and a web response built from the text
  (`JSONResponse(...)`, `jsonify(...)`, `web.json_response(...)`,
  `JsonResponse(...)`) wherever it is built: the text goes to a browser or
  an HTTP client;
- a command-line program: in a module that defines a click, typer or
  cyclopts command (`@app.command()` where `app = typer.Typer()`), a
  function that is not a tool hands its result to a person at a terminal;
- a report for a person or a program, where the module says so, for what a
  function that is not a tool returns or yields (a message construct in it
  is still reported): in a module that defines a web route (as above, or
  `@<anything>.post("/path")` with a literal URL path) its helpers' results
  go to the routes' JSON; in a module importing a user-interface library
  (gradio, streamlit, chainlit, nicegui) to the page; in an evaluation
  harness, a benchmark, a health check or diagnostics (the module, a
  package directory, the class or the function named with a whole word
  `evaluation`/`evaluator`/`evals`/`benchmark`/`health`/`diagnostics`, s57:
  a module named with `doctor`/`setup`/`installer`/`conformance` (a `doctor`
  command's checks, `mcp_setup.py`'s and an installer's report lines; the
  module's own name only, not a function's: `_setup_exec_tool`), or
  a package directory `eval`/`eval_framework`) to a report; in a package
  directory named for a dashboard (`dashboard/`, s47: codegeass's approval
  service answering its dashboard's API) to the page a person reads; in a
  command-line program's subpackage (a package directory named exactly
  `cli` or `_cli`: `pkg/cli/utils/gcp.py`, not `cli_agent/`) to the person
  at the terminal (a setup check, a `doctor` command); s53: in a module whose
  only evidence for tools is its own or its package's MCP name and that only
  the project's command line imports (modules or package directories named
  `cli`, `__main__` or `commands`: allmail's `mailmcp/install.py`, imported
  by `mailmcp/cli.py` alone, whose report lines the `mailmcp install`
  command prints; dulus' `dulus_mcp/hub.py`, read by its `/mcp` slash
  commands; s54: also a module a console script declared beside the
  package runs, `[project.scripts]` or a wheel's `entry_points.txt`:
  harflow's `harflow-setup = harflow_mcp.setup_client:main`, and an
  importer that only the command line imports in turn, up to four
  modules deep: harflow's `clients/vibe.py`, imported by
  `clients/__init__.py`, imported by `setup_client.py` alone; a package's
  `__init__` is imported by `from . import clients` or `from .clients
  import Name`, not by `from .clients import jsonc` of a submodule; these
  three only where no package directory says tools: `tools/__init__.py`
  re-exporting `tools/file_ops.py` to the CLI hands the agent its tools; a
  script named for a server, `listmonk-mcp = listmonk_mcp.server:main`,
  is none) to
  the person who ran the command, unless the module registers
  a tool anywhere (a nested `@mcp.tool()` in a `build_app()` factory) or is
  a hand-written MCP server; a module no other imports says nothing -- but not a module
  that registers tools itself (`@mcp.tool()`/`@agent.tool` on an object
  named for a server or an agent, the server imported from another module:
  odoo-mcp's
  `tools_diagnostics.py`), whose functions are tools and whose helpers feed
  them (s39); and, outside a
  tool, a record built by a constructor named so (`EvaluationResult(content=
  str(e))`, `HealthReport(...)`): the harness reads it;
- a report printed for a person: a module-level function whose every call in
  the module binds its result to a name the caller prints (`print(r)`,
  `console.print(...)` on a rich `Console`) or hands to a same-module
  function that prints its parameter (`r = await check_device()` then
  `_print_result(r)`), and never returns: a `doctor` command's checks (a
  `main()` or a `demo`/`example` function printing it is a script's demo of
  the function, not where the package sends it: not read);
- where the code's own placement says the result goes elsewhere (s51,
  `placement.py`): a method of a subclass of a plugin base of a framework
  that is not an agent (`NON_MODEL_PLUGIN_BASES`: Ansible's `ActionBase`,
  whose `run` answers the playbook run with `result["msg"]`; its `action`
  words are no agent's action); the wrapper a module's decorator builds
  where every use of that decorator sits *above* a tool's registering
  decorator (`@_safe_tool` over `@server.tool()`: decorators apply bottom-up,
  so the server registered the undecorated function and the wrapper's
  answer reaches no model; `smullyan tools` reads the position the same way:
  below the registering decorator it is the tool's catch-all, reported); and
  an error formatter handed the exception (above) every use of which in the
  module is raised (`raise _safe_tool_error(e) from None`): the text ends in
  a raise, as a `raise` in the handler does (a formatter also returned or
  passed on anywhere in the module is still read);
- a `return` after a handler that itself ends in `return` or `raise`: what
  the handler put into a variable or container does not reach the code
  after the `try` (the success path returns the same variable);
- a typed error event: a dict or constructor that already says what kind
  of failure it is (a key `error_type`, `error_code`, `code`,
  `status_code`, or a retryability flag `retryable`/`recoverable`; `"type"` naming a kind of error, `"server_error"`, not the
  bare `"error"`; or a value `e.status_code`, `e.code`, `e.kind`): the text
  is only the detail. s47: such a kind attribute formatted into a field of
  its own beside the text (aster's `_err(source, f"... {{e}}", f"upstream
  failure ({{e.kind}})")`; the kind formatted into the text itself is still
  the text), and a code from a same-module classifier of the exception
  (`_classify_error(e)`, or `info = _classify_error(e)` ... `info["code"]`,
  remoteshell's): a function every `return` of which gives one of a closed
  set of codes (literals that read as identifiers, `"auth_failed"`, or enum
  members `ErrorKind.TIMEOUT`), bare or under one key of a returned dict,
  with at least two codes that are no catch-all; a classifier with one code
  for every failure, or whose values are sentences, types nothing. The exception's own class name does not type it
  (`"error_type": type(e).__name__`, `e.__class__.__name__`, s43): it is
  the implementation's name for the failure (`Exception`,
  `HTTPStatusError`, `KeyError`), not a kind the program chose, and the
  model still reads the raw text (readers labelled homeassistant-mcp's
  `{{"error": str(e), "error_type": type(e).__name__}}`, lingtai's tool
  executor, astro-airflow's `tool_error` and picoagents' metadata true,
  none false; the typed objects left out by readers carried a code or a
  status besides). s52: a container the function adds a kind the program
  chose to after putting the text in it (a literal code or flag, or an enum
  member: `out = {{"ok": False, "error": str(exc)}}` ... `out.update({{"code":
  "INVALID_INPUT", "retryable": False}})`, `out["error_code"] =
  ErrorCode.TIMEOUT`) says its kind from there on, as a dict literal holding
  both does: in a handler, and in a helper handed the exception or its text
  (janction's `_fail(exc)`, whose callers return `_fail(exc)`): the helper
  returns a typed error, so neither it nor its callers are reported (a code
  added on one branch types the container, as a literal does). A value
  copied from the exception when it has one (`out["status_code"] =
  e.response.status_code` on an HTTP error's branch, oddsrail's and cuga's
  helpers, read debatable: the transport failures stay untyped), a
  variable, a helper's parameter most callers leave out
  (`response["error_type"] = error_type`) or a catch-all code (below),
  added so, types nothing: reported as before.
  A constant catch-all code does not type it
  (`code=ToolErrorCode.INTERNAL_ERROR`, `"code": "error"`, `UNKNOWN`,
  `EXECUTION_ERROR`: a constant whose words, less `error`/`code`, are only
  words like `internal`, `unknown`, `unexpected`, `execution`, `failed`,
  `exception`: `GENERIC_ERROR_CODE_WORDS`): the same
  code for every failure, the kind is only in the text, and it is reported
  (s39: readers in three packages labelled hello-agents'
  `ToolResponse.error(code=INTERNAL_ERROR, message=str(e))`, openjiuwen's
  one file-system error code and lagent's `state=API_ERROR` true; no label
  called such a result typed). A kind given positionally types it as by
  keyword (s40: rootly's `MCPError.tool_error(str(e), "permission_error")`,
  3 false): the argument binds the parameter the factory's or constructor's
  signature names, where the run has it (a function or class of the module,
  `self.m`, a function imported from the project); where it does not, a
  literal that names a kind of error (one identifier ending in `error` or
  `exception`, not a catch-all) is read as the kind. A failure factory of a class named for a
  tool's result (`ToolResponse.error(...)`, `MCPError.tool_error(...)`)
  carries the text as its constructor does; another class's factory is a
  call like any other (`ActionResponse.error(...)`: langbot's answers to its
  plugin processes, 26 false), unless the factory's own name says a failed
  result (`error_response`, `error_result`, `tool_error`, a method or a
  module function) in a module with tool evidence (s39: code-puppy's
  `AskUserQuestionOutput.error_response(f"...{e!s}")` in `tools/`);
- format-repair feedback: a handler that catches only format errors
  (`json.JSONDecodeError`, pydantic's `ValidationError`, `yaml.YAMLError`,
  `OutputParserException`, sqlglot's `ParseError`, `re.error`: resolved through the imports; the builtin
  `SyntaxError`) around a parse of data in memory (no call in the `try`
  reaches outside): the model's own output did not parse and the text tells
  it how to fix it; a handler catching only an SDK's argument checks
  (botocore's `ParamValidationError`, raised before any request is sent),
  whatever the `try` calls: the text is about the model's own arguments; and a handler
  catching only parser errors (`ValueError` too) that puts the text in a
  re-prompt (an argument named like `messages`/`retry_messages`, or a
  `...Message(...)` object);
- the model's own input (s50, issue 24, the lead's decision): a `try` that
  only checks or parses what the model sent, before the tool acts, whatever
  its handler catches: every call in it is a check (a callee named with
  `validate`/`check`/`parse`/`assert`/`coerce`/`normalize`/`sanitize`/
  `resolve`/`compile`: `_validate_session_id(session_id)`,
  `coerce_str_list(kwargs.get("url"))`, `_resolve_workspace_path(path, root)`,
  `self.Params.model_validate(data)`), a parser of text in memory
  (`json.loads`, `shlex.split`, `re.compile`, `compile`, `strptime`,
  `Path(...)`), a model built from the arguments (`Params(**arguments)`), a
  call that only moves a value (`args.get("x")`, `.strip()`) or the
  exception a `raise` builds; nothing in it reaches outside or is awaited;
  and one check is handed the model's input: a tool's parameter, or a
  parameter named as a tool call's arguments (`arguments`, `args`,
  `tool_input`, `kwargs`, ...: `TOOL_ARGUMENT_NAMES`) or an attribute so
  named of one (`call.input`, `event.args`), or a local bound from one
  (`cleaned = raw_arguments.strip()`); a check named so takes any parameter
  of the function (a tool's helper), a parser only the model's input. The
  text is the repair the model needs. Still reported: the same `try`
  running the tool (`fn(**arguments)`, `tool.execute(**args)`: its
  `TypeError` may come from inside the tool), a parse of a program's or a
  server's output (`json.loads(proc.stdout)`, `resp.json()`), a check named
  for a peer (`_validate_server_connection`, `check_agent_status`:
  `INPUT_CHECK_REMOTE_WORDS`) or handed a client-like object
  (`resolve_git_root(container, path)`), another object's `resolve`
  (`mcp.resolve(name, args)`: a registry's or a server's lookup), and a
  check whose body (the module's own, with the module's helpers it calls,
  two levels: `parse_diff_ranges` dispatching to a helper that runs git;
  or a project function read from disk) awaits or calls out;
- the model's own input computed on (s54, issue 24): a `try` whose every
  call only computes on the tool's own parameters (or locals the checks
  made of them), constants and module-level names: a builtin that does not
  act (`int(limit)`), a function of an in-memory module (`time.time()`,
  `datetime`...), a value method of the input (`Path(path).expanduser()
  .resolve()`, `object_type.split(".")`), or a module-level function of the
  project (the module's own, or imported and read from disk; not a method,
  which a subclass may override) whose body, and the module's functions it
  calls (two levels), calls only builtins, in-memory modules, value methods
  and the exception a `raise` builds: the error is about the model's value.
  Still reported: a helper that opens a file, runs a program or calls any
  other function, a path's `read_text`, a third-party call
  (`numexpr.evaluate(expr)`: its body is not read), a method of what a
  call returned (`spec.handler(**args)`, `api.list_items()`), a value the
  input did not make (`settings` loaded before the `try`);
- telemetry and serialisation: a function whose job is producing text (the
  name contains `serializ`/`serialis`/`repr`/`to_json`/`to_str` or starts
  with `format_`, leading underscores ignored; an object's `__str__` or
  `__format__`), and text stored under a
  dotted attribute key (`attributes["tool.args_parse_error"] = str(e)`, a
  trace's span attributes);
- code the model wrote, run in this process: a `try` that calls `exec`,
  `eval`, `compile` or `runpy.run_path`/`run_module`, or a REPL's run (`run_cell`, `run_code`...) that does
  not reach outside: the exception is that program's own error, the
  product. A code-running call that reaches outside (a sandbox or container
  SDK, an awaited `run_code`) raises the infrastructure's errors (an API
  error, a timeout), which the model cannot tell from its program's output:
  reported;
- the package's own refusal (s48, issue 24, the lead's decision): a handler
  that catches only exception classes the project defines (in the module,
  or imported from the linted file's top-level package: `except PathError
  as e`, `except errors.ToolError as e`), where every construction of the
  class and of its subclasses in the project passes a message written there
  (`raise PathError("path outside the workspace")`, `raise
  ToolError(f"{{path}} is a directory")`, no argument, a literal's
  `%`/`.format`, a constant's name): the text the model reads is a message
  the package wrote for it, not a stringified failure
  (`linter/project_refusals.py` reads the project's modules on disk, once
  per class). Still reported: a builtin (`ValueError`, `RuntimeError`: other
  code raises it too), a library's class (FastMCP's `ToolError`, though the
  project defines one of that name), `except Exception` or a tuple with
  any such class; a class that some construction builds from a variable
  (`raise ToolError(msg)`, `ToolError(proc.stderr)`, `ToolError(str(exc))`:
  anyone's text) or that formats another failure into its message (a name
  an enclosing `except ... as` binds, a parameter annotated with an
  exception class, or a conventional exception name: `raise
  SessionError(f"send failed: {{cause}}")`, `ChangeDiscoveryError(f"git could
  not be run ({{exc}})")`); a class the project never constructs. s52: a
  caught exception's text handed on is still a message written by the
  package where that exception is itself about the input: the handler
  catches only classes that are the project's own refusals (`except
  ConfigError as e: raise UserInputError(str(e))`, every `ConfigError` a
  sentence of the package's: wb-wordpress; one step: the class handed on is
  decided without this step, a class of the same family counts as itself),
  or its `try` only parses a parameter of the function (`INPUT_PARSERS`:
  `json.loads(text)`) or binds arguments to a signature
  (`inspect.signature(fn).bind(**arguments)`, `SIGNATURE_FACTORIES`: its
  `TypeError` names the argument the caller got wrong; ankaloop's
  `ToolValidationError`). A `try` that also runs the function
  (`fn(**arguments)`), a handler of a builtin or a library's class, and a
  carried class some construction builds from a variable still make the
  class no refusal;
- s55 (issue 24): a builtin the project's own checks raise in their own
  words: a handler of `ValueError`, `KeyError`, `LookupError` or
  `PermissionError` only, whose `try` calls only project functions (the
  module's own, two levels, or one imported from the project, read on
  `ast`) and calls that cannot raise the class (`isinstance`, `str.strip`,
  `os.path.join`), where every `raise` of a caught class builds it from a
  message written there (`raise ValueError("cwd is outside the
  workspace")`) and at least one does (`rules/errors/own_raises.py`).
  Still reported: a call that may raise the class itself (`int(x)`,
  `json.loads`, `p.relative_to(root)`, any library or other object's
  method), a subscript under `KeyError`, an unpacking under `ValueError`, a
  file-system query under `PermissionError`, a re-raise (`raise`, `raise
  ValueError(str(error))`) or a message formatting a failure;
- an attribute of the exception other than `args` (`exc.message`,
  `exc.status_code`, `exc.errors()`): data it carries, not the exception
  turned into text (`e.args[0]` is reported). s46 read what batches 1-18
  say of `e.message`: no label calls it true; the three sites read are
  workos-github's and workos-jira's `{"error": e.message}` (read as
  debatable: the client put a transport failure's `str(e)` into its own
  error's message, and the 4xx answers carry the API's own message) and
  agenthubx's `{"error": exc.code, "message": exc.message}` (typed by the
  API's code: nothing to report). It stays exempt: the attribute is
  mostly a message the program or the API wrote;
- a constructor that also receives the exception object itself
  (`ToolOutput(content=str(e), exception=e)`, or `e` positionally): the
  typed failure survives;
- text only in a message's side data, which the framework keeps beside the
  message and does not send to the model: `ToolMessage(...,
  additional_kwargs={"error": str(e)})`, LangChain's `artifact=` and
  `response_metadata=`, pydantic-ai's `ToolReturnPart(..., metadata=...)`
  (the message's `content` is still read); likewise the artifact a LangChain
  tool declared `@tool(response_format="content_and_artifact")` returns beside
  its content (`return content, artifact`: the content is still read).

## Why is this bad?
A string is the one shape an agent cannot act on: it cannot tell a rate limit
(wait and retry) from a bad argument (fix the call) from a missing object (stop).
The model guesses from prose, retries permanent failures and gives up on
transient ones; the text may also leak internals (paths, hosts, tokens).

## Example
```python
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("issues")

@mcp.tool()
def get_issue(n: int):
    try:
        return Ok(api.issue(n))
    except Exception as e:
        return {"error": str(e)}
```

## Use instead
```python
from mcp.server.fastmcp import FastMCP
from smullyan.runtime import Err, Ok, from_exception
mcp = FastMCP("issues")

@mcp.tool()
def get_issue(n: int):
    try:
        return Ok(api.issue(n))
    except Exception as e:
        return Err(from_exception(e))
```

## How to suppress
`# noqa: TFH401` on the `return`/`yield` line (or the message's), or `ignore`/`per-file-ignores`
in the configuration (e.g. for a CLI that prints errors to a human).
"""
    VALID = [
        # s56: a formatter handed the exception whose payload goes on to a second helper of its module is followed
        # into that helper: one that keeps a fixed answer and logs the payload hands the model no exception text
        """\
import json
from mcp.server.fastmcp import FastMCP
server = FastMCP("editor")
def _ack(payload: dict) -> str:
    log.warning(json.dumps(payload))
    return json.dumps({"ok": False, "error": "the editor session failed; see the server log"})
def _fail(exc: Exception) -> str:
    payload = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    return _ack(payload)
@server.tool()
def editor_stop(session: str) -> str:
    try:
        return json.dumps(sessions.stop(session))
    except Exception as exc:
        return _fail(exc)
""",
        # s49: a helper handed the exception that returns it as text one level deep is reported at its callers'
        # `return _handled_error(e)`, not again at its own line (one finding per text); one that returns only the
        # class name, or a kind, stays silent
        """\
def _handled_error(exc: Exception) -> dict:
    return {"status": "error", "message": str(exc)}
def _kind(exc: BaseException | None) -> dict:
    return {"error": type(exc).__name__, "code": "TIMEOUT" if isinstance(exc, TimeoutError) else "FAILED"}
def _describe(e):
    return str(e) or type(e).__name__
def _page_failure(last_error: Exception) -> Exception:
    if isinstance(last_error, TimeoutError):
        return TimeoutError(f"switch to manual pagination ({_describe(last_error)})")
    return last_error
""",
        # s49: a handler that binds a tool's result object to a name its try binds to something other than a tool
        # run's result (a store's load) does not stand in for a tool's answer
        """\
from .kernel import ToolResult
def summarize(store, key):
    try:
        result = store.load(key)
    except Exception as e:
        result = ToolResult(result_for_model=f"Error: {e}", is_error=True)
    return None
""",
        # s49: a JSON-RPC error response whose code says what failed, and one in a module that is no MCP server (a
        # language server's stdio loop: its client is an editor)
        """\
import json, sys
def serve(handle):
    for line in sys.stdin:
        req = json.loads(line)
        try:
            if req["method"] == "initialize":
                result = {"serverInfo": {"name": "demo"}, "capabilities": {"tools": {}}}
            else:
                result = handle(req["method"], req.get("params"))
        except ValueError as e:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": req.get("id"), "error": {"code": -32602, "message": str(e)}}))
""",
        """\
import json, sys
def lsp_loop(handle):
    for line in sys.stdin:
        req = json.loads(line)
        try:
            result = handle(req["method"], req.get("params"))
        except Exception as e:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": req.get("id"), "error": {"code": -32603, "message": str(e)}}))
""",
        # s47: the items of a container given in a parallel assignment are not followed (the text beside its
        # kind: rootsight's `step["error"], step["error_kind"] = str(e), e.kind`); nor a name given a constant
        """\
def call_tool(tools, name, arg):
    step = {"action": name, "error": None, "error_kind": None}
    try:
        step["response"] = getattr(tools, name)(arg)
    except ToolError as e:
        step["error"], step["error_kind"] = str(e), e.kind
        label, failed = "failed", True
    return step, label
""",
        """\
import logging
log = logging.getLogger(__name__)
def f():
    try:
        return g()
    except Exception as e:
        log.warning("failed: %s", e)
        return None
""",
        """\
def f():
    try:
        return g()
    except Exception as e:
        return {"error": type(e).__name__, "kind": e.__class__.__name__}
""",
        """\
from smullyan.runtime import Err, Unknown, unknown, ToolFailure
from smullyan import runtime as rt
def f():
    try:
        return g()
    except OSError as e:
        return Err(unknown(str(e)))
    except ValueError as e:
        return Err(Unknown(message=f"bad: {e}"))
    except KeyError as e:
        return Err(rt.not_found(str(e)))
""",
        """\
def f():
    try:
        return g()
    except Exception as e:
        raise RuntimeError(str(e)) from e
""",
        """\
def f():
    try:
        return g()
    except Exception as e:
        def later():
            return 1
        return e.status_code
""",
        # an attribute other than args is data the exception carries, not its text
        """\
def run(tool):
    try:
        return tool()
    except ModelRetry as exc:
        return _ModelRetry(message=exc.message)
    except HTTPError as exc:
        return {"status": exc.status_code, "detail": f"{exc.response.reason}"}
    except ValidationError as exc:
        return exc.errors()
""",
        # taint stops at a call's result, and a return in the try body is not the handler's
        """\
def query(self, sparql):
    while retries <= max_retries:
        try:
            return self._prepare(sparql)
        except Exception as e:
            retries += 1
            parse_exception = str(e)
            result = self.fix_chain.invoke({"error_message": parse_exception})
            sparql = result[self.fix_chain.output_key]
    return fallback(f"{sparql}")
""",
        # the constructor also gets the exception object: the typed failure survives
        """\
def call(tool, args):
    try:
        return tool(**args)
    except Exception as e:
        return ToolOutput(content=str(e), raw_output=str(e), is_error=True, exception=e)
""",
        # a helper whose job is producing text for telemetry
        """\
def _serialize_value(value):
    try:
        return json.dumps(value)
    except Exception:
        try:
            return str(value)
        except Exception as e:
            return f"Unable to serialize: {e}"
""",
        # the text only in a tool message's side data: the model reads `content`, a fixed sentence
        """\
from langchain_core.messages import ToolMessage
def screenshot(device, call_id):
    try:
        shot = device.capture()
    except Exception as e:
        return ToolMessage(tool_call_id=call_id, content="Screenshot failed.", additional_kwargs={"error": str(e)})
    return ToolMessage(tool_call_id=call_id, content=shot)
""",
        # an exception class's own `__str__`: its text for a person, with a fallback when a field will not format
        """\
class ActError(Exception):
    def __str__(self):
        try:
            return f"{type(self).__name__}({self.fields()})"
        except Exception as e:
            return f"Error in __str__: {e}"
""",
        # `str` is this module's own function here, not the builtin
        """\
def str(value):
    return value
def f():
    try:
        return g()
    except Exception as e:
        return str(e)
""",
        # a parser error fed back to the model as a re-prompt
        """\
def parse(self, last_message):
    try:
        return self.parser.parse(last_message.content)
    except ValueError as e:
        error_msg = f"Error while parsing the output: {e!s}"
        return AgentOutput(retry_messages=[last_message, ChatMessage(role="user", content=error_msg)])
""",
        # a same-module helper that builds a typed error, or only logs
        """\
import logging
from smullyan.runtime import Err, unknown
log = logging.getLogger(__name__)
def fail(msg):
    return Err(unknown(msg))
def note(msg):
    log.warning(msg)
    return None
def f(client):
    try:
        return client.get()
    except Exception as e:
        return fail(str(e))
def g(client):
    try:
        return client.get()
    except Exception as e:
        return note(f"get failed: {e}")
""",
        # a tool that runs the model's code: the code's error is the product
        """\
def run_python(code, ns):
    try:
        exec(code, ns)
        return ns.get("result")
    except Exception as e:
        return f"Error: {e}"
class Tool:
    def run(self, code):
        try:
            return self.repl.run_cell(code)
        except Exception as e:
            return {"error": str(e)}
""",
        # a typed error event: the kind of failure is said beside the text
        """\
def stream(run):
    try:
        yield from run()
    except Exception as e:
        yield {"type": "error", "error": {"type": "server_error", "message": str(e)}}
        yield {"error": str(e), "error_type": type(e).__name__, "status": e.status_code}
""",
        # a code that names the kind of failure types it, even through a result class's failure factory
        """\
from .errors import ToolErrorCode
def run_tool(p):
    try:
        return do(p)
    except TimeoutError as e:
        return ToolResponse.error(code=ToolErrorCode.TIMEOUT, message=f"timed out: {e}")
    except PermissionError as e:
        return {"code": "permission_denied", "message": str(e)}
    except Exception as e:
        return ActionResponse.error(message=f"Run list error: {e}")
""",
        # s40: a kind given positionally types the failure as by keyword: by the factory's signature where the
        # run has it (rootly's MCPError.tool_error(str(e), "permission_error")), else a literal naming a kind
        """\
class MCPError:
    @staticmethod
    def tool_error(error_message, error_type="execution_error"):
        return {"error": True, "error_type": error_type, "message": error_message}
def run_tool(p):
    try:
        return do(p)
    except PermissionError as e:
        return MCPError.tool_error(str(e), "permission_error")
    except ConnectionError as e:
        return MCPError.tool_error(str(e), ErrorKind.CONNECTION)
    except ValueError as e:
        return ToolResult.error_result(f"bad input: {e}", "validation_error")
""",
        # s47: a kind attribute of the exception (aster's ``UpstreamError.kind``) as a value, or formatted into a
        # field of its own beside the text; a code from a same-module classifier of the exception (remoteshell's
        # ``_classify_error``: a closed set of literal codes, per returned dict key or bare)
        """\
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("market")
def _err(source, error, reason):
    return {"ok": False, "source": source, "error": error, "reason": reason}
def _classify_error(exc):
    msg = str(exc)
    if isinstance(exc, PermissionError):
        return {"code": "auth_failed", "message": msg}
    if isinstance(exc, ConnectionError):
        return {"code": "connection_failed", "message": f"Connection failed. {msg}"}
    return {"code": "unknown_error", "message": msg}
def _kind(exc):
    if isinstance(exc, TimeoutError):
        return "timeout"
    if isinstance(exc, ConnectionError):
        return "network"
    return "other"
@mcp.tool()
def trades(symbol: str) -> dict:
    try:
        return fetch(symbol)
    except UpstreamError as e:
        return _err("fapi", f"trades unavailable: {e}", f"upstream failure ({e.kind})")
    except LookupError as e:
        return {"error_kind": e.kind, "reason": str(e)}
@mcp.tool()
def upload(path: str) -> dict:
    try:
        return put(path)
    except Exception as e:
        info = _classify_error(e)
        return {"success": False, "code": info["code"], "message": info["message"]}
@mcp.tool()
def download(path: str) -> dict:
    try:
        return get(path)
    except Exception as e:
        kind = _kind(e)
        return {"category": kind, "message": str(e)}
""",
        # format-repair feedback: the model's own arguments did not parse (format errors, resolved through the
        # imports, around a parse in memory), even in a tool message
        """\
import json
from autogen_core.models import FunctionExecutionResult
from pydantic import ValidationError as InvalidArguments
def call_tool(tool, call):
    try:
        args = tool.schema.model_validate(json.loads(call.arguments))
    except (json.JSONDecodeError, InvalidArguments) as e:
        return FunctionExecutionResult(content=f"Error: {e}", call_id=call.id, is_error=True)
    return tool.run(args)
""",
        # telemetry: span attributes under dotted keys; a status record stored, not returned
        """\
import json
def tool_attributes(call):
    attributes = {}
    try:
        attributes["tool.parameters"] = json.dumps(call.arguments)
    except Exception as e:
        attributes["tool.args_parse_error"] = str(e)
    return attributes
def run_job(job, db):
    try:
        job.result = job.fn()
        job.status = "done"
    except Exception as e:
        job.status, job.error = "failed", str(e)
    db.save(job)
    return job.id
""",
        # a message built with something other than the exception text
        """\
from langchain_core.messages import ToolMessage
def run_tool(tool, call, messages):
    try:
        out = tool.invoke(call["args"])
    except Exception as e:
        messages.append(ToolMessage(content=type(e).__name__, tool_call_id=call["id"], status="error"))
        return
    messages.append(ToolMessage(content=out, tool_call_id=call["id"]))
""",
        # a container filled with the type name only
        """\
def f(items, fetch):
    errors = []
    for it in items:
        try:
            fetch(it)
        except Exception as e:
            errors.append(type(e).__name__)
    return errors
""",
        # format-repair feedback: a syntax check of generated code; an SDK's check of the model's own call arguments
        # (raised before any request is sent)
        """\
import ast
from botocore.exceptions import ParamValidationError
def check_syntax(code):
    try:
        ast.parse(code)
        return True, "Syntax is correct."
    except SyntaxError as e:
        return False, f"Syntax error: {e}"
def use_aws(operation, parameters, schema):
    try:
        return operation(**parameters)
    except ParamValidationError as val_ex:
        return {"status": "error", "content": [{"text": f"Validation error: {val_ex}"}, {"text": schema}]}
""",
        # a web app's endpoints: JSON for a browser, not a model (routes resolved through the imports)
        """\
from flask import Flask
from fastapi import APIRouter
from starlette.responses import JSONResponse
router = APIRouter()
class Dashboard:
    def __init__(self):
        self._app = Flask(__name__)
    def _setup_routes(self):
        @self._app.route("/save_memory", methods=["POST"])
        def save_memory():
            try:
                return self.agent.save(request.json)
            except Exception as e:
                return {"status": "error", "message": str(e)}
@router.get("/runs/{run_id}")
async def get_run(run_id):
    try:
        return await store.get(run_id)
    except Exception as e:
        return {"error": str(e)}
async def health(request):
    try:
        return JSONResponse({"ok": await probe()})
    except Exception as e:
        return JSONResponse({"ok": False, "error": str(e)}, status_code=503)
""",
        # a command-line program: its helpers report to a person at a terminal
        """\
import typer
import yaml
app = typer.Typer()
def config_summary(path):
    result = {"status": "not_found"}
    try:
        result["config"] = yaml.safe_load(open(path))
    except Exception as e:
        result["status"], result["error"] = "error", str(e)
    return result
@app.command()
def show(path: str):
    print(config_summary(path))
""",
        # a check whose every result the module binds and prints for a person (a doctor command)
        """\
from rich.console import Console
console = Console()
async def check_device(adb):
    try:
        serial = await adb.serial()
    except Exception as e:
        return {"name": "device", "ok": False, "message": f"not found: {e}"}
    return {"name": "device", "ok": True, "message": serial}
def _show(result):
    console.print(f"{result['name']}: {result['message']}")
async def run_checks(adb):
    r = await check_device_tool(adb)
    _show(r)
""",
        # the exception object in a value that is not a tool's result (a helper's record of failures)
        """\
def fetch_all(urls, get):
    failures = []
    for u in urls:
        try:
            get(u)
        except Exception as e:
            failures.append({"url": u, "error": e})
    return failures
""",
        # s39: a bare failure factory of an RPC answer (langbot's plugin runtime actions: ``ActionResponse.error``)
        # is not followed even with tool evidence; a failed-result factory outside one is not either
        """\
class PluginRunnerActions:
    async def list_runs(self, data):
        try:
            return ActionResponse.success(await self.store.list(data))
        except Exception as e:
            return ActionResponse.error(message=f"Run list error: {e}")
class Dashboard:
    def refresh(self):
        try:
            return load()
        except Exception as e:
            return error_response(f"failed: {e}")
""",
        # reports for a person: an evaluation harness's record, a health check's details
        """\
class EvaluationRunner:
    def run_case(self, agent, case):
        try:
            answer = agent.run(case.prompt)
        except Exception as e:
            return {"case": case.id, "passed": False, "error": str(e)}
        return {"case": case.id, "passed": answer == case.expected}
class ServiceHealth:
    async def check_store(self, store):
        try:
            await store.ping()
            return {"status": "up"}
        except Exception as e:
            return {"status": "down", "details": f"unreachable: {e}"}
""",
        # a web module: a helper whose result a route returns as JSON; a route on an app built elsewhere
        """\
from fastapi import APIRouter
router = APIRouter()
async def probe_server(config):
    try:
        return {"ok": True, "tools": len(await connect(config).list_tools())}
    except Exception as e:
        return {"ok": False, "error": str(e)}
@router.post("/servers/test")
async def test_server(req):
    return await probe_server(req.config)
""",
        """\
class Playground:
    def setup(self):
        @self.server.app.post("/responses")
        async def responses(request):
            try:
                return await self.agent.respond(await request.json())
            except Exception as e:
                return {"status": "failed", "error": str(e)}
""",
        # a user interface: the chat history a person reads
        """\
import gradio as gr
def respond(history, message, agent):
    try:
        reply = agent.chat(message)
    except Exception as e:
        reply = f"Error: {e}"
    return history + [(message, reply)]
""",
        # format-repair feedback: the model's search pattern is not a valid regular expression
        """\
import re
def grep(pattern, lines):
    try:
        rx = re.compile(pattern)
    except re.error as err:
        return f"invalid pattern, fix it: {err}"
    return [line for line in lines if rx.search(line)]
""",
        # format-repair feedback: a SQL parser's error about the model's query, parsed in memory
        """\
import sqlglot
from sqlglot.errors import ParseError
def check_query(sql):
    try:
        sqlglot.parse_one(sql)
        return True, None
    except ParseError as e:
        return False, str(e)
""",
        # a keyword argument or an attribute named like a variable that held the text is not that variable
        """\
def summary(name, load, log):
    try:
        return Summary(name=name, parts=load())
    except Exception as e:
        parts = f"unavailable: {e}"
        log(parts)
    return Summary(name=name, parts=None)
class Job:
    def outcome(self, run):
        try:
            run()
        except Exception as e:
            error = str(e)
            self.log(error)
        return Outcome(done=self.error is None)
""",
        # an evaluation's record: the grader reads it, not a model
        """\
from gradekit import EvaluationResult
async def verify(task):
    try:
        await fetch_artifacts(task)
    except Exception as exc:
        yield EvaluationResult(failed=True, detail=str(exc))
""",
        # a helper that only logs the text it keeps in a local name, and returns a fixed message
        """\
import logging
def describe(error):
    text = f"device error: {error}"
    logging.warning(text)
    return "the device did not answer"
def click(device, x, y):
    try:
        device.tap(x, y)
    except Exception as e:
        return describe(e)
""",
        # a helper nothing names for a model: a storage client's status pair and a webhook's answer go to the
        # application and to an HTTP client
        """\
class BlobStore:
    def delete(self, key):
        try:
            self.client.remove_object(self.bucket, key)
            return True, ""
        except Exception as e:
            return False, str(e)
def handle_callback(body, verify):
    try:
        verify(body)
    except Exception as e:
        return {"error": str(e)}, 400
    return {"ok": True}, 200
""",
        # a statement of the handler's own body replaces the text: what is returned is the package's message
        """\
def query_tool(http, url):
    try:
        return {"ok": True, "data": http.get(url).json()}
    except Exception as e:
        detail = str(e)
        log.warning("query failed: %s", detail)
        detail = "the search service is unavailable"
        return {"ok": False, "error": detail}
""",
        # the dict holds a copy of the list: the text filled in afterwards is not returned
        """\
def check_tool(script, path, warnings):
    result = {"ok": True, "warnings": list(warnings)}
    try:
        save(path, script)
    except OSError as e:
        warnings.append(f"Failed to save the report: {e}")
    return result
""",
        # s41: LangChain's content_and_artifact tool: the artifact (the second of the pair) is not sent to the model
        """\
from langchain_core.tools import tool

@tool(response_format="content_and_artifact")
def correlation_funnel(data):
    try:
        plot = render(data)
    except Exception as e:
        plot = {"error": str(e)}
    return "Correlation funnel computed.", {"plot": plot}
""",
        # s46: the outcome handed elsewhere than where the try hands the result (an audit record), or without the text
        """\
async def run_one(runner, call, mailbox, audit):
    try:
        result = await runner.run(call)
        mailbox.deliver(result)
    except Exception as cause:
        audit.record(ToolOutcome(id=call.id, output=str(cause), is_error=True))
        mailbox.deliver(ToolOutcome(id=call.id, output="the tool failed", is_error=True))
""",
        # s46: a helper building something else (a job's report), or a result class's name imported, not built here
        """\
from .results import _failure
def _report(detail):
    return JobReport(status="failed", detail=detail)
def run_job(job):
    try:
        return job.run()
    except Exception as err:
        return _report(f"job failed: {err}")
def run_other(job):
    try:
        return job.run()
    except Exception as err:
        return _failure(f"job failed: {err}")
""",
        # s41: a function the module says nothing about whose try runs no tool (a job, not a tool) is not reported
        """\
class Scheduler:
    async def attempt(self, job):
        try:
            retval = await job.async_invoke()
        except Exception as exception:
            retval = f"Error: {str(exception)}"
        return retval
""",
        # s46: a callable run with arguments not named for a tool (a job's keyword arguments) is no tool run
        """\
def call_with_timeout(func, job_params, name):
    try:
        return func(**job_params)
    except Exception as e:
        return f"Error: {name} raised an error: {e}"
""",
        # s46: a handler that announces a tool's call, or an event that is no tool's result, says nothing of the text
        """\
def dispatch(intent, query):
    try:
        return handle(query)
    except Exception as exc:
        res = f"Sorry, I ran into an error: {exc}"
        bus.emit_tool_call(intent, {"query": query})
        bus.emit_error(intent, res)
        return res
""",
        # s41 (issue 24 D5): only the item the helper returns the exception in holds it: the result's text is no error
        """\
from langchain_core.messages import ToolMessage
def _invoke(fn, args):
    try:
        return fn(**args), None
    except Exception as e:
        return None, e
def run_tools(calls, tools, messages, log):
    for call in calls:
        out, err = _invoke(tools[call["name"]], call["args"])
        if err is not None:
            log.warning("tool failed: %s", err)
            messages.append(ToolMessage(content="the tool failed; retry later", tool_call_id=call["id"]))
        else:
            messages.append(ToolMessage(content=str(out), tool_call_id=call["id"]))
""",
        # s44: a helper's tuple without a literal None beside the text (`return ok, str(e)`): the text may be the
        # success's message too (s43: 10 false of 25 when every unpacked text was followed): not followed
        """\
import httpx
from langchain_core.tools import tool
def _check(url):
    try:
        httpx.get(url, timeout=10).raise_for_status()
        return True, "reachable"
    except httpx.HTTPError as err:
        return False, str(err)
@tool
def probe(url: str) -> str:
    \"\"\"Whether the endpoint answers.\"\"\"
    ok, message = _check(url)
    return message
""",
        # s53: a helper's text beside None from a handler that binds no stringified failure, as one in place
        # (format-repair feedback on the model's pattern: screaming-frog's `_compile_row_filter`); and a name an
        # unpacking gives a new value no longer holds the text an earlier one gave it
        """\
import re
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("crawl")
def _compile_filter(value):
    try:
        return re.compile(value), None
    except re.error as e:
        return None, f"ERROR: Invalid regex pattern: {e}"
def _export_file(export_id):
    if export_id not in EXPORTS:
        return None, f"ERROR: unknown export {export_id}"
    return EXPORTS[export_id], None
@mcp.tool()
def read_rows(pattern: str, export_id: str) -> str:
    rx, err = _compile_filter(pattern)
    if err:
        return err
    path, err = _export_file(export_id)
    if err:
        return err
    return "\\n".join(r for r in open(path) if rx.search(r))
""",
        # s45: text stored on the instance, read by a status reader (a person's view), not by the tool
        """\
from langchain_core.tools import BaseTool
class SearchTool(BaseTool):
    def _run(self, q):
        try:
            return self.client.get(q)
        except Exception as e:
            self.last_error = str(e)
            raise
    def get_status(self):
        return {"healthy": self.last_error is None, "error": self.last_error}
""",
        # s45: a provider's response typed by its stop reason: the assistant's turn for the person (batch 17)
        """\
def chat(client, messages):
    try:
        return client.chat(messages)
    except Exception as e:
        return {"content": [{"type": "text", "text": f"API error: {e}"}], "stop_reason": "error"}
""",
        # s50 (the lead's decision): a `try` that only checks or parses the model's own input, whatever it catches:
        # a check named so on a tool's parameter (code-puppy's `_validate_session_id`), `json.loads` of a runner's
        # raw arguments (coderai's `_parse_tool_arguments`), `shlex.split` of the model's command (noc-ops)
        """\
import json, shlex
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("shell")
def _validate_session_id(session_id):
    if not session_id.isalnum():
        raise ValueError(f"bad session id {session_id!r}")
@mcp.tool()
def resume(session_id: str):
    try:
        _validate_session_id(session_id)
    except ValueError as e:
        return {"error": str(e)}
    return {"ok": True}
def dispatch(registry, name, raw_arguments):
    cleaned = raw_arguments.strip()
    try:
        parsed = json.loads(cleaned)
    except Exception as e:
        return {"role": "tool", "content": f"Failed to parse tool arguments: {e}"}
    return registry[name](**parsed)
@mcp.tool()
def run(cmd: str):
    try:
        argv = shlex.split(cmd)
    except ValueError as e:
        return f"could not parse the command: {e}"
    return argv
""",
        # s54 (issue 24): a `try` whose every call only computes on the tool's own parameters: a path the model gave
        # resolved (ai-data-science-team's `Path(directory_path).expanduser().resolve()`), a project helper of the
        # model's value whose body only computes in memory, `time.time()` beside it
        """\
import time
from pathlib import Path
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("files")
def next_fire(expr, now):
    minutes = int(expr.split()[0])
    return now + 60 * minutes
@mcp.tool()
def list_dir(directory: str):
    try:
        base = Path(directory).expanduser().resolve()
    except Exception as exc:
        return f"Invalid directory path: {exc}"
    return sorted(p.name for p in base.iterdir())
@mcp.tool()
def schedule(expr: str, limit: int = 10):
    try:
        fire = next_fire(expr, now=time.time())
        count = int(limit)
    except ValueError as e:
        return {"error": str(e)}
    return {"next": fire, "count": count}
""",
        # s51: an Ansible action plugin (plaibook's): its `result["msg"]` answers the playbook run, not a model (`NON_MODEL_PLUGIN_BASES`)
        """\
from ansible.plugins.action import ActionBase
class ActionModule(ActionBase):
    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        try:
            result.update(fetch_costs(self._task.args["calls"]))
        except Exception as exc:
            result["failed"] = True
            result["msg"] = f"cost lookup failed: {exc}"
            return result
        return result
""",
        # s51: a wrapper placed above the registering decorator (zspace's `_safe_tool`): the server registered the undecorated function
        """\
import functools
from mcp.server.fastmcp import FastMCP
server = FastMCP("nas")
def _safe_tool(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        try:
            return await fn(*args, **kwargs)
        except Exception as e:
            return {"error": str(e)}
    return wrapper
@_safe_tool
@server.tool()
async def nas_mkdir(path: str):
    return await client.mkdir(path)
""",
        # s54: the same envelope helper given a kind the caller chose (`code="NOT_FOUND"`, a classifier's code): typed, silent
        """\
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("sandbox")
def err(message: str, *, code: str = "error") -> dict:
    return {"ok": False, "error": {"code": code, "message": message}}
@mcp.tool()
def sandbox_start(name: str) -> dict:
    try:
        return {"ok": True, "data": client.start(name)}
    except KeyError as exc:
        return err(str(exc), code="NOT_FOUND")
    except Exception as exc:
        return err(str(exc), code=classify(exc))
""",
        # s52: a helper adding a kind to the dict it returns beside the text (janction's `_fail(exc)`): a typed error, silent
        """\
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("render")
def _fail(exc: Exception) -> dict:
    out = {"ok": False, "error": str(exc)}
    if isinstance(exc, ClientError):
        out.update(exc.agent_fields())
    else:
        out.update({"code": "INVALID_INPUT", "retryable": False})
    return out
@mcp.tool()
def render(scene: str) -> dict:
    try:
        return client.submit(scene)
    except Exception as exc:
        return _fail(exc)
""",
        # s51: an error formatter every call of which is raised (actionstep's `raise _safe_tool_error(e) from None`): the text ends in a raise
        """\
from mcp.server.fastmcp import FastMCP
from .errors import SafeToolError
mcp = FastMCP("practice")
def _describe(exc):
    return str(exc) or type(exc).__name__
def _safe_tool_error(exc: Exception):
    return SafeToolError(f"Actionstep request failed: {_describe(exc)}")
@mcp.tool()
def list_users():
    try:
        return client.list_users()
    except Exception as e:
        raise _safe_tool_error(e) from None
""",
        # s55: a builtin the project's own function raises in its own words, and nothing in the `try` that could raise
        # it itself (hazzel's `_resolve_cwd`, quick-mcp-shell's `resolve_cwd`): the package's refusal
        """\
import os
import subprocess
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("shell")
ROOT = "/srv"
def _workdir(cwd):
    full = os.path.normpath(os.path.join(ROOT, cwd))
    if not full.startswith(ROOT):
        raise ValueError(f"cwd {cwd} is outside the workspace")
    return full
@mcp.tool()
def run(command: str, cwd: str):
    try:
        workdir = _workdir(cwd)
    except ValueError as e:
        return str(e)
    return subprocess.run(command, shell=True, cwd=workdir, capture_output=True, text=True).stdout
""",
    ]

    INVALID = [
        # s56 (batch 28's elate, node804-like formatters on 3+ batches): a formatter handed the exception builds the
        # text and hands its payload to a serialiser of its module (`return _json(payload)`): followed two helpers
        # deep, the text reaches the tool's answer, reported at the caller's `return _fail(exc)`
        """\
import json
from mcp.server.fastmcp import FastMCP
server = FastMCP("editor")
def _json(payload: dict) -> str:
    return json.dumps(payload, ensure_ascii=False)
def _fail(exc: Exception) -> str:
    message = f"{type(exc).__name__}: {exc}"
    payload = {"ok": False, "error": message}
    return _json(payload)
@server.tool()
def editor_stop(session: str) -> str:
    try:
        return _json({"ok": True, **sessions.stop(session)})
    except Exception as exc:
        return _fail(exc)  # error: TFH401
""",
        # s54: an envelope helper whose kind is a parameter the call fills with the exception's class name (vmnest's
        # `err(str(exc), code=exc.__class__.__name__)` of `{"code": code, "message": message}`): no kind, reported
        """\
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("sandbox")
def err(message: str, *, code: str = "error") -> dict:
    error = {"code": code, "message": message}
    return {"ok": False, "error": error}
@mcp.tool()
def sandbox_start(name: str) -> dict:
    try:
        return {"ok": True, "data": client.start(name)}
    except Exception as exc:
        return err(str(exc), code=exc.__class__.__name__)  # error: TFH401
@mcp.tool()
def sandbox_stop(name: str) -> dict:
    try:
        return {"ok": True, "data": client.stop(name)}
    except Exception as exc:
        return err(str(exc))  # error: TFH401
""",
        # s54: still reported: a project helper of the model's value that reads a file (its error is the machine's,
        # not the model's input), a path method that reads (`read_text`), a value the input did not make
        # (quick-mcp-shell's `settings` loaded before the `try`)
        """\
from pathlib import Path
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("files")
def load_notes(path):
    with open(path) as f:
        return f.read()
def clamp(timeout, settings):
    return min(int(timeout), settings.max_timeout)
def load_settings():
    return Path("settings.toml").read_text()
@mcp.tool()
def notes(path: str):
    try:
        return load_notes(path)
    except OSError as e:
        return f"failed: {e}"  # error: TFH401
@mcp.tool()
def show(path: str):
    try:
        return Path(path).expanduser().read_text()
    except OSError as e:
        return f"failed: {e}"  # error: TFH401
@mcp.tool()
def run(timeout: int):
    settings = load_settings()
    try:
        seconds = clamp(timeout, settings)
    except ValueError as e:
        return f"bad timeout: {e}"  # error: TFH401
    return seconds
""",
        # s50: still reported beside the model's-input checks: the same `try` running the tool (`fn(**parsed)`), a
        # parse of a program's output (`json.loads(proc.stdout)`), a check-named helper that reaches outside
        """\
import json, subprocess, requests
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("shell")
def run_tool(fn, arguments):
    try:
        parsed = json.loads(arguments)
        return fn(**parsed)
    except Exception as e:
        return {"role": "tool", "content": f"tool failed: {e}"}  # error: TFH401
@mcp.tool()
def status(repo: str):
    proc = subprocess.run(["git", "-C", repo, "status"], capture_output=True, text=True, timeout=10)
    try:
        data = json.loads(proc.stdout)
    except ValueError as e:
        return {"error": str(e)}  # error: TFH401
    return data
def _resolve_remote(path):
    return requests.get(f"https://example.com/{path}", timeout=5).json()
@mcp.tool()
def fetch(path: str):
    try:
        return _resolve_remote(path)
    except Exception as e:
        return {"error": str(e)}  # error: TFH401
""",
        # s49: an error formatter handed the caught exception as a parameter, whose text is built through another
        # helper (mcp-gee-sweet's `_failed(e)`, `_unchanged_result(e)`) or whose callers live in other modules
        # (redmine's `_handle_redmine_error(e, op)`): reported once, where the text is made
        """\
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("docs")
def _describe(e):
    return str(e) or type(e).__name__
def _failed(e: BaseException, doc_id: str) -> dict:
    result = {"error": f"doc edit failed: {_describe(e)}", "docId": doc_id}
    return result  # error: TFH401
@mcp.tool()
def edit_doc(docs, doc_id, text):
    try:
        return docs.edit(doc_id, text)
    except Exception as e:
        return _failed(e, doc_id)
""",
        """\
from typing import Optional
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("tracker")
def _describe(e):
    return str(e) or type(e).__name__
def _handle_error(e: Exception, operation: str, context: Optional[dict] = None) -> dict:
    if isinstance(e, TimeoutError):
        return {"error": f"Timed out while {operation}", "code": "TIMEOUT"}
    return {"error": f"An unexpected error occurred while {operation}: {_describe(e)}", "code": "UNKNOWN_ERROR"}  # error: TFH401
@mcp.tool()
def close_issue(client, issue_id: int):
    try:
        return client.close(issue_id)
    except Exception as e:
        return _handle_error(e, "closing the issue")
""",
        # s49: a runner's handler stands in for the tool's result: the try binds `result` to the tool run's result,
        # the handler binds it to a tool's result object with the text, delivered after the handler (crabcode's and
        # zall's query loops, hexiel's session, neo-agnt's loop)
        """\
from .kernel import ToolResult, tool_message
async def run_block(tool, block, ctx, messages):
    try:
        result = await tool.call(block.input, ctx)
    except TimeoutError:
        result = ToolResult(result_for_model="the tool timed out", is_error=True)
    except Exception as e:
        result = ToolResult(result_for_model=f"Error executing tool: {e}", is_error=True)  # error: TFH401
    messages.append(tool_message(block.id, result.result_for_model))
""",
        # s49: a hand-written stdio MCP server's JSON-RPC error response under the catch-all code (ao's main loop,
        # gax's `_error(rid, INTERNAL_ERROR, str(e))`): sent, not returned
        """\
import json, sys
INTERNAL_ERROR = -32603
METHOD_NOT_FOUND = -32601
def _error(rid, code, message):
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}
def serve(handle):
    for line in sys.stdin:
        req = json.loads(line)
        rid = req.get("id")
        try:
            if req["method"] == "initialize":
                result = {"serverInfo": {"name": "demo"}, "capabilities": {"tools": {}}}
            elif req["method"] == "tools/call":
                result = handle(req["params"])
            else:
                raise LookupError(req["method"])
        except LookupError as e:
            sys.stdout.write(json.dumps(_error(rid, METHOD_NOT_FOUND, str(e))))
        except RuntimeError as e:
            sys.stdout.write(json.dumps(_error(rid, INTERNAL_ERROR, f"Internal error: {e}")))  # error: TFH401
        except Exception as e:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": str(e)}}))  # error: TFH401
""",
        """\
def run_tool():
    try:
        return g()
    except Exception as e:
        return str(e)  # error: TFH401
""",
        # s47: a parallel assignment binds each name to its own item (tinyharness's tool runner:
        # `output, failed = ToolOutput(f"error: {e}"), True` ... `return output, failed`)
        """\
async def execute(item, ctx):
    try:
        result = await item.tool.run(item.args, ctx)
    except Exception as e:
        output, failed = ToolOutput(f"error: {type(e).__name__}: {e}"), True
    else:
        output, failed = result, False
    return output, failed  # error: TFH401
""",
        # s46: a same-module helper building the tool's result (indusagi's `_failure`, a result method): the text
        # reaches the model through it, the same evidence as the constructor written in place
        """\
from .kernel import TextContentBlock, ToolResult
def _failure(message: str) -> ToolResult:
    return ToolResult(content=[TextContentBlock(text=message)], is_error=True)
async def _run_ls(args, ctx):
    try:
        entries = await ctx.fs.readdir(args["path"])
    except Exception as err:
        return _failure(f"Could not read the contents of {args['path']}: {err}")  # error: TFH401
    return _failure("empty") if not entries else "\\n".join(entries)
""",
        # s46: a runner's outcome built in a handler and handed where the try hands the tool's result (indusagi's
        # scheduler delivering to its mailbox): the model loop reads it back, though nothing is returned
        """\
async def run_one(runner, call, mailbox):
    try:
        result = await runner.run(call)
        mailbox.deliver(settled(call.id, result))
    except Exception as cause:
        mailbox.deliver(settled(call.id, ToolOutcome(id=call.id, output=str(cause), is_error=True)))  # error: TFH401
""",
        """\
class StepRunner:
    def _error_result(self, text):
        return ActionResult(error=text, success=False)
    def execute(self, step):
        try:
            return self.browser.run(step)
        except Exception as e:
            return self._error_result(str(e))  # error: TFH401
""",
        # s39: a constant catch-all code says only that it failed (hello-agents' ToolResponse.error, a result
        # class's failure factory): the kind is only in the text
        """\
from .errors import ToolErrorCode
INTERNAL_ERROR = "INTERNAL_ERROR"
def run_tool(p):
    try:
        return do(p)
    except TimeoutError as e:
        return ToolResponse.error(code=ToolErrorCode.INTERNAL_ERROR, message=f"failed: {str(e)}")  # error: TFH401
    except ValueError as e:
        return ToolResult(code=INTERNAL_ERROR, message=str(e))  # error: TFH401
    except Exception as e:
        return {"code": "error", "message": str(e)}  # error: TFH401
""",
        # s47: a classifier with one code for every failure types nothing, nor one whose codes are sentences; a
        # kind formatted into the text itself is still the text (the kind only named in it)
        """\
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("shell")
def _classify(exc):
    if isinstance(exc, TimeoutError):
        return {"code": "unknown_error", "message": str(exc)}
    return {"code": "unknown_error", "message": f"failed: {exc}"}
def _hint(exc):
    if isinstance(exc, TimeoutError):
        return "Try again later."
    return "Check the host name."
@mcp.tool()
def run(cmd: str) -> dict:
    try:
        return execute(cmd)
    except OSError as e:
        info = _classify(e)
        return {"code": info["code"], "message": info["message"]}  # error: TFH401
    except ValueError as e:
        return {"category": _hint(e), "message": str(e)}  # error: TFH401
    except Exception as e:
        return {"error": f"upstream failure ({e.kind}): {e}"}  # error: TFH401
""",
        # s43: the exception's own class name is no kind the program chose (homeassistant-mcp's intent tool,
        # lingtai's MCP servers): the model still reads the raw text
        """\
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("home")
@mcp.tool()
async def intent_handle(name: str) -> dict:
    try:
        return await client.handle(name)
    except Exception as e:
        return {"success": False, "error": str(e), "error_type": type(e).__name__}  # error: TFH401
@mcp.tool()
async def call(name: str) -> dict:
    try:
        return await client.call(name)
    except Exception as e:
        return {"status": "error", "message": f"failed: {e}", "type": e.__class__.__name__}  # error: TFH401
""",
        # s40: a positional argument types the failure only where it binds a kind: the signature's default catch-all,
        # a catch-all given positionally, a parameter that is not a kind, a literal that is a sentence
        """\
class MCPError:
    @staticmethod
    def tool_error(error_message, error_type="execution_error", hint=None):
        return {"error": True, "error_type": error_type, "message": error_message}
def run_tool(p):
    try:
        return do(p)
    except PermissionError as e:
        return MCPError.tool_error(str(e))  # error: TFH401
    except ConnectionError as e:
        return MCPError.tool_error(str(e), "execution_error")  # error: TFH401
    except ValueError as e:
        return MCPError.tool_error(str(e), "execution_error", "retry_error")  # error: TFH401
    except Exception as e:
        return ToolResult.error_result(str(e), "could not reach the server")  # error: TFH401
""",
        """\
def run_tool():
    try:
        return g()
    except ValueError as e:
        return f"Error: {e}"  # error: TFH401
    except KeyError as err:
        return {"ok": False, "error": repr(err)}  # error: TFH401 "e.g. Err(from_exception(err))"
    except OSError as exc:
        return None, "failed: %s" % exc  # error: TFH401
    except TypeError as exc:
        return "failed: {}".format(exc)  # error: TFH401
    except LookupError as exc:
        return exc.args[0]  # error: TFH401
""",
        """\
import traceback
def run_tool():
    try:
        return g()
    except Exception:
        return traceback.format_exc()  # error: TFH401 "e.g. `except ... as e:` and Err(from_exception(e))"
""",
        """\
def tool(x):
    try:
        return ToolResult(content=do(x))
    except Exception as e:
        return ToolResult(content=f"Error: {e}", is_error=True)  # error: TFH401
""",
        """\
def stream_tool():
    try:
        yield from work()
    except Exception as e:
        yield {"type": "error", "message": str(e)}  # error: TFH401
""",
        """\
def run_tool():
    try:
        result = g()
    except Exception as e:
        message = f"request failed: {e}"
        return {"error": message}  # error: TFH401
    return result
""",
        """\
from smullyan.runtime import Err
def run_tool():
    try:
        return g()
    except Exception as e:
        return Err(str(e))  # error: TFH401
""",
        """\
import json
def tool(x):
    try:
        return do(x)
    except Exception as e:
        return json.dumps({"error": str(e)})  # error: TFH401
    except ValueError as e:
        return ActionResult(error=str(e).strip())  # error: TFH401
""",
        # the handler sets the text, then only may replace it with the API's own message: the text may be returned
        """\
def query_tool(http, url):
    try:
        return {"ok": True, "data": http.get(url).json()}
    except Exception as e:
        detail = str(e)
        if getattr(e, "response", None) is not None:
            try:
                detail = e.response.json()["message"]
            except ValueError:
                pass
        return {"ok": False, "error": f"API error: {detail}"}  # error: TFH401
""",
        # the filled list is held by reference in the dict that is returned
        """\
def check_tool(script, path):
    warnings = []
    result = {"ok": True, "warnings": warnings}
    try:
        save(path, script)
    except OSError as e:
        warnings.append(f"Failed to save the report: {e}")
    return result  # error: TFH401
""",
        # text kept in a variable and returned after the handler
        """\
async def scrape_tool(page, url):
    try:
        results = await page.content()
    except Exception as e:
        results = f"Error: {e}"
    return results  # error: TFH401
""",
        """\
def use_tool(tool):
    try:
        return tool.run()
    except Exception as e:
        error = getattr(e, "message", str(e))
        return error  # error: TFH401
""",
        # a broad handler is not a parser's format-repair loop
        """\
def step_tool(self, m):
    try:
        return self.tool(m)
    except Exception as e:
        return AgentOutput(retry_messages=[ChatMessage(role="user", content=str(e))])  # error: TFH401
""",
        # text through a same-module helper (a method, and a function)
        """\
import json
class Tool:
    def _error_json(self, message):
        return json.dumps({"status": "error", "message": message})
    def run(self, q):
        try:
            return self.client.search(q)
        except Exception as e:
            return self._error_json(str(e))  # error: TFH401
def make_error(err):
    return {"error": str(err)}
def call_tool(h):
    try:
        return h()
    except Exception as e:
        return make_error(e)  # error: TFH401
""",
        # a helper that keeps the text in a local name before returning it
        """\
def describe(error, limit=500):
    text = str(error) or type(error).__name__
    if len(text) > limit:
        text = text[:limit] + "..."
    return text
def click_tool(device, x, y):
    try:
        device.tap(x, y)
    except Exception as e:
        return f"Failed to tap: {describe(e)}"  # error: TFH401
""",
        # a container filled with the text, then returned
        """\
def run_tool(items, fetch):
    results = []
    for it in items:
        try:
            results.append(fetch(it))
        except Exception as e:
            results.append(f"error: {e}")
    return results  # error: TFH401
def call_tool(fetch):
    out = {"ok": False}
    try:
        out["data"] = fetch()
    except Exception as e:
        out["error"] = str(e)
    return out  # error: TFH401
async def h_tool(fetch):
    payload = {}
    try:
        await fetch()
    except Exception as e:
        payload.update(error=repr(e))
        return payload  # error: TFH401
""",
        # a container inside the returned one, and a normaliser the result passes through
        """\
from .replies import normalize_reply
def build_all_tool(specs, make):
    report = {"built": [], "skipped": 0}
    for spec in specs:
        try:
            report["built"].append(make(spec))
        except Exception as e:
            report["built"].append({"spec": spec, "error": f"could not build: {e}"})
    return report  # error: TFH401
def forward_tool(command, link):
    try:
        return link.send(command)
    except Exception as exc:
        return normalize_reply(Reply(ok=False, error=str(exc)).model_dump())  # error: TFH401
""",
        # side data does not hide the content: the model still reads `content`
        """\
from langchain_core.messages import ToolMessage
def screenshot(device, call_id):
    try:
        shot = device.capture()
    except Exception as e:
        return ToolMessage(tool_call_id=call_id, content=f"failed: {e}", artifact={"error": str(e)})  # error: TFH401 "failed: {e}"
    return ToolMessage(tool_call_id=call_id, content=shot)
""",
        # s41 (issue 24 D5): a helper returns the exception it caught as an item of a tuple; the caller unpacks it
        # and puts its text in the tool message
        """\
from langchain_core.messages import ToolMessage
def _invoke(fn, args):
    try:
        return fn(**args), None
    except Exception as e:
        return None, e
def run_tools(calls, tools, messages):
    for call in calls:
        out, err = _invoke(tools[call["name"]], call["args"])
        if err is not None:
            messages.append(ToolMessage(content=str(err), tool_call_id=call["id"]))  # error: TFH401 "str(err)"
        else:
            messages.append(ToolMessage(content=out, tool_call_id=call["id"]))
""",
        # messages a model reads, wherever they go: resolved framework types and the chat dicts
        """\
from langchain_core.messages import ToolMessage
def run_tools(calls, tools, messages):
    for call in calls:
        try:
            out = tools[call["name"]].invoke(call["args"])
        except Exception as e:
            messages.append(ToolMessage(content=str(e), tool_call_id=call["id"]))  # error: TFH401 "sends the model the exception as text (str(e))"
            continue
        messages.append(ToolMessage(content=out, tool_call_id=call["id"]))
def chat_step(tc, fn, history, items):
    try:
        history.append({"role": "tool", "tool_call_id": tc.id, "content": fn()})
    except Exception as err:
        history.append({"role": "tool", "tool_call_id": tc.id, "content": f"Error: {err}"})  # error: TFH401
        items.append({"type": "function_call_output", "call_id": tc.id, "output": str(err)})  # error: TFH401
""",
        # s44: a helper returns the failure's text beside a literal None (the success slot); the tool unpacks it and
        # answers with the text (opensre's RabbitMQ `_http_get`)
        """\
import httpx
from langchain_core.tools import tool
def _http_get(url):
    try:
        return httpx.get(url, timeout=10).json(), None
    except httpx.RequestError as err:
        return None, f"request failed: {err}"
@tool
def queue_backlog(url: str) -> dict:
    \"\"\"The queue's backlog.\"\"\"
    data, err = _http_get(url)
    if err is not None:
        return {"available": False, "error": err}  # error: TFH401
    return {"available": True, "backlog": data["messages"]}
""",
        # s53: the same helper's text, then the name given a new value by another unpacking (the helper's own
        # sentences): only the first `return err` hands on the exception's text
        """\
import httpx
from langchain_core.tools import tool
def _http_get(url):
    try:
        return httpx.get(url, timeout=10).json(), None
    except httpx.RequestError as err:
        return None, f"request failed: {err}"
def _pick(data, name):
    if name not in data:
        return None, f"no queue named {name}"
    return data[name], None
@tool
def queue_backlog(url: str, name: str) -> str:
    \"\"\"The queue's backlog.\"\"\"
    data, err = _http_get(url)
    if err:
        return err  # error: TFH401
    queue, err = _pick(data, name)
    if err:
        return err
    return str(queue["messages"])
""",
        # an MCP server turning any tool exception into the tool's result
        """\
from mcp import types
async def call_tool(name, args):
    try:
        return await TOOLS[name](**args)
    except Exception as e:
        return types.CallToolResult(isError=True, content=[types.TextContent(type="text", text=str(e))])  # error: TFH401
""",
        # s40: a hand-written MCP server's tools/call result in its wire form (devmcp), sent wherever it goes; a dict
        # whose isError is not True is no such result
        """\
class Server:
    async def handle_tool_call(self, id_, name, args):
        try:
            result = await TOOLS[name](**args)
        except Exception as exc:
            result = {"isError": True, "content": [{"type": "text", "text": f"tool {name} raised: {exc}"}]}  # error: TFH401
        await self.connection.send_response(id_, result=result)
    async def status(self, id_):
        try:
            return await self.fetch()
        except Exception as exc:
            self.last = {"isError": False, "detail": str(exc)}
""",
        # a return after the handler: the variable holds the exception itself, or an error object a helper returned
        """\
from langchain_core.messages import ToolMessage
def fetch_tool(client, url):
    error = None
    try:
        return client.get(url)
    except Exception as e:
        error = e
    return f"fetch failed: {error}"  # error: TFH401
class Runner:
    def _invoke(self, tool, args):
        try:
            return tool(**args)
        except Exception as e:
            return e
    def step(self, tool, args, history):
        result = self._invoke(tool, args)
        history.append(ToolMessage(content=str(result), tool_call_id="x"))  # error: TFH401
""",
        # a code-running tool whose sandbox SDK fails: the infrastructure's error, not the program's output
        """\
from e2b_code_interpreter import Sandbox
class RunCodeTool:
    def __init__(self):
        self.sandbox = Sandbox()
    def run_code(self, code):
        try:
            return self.sandbox.run_code(code).logs
        except Exception as e:
            return {"stderr": str(e), "exit_code": -1}  # error: TFH401
async def execute_code_tool(sandbox, code):
    try:
        return await sandbox.run_code(code)
    except Exception as e:
        return f"Error: {e}"  # error: TFH401
""",
        # the exception object in a tool's result: the framework turns it into the message text
        """\
from langchain_core.tools import BaseTool, tool
class TavilySearch(BaseTool):
    def _run(self, query):
        try:
            return self.api_wrapper.raw_results(query)
        except Exception as e:
            return {"error": e}  # error: TFH401
@tool
def lookup(key: str):
    try:
        return STORE.get(key)
    except Exception as e:
        return e  # error: TFH401
""",
        # the handler's own return is reported; the success path's return after it is not
        """\
def generate_tool(state, chain):
    try:
        answer = chain.invoke(state)
    except Exception as e:
        state.update({"answer": f"Error: {e}"})
        return state  # error: TFH401
    state.update({"answer": answer})
    return state
""",
        # s39: a module that registers tools on a server imported from another module (odoo-mcp's
        # ``tools_diagnostics.py``: ``from .server_core import mcp``) is not a report whatever its names say; its
        # helpers feed the tools too
        """\
from .server_core import mcp
def diagnostics_summary(model):
    try:
        return {"ok": True, "fields": load(model)}
    except Exception as e:
        return {"success": False, "error": str(e)}  # error: TFH401
@mcp.tool(description="Diagnose access to a model")
def diagnose_access(model: str):
    try:
        return run_diagnostics(model)
    except Exception as e:
        return {"success": False, "tool": "diagnose_access", "error": str(e)}  # error: TFH401
""",
        # s39: a factory named for a failed result (code-puppy's ``AskUserQuestionOutput.error_response``, a module
        # function ``tool_error``) in a module with tool evidence carries the text
        """\
from .models import AskUserQuestionOutput, tool_error
class QuestionToolkit:
    def ask_user_question(self, questions):
        try:
            return AskUserQuestionOutput(answers=pick(questions))
        except OSError as e:
            return AskUserQuestionOutput.error_response(f"Interaction error: {e!s}")  # error: TFH401
    def confirm(self, prompt):
        try:
            return pick_one(prompt)
        except OSError as e:
            return tool_error(f"Interaction error: {e}")  # error: TFH401
""",
        # a report module still reports a message a model reads, and a tool
        """\
import gradio as gr
from langchain_core.messages import ToolMessage
from langchain_core.tools import tool
class EvaluationHarness:
    def step(self, tools, call, history):
        try:
            out = tools[call["name"]](**call["args"])
        except Exception as e:
            history.append(ToolMessage(content=f"failed: {e}", tool_call_id=call["id"]))  # error: TFH401
            return history
        history.append(ToolMessage(content=out, tool_call_id=call["id"]))
        return history
@tool
def service_health(name: str):
    try:
        return STATUS.fetch(name)
    except Exception as e:
        return f"Error: {e}"  # error: TFH401
""",
        # a record named for an evaluation is still a tool's result when a tool returns it; a step's result is not
        # an evaluation's record
        """\
from langchain_core.tools import tool
from gradekit import EvaluationResult, StepResult
@tool
def grade_answer(answer: str):
    try:
        return EvaluationResult(score=score(answer))
    except Exception as exc:
        return EvaluationResult(failed=True, detail=str(exc))  # error: TFH401
def step_tool(task):
    try:
        return StepResult(out=run(task))
    except Exception as exc:
        return StepResult(failed=True, detail=str(exc))  # error: TFH401
""",
        # printed, and also put into the record the caller hands on (a prompt's context)
        """\
def search_docs_tool(query, search):
    try:
        return {"docs": search(query)}
    except Exception as e:
        return {"docs": [], "error": str(e)}  # error: TFH401
def collect(query, search):
    docs = search_docs_tool(query, search)
    print(f"found {len(docs['docs'])} docs")
    context = {"documentation": docs}
    return context
""",
        # printed only by the module's demo main(): where importers send it is not known
        """\
from llm import complete
async def explain_tool(messages):
    try:
        return await complete(messages)
    except Exception as e:
        return {"error": str(e)}  # error: TFH401
async def main():
    print(await explain_tool([{"role": "user", "content": "hi"}]))
""",
        # printed in one place, but also returned to a caller the module does not name
        """\
async def check_device_tool(adb):
    try:
        return {"ok": True, "message": await adb.serial()}
    except Exception as e:
        return {"ok": False, "message": f"not found: {e}"}  # error: TFH401
async def run_checks(adb):
    r = await check_device_tool(adb)
    print(r["message"])
async def device_state(adb):
    r = await check_device_tool(adb)
    return r
""",
        # positive evidence without a tool decorator: a class named for tools, a function named for calling one
        """\
class FileToolkit:
    def _read(self, path):
        try:
            return path.read_text()
        except OSError as e:
            return f"Error reading {path}: {e}"  # error: TFH401
async def call_tool(session, name, args):
    try:
        return await session.call(name, args)
    except Exception as e:
        return {"error": str(e)}  # error: TFH401
async def upload(page, selector, path):
    try:
        await page.set_input_files(selector, path)
    except Exception as e:
        return ActionResult(error=f"upload failed: {e}")  # error: TFH401
""",
        # s41: ... but the content of a content_and_artifact tool is read
        """\
from langchain_core.tools import tool

@tool(response_format="content_and_artifact")
def correlation_funnel(data):
    try:
        return "Correlation funnel computed.", {"plot": render(data)}
    except Exception as e:
        return f"failed: {e}", {}  # error: TFH401
""",
        # s41: a function that runs a tool in a try it handles, or whose handler builds a tool's error, returns
        # the tool's answer to the calling agent wherever it sits (neuro-san's coded-tool activation, nova-act's
        # program runner)
        """\
class Activation:
    async def attempt_invoke(self, coded_tool, args):
        try:
            retval = await coded_tool.async_invoke(args)
        except Exception as exception:
            retval = f"Error: {str(exception)}"
        return retval  # error: TFH401
class Runner:
    def run_calls(self, calls):
        results = []
        for call in calls:
            error = None
            try:
                call.target(**call.kwargs)
            except Exception as e:
                error = ActToolError(message=f"{type(e).__name__}: {e}")
            results.append(CallResult(call=call, error=error))
        return Outcome(results=results)  # error: TFH401
""",
        # s46: a try that calls a callable with a tool's arguments unpacked runs a tool, whatever the callable is
        # called (mini-code-cli's runner: `func(**tool_params)`; batch 19's misses)
        """\
def call_function_with_timeout(func, tool_params, name):
    try:
        return func(**tool_params)
    except Exception as e:
        return f"Error: {name} raised an error: {e}"  # error: TFH401
def run_one(handler, call):
    try:
        result = handler(*call.tool_args)
    except Exception as e:
        result = str(e)
    return result  # error: TFH401
""",
        # s46: a handler that hands its text to a call announcing a tool's result says the text is the tool's answer
        # (spidy-agent's intent router: the result is the ReAct loop's observation; batch 19's misses)
        """\
def dispatch(intent, query):
    try:
        return handle(query)
    except Exception as exc:
        res = f"Sorry, I ran into an error: {exc}"
        AgentEventBus.emit_tool_result(intent, res)
        return res  # error: TFH401
""",
        # s45: text a handler stored on the instance, returned by the tool later (issue 24 item 2)
        """\
from langchain_core.tools import BaseTool
class SearchTool(BaseTool):
    def _fetch(self, q):
        try:
            return self.client.get(q)
        except Exception as e:
            self.last_error = f"search failed: {e}"
            return None
    def _run(self, q):
        out = self._fetch(q)
        if out is None:
            return {"error": self.last_error}  # error: TFH401
        return out
""",
        # a helper the text goes into after the handler (arbor-agent's executor summary: batch 15)
        """\
def _summary(node_id, propagation_result):
    return f"## {node_id}: propagation: {propagation_result}"
async def run_executor_tool(tree, node_id):
    propagation_result = ""
    try:
        propagation_result = await propagate(tree, node_id)
    except Exception as e:
        propagation_result = f"Propagation failed: {e}"
    return _summary(node_id=node_id, propagation_result=propagation_result)  # error: TFH401
""",
        # a redaction masks secrets in the text and keeps the rest of it (portainer-mcp, askui: batch 15)
        """\
from .errors import error_response, redact_secrets
def service_tool(client, name):
    try:
        return client.get(f"/services/{name}")
    except Exception as exc:
        return error_response("Internal error", redact_secrets(str(exc)))  # error: TFH401
class ToolCollection:
    def run_tool(self, tool, block):
        try:
            return ToolResult(content=tool(**block.input), tool_use_id=block.id)
        except Exception as e:
            error_message = getattr(e, "message", str(e))
            return ToolResult(  # error: TFH401
                content=self._vault.redact(f"Tool raised an unexpected error: {error_message}"),
                is_error=True,
                tool_use_id=block.id,
            )
""",
        # s51: the same wrapper placed below the registering decorator is what the server runs: reported
        """\
import functools
from mcp.server.fastmcp import FastMCP
server = FastMCP("nas")
def _safe_tool(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        try:
            return await fn(*args, **kwargs)
        except Exception as e:
            return {"error": str(e)}  # error: TFH401
    return wrapper
@server.tool()
@_safe_tool
async def nas_mkdir(path: str):
    return await client.mkdir(path)
""",
        # s52: a helper adding only a catch-all code to the dict holding the text types nothing: reported at its caller
        """\
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("render")
def _fail(exc: Exception) -> dict:
    out = {"ok": False, "error": str(exc)}
    out["code"] = "INTERNAL_ERROR"
    return out
@mcp.tool()
def render(scene: str) -> dict:
    try:
        return client.submit(scene)
    except Exception as exc:
        return _fail(exc)  # error: TFH401
""",
        # s51: a formatter one caller raises and another returns: its text reaches the tool's answer, reported
        """\
from mcp.server.fastmcp import FastMCP
from .errors import SafeToolError
mcp = FastMCP("practice")
def _describe(exc):
    return str(exc) or type(exc).__name__
def _safe_tool_error(exc: Exception):
    return SafeToolError(f"Actionstep request failed: {_describe(exc)}")  # error: TFH401
def _check_session():
    try:
        client.ping()
    except Exception as e:
        raise _safe_tool_error(e) from None
@mcp.tool()
def get_user(user_id: str):
    try:
        return client.get_user(user_id)
    except Exception as e:
        return {"error": _safe_tool_error(e)}
""",
        # s55: the same refusal beside a call that raises the class itself (`int(...)`, `json.loads`, `p.relative_to`): the
        # text may be the library's, reported
        """\
import os
import subprocess
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("shell")
ROOT = "/srv"
def _workdir(cwd, depth):
    full = os.path.normpath(os.path.join(ROOT, cwd))
    if not full.startswith(ROOT) or full.count("/") > int(depth):
        raise ValueError(f"cwd {cwd} is outside the workspace")
    return full
@mcp.tool()
def run(command: str, cwd: str, depth: str):
    try:
        workdir = _workdir(cwd, depth)
    except ValueError as e:
        return str(e)  # error: TFH401
    return subprocess.run(command, shell=True, cwd=workdir, capture_output=True, text=True).stdout
""",
    ]

    models = (ErrorModel, ExceptionText)

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self.text: ExceptionText = ctx.models[ExceptionText]
        self._inside: list[cst.CSTNode] = []  # reported returns, yields and messages being visited
        self._callees: dict[int, frozenset[str]] = {}

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        """Handlers whose body returns, yields, assigns or sends the exception (or formats anything), and the helpers it goes through."""
        return screen_lines(screen, knowledge)

    def _check(self, holder: cst.CSTNode, value: cst.BaseExpression | None, verb: str) -> bool:
        if value is None or self._inside:
            return False
        found = self.text.leak(value)
        return found is not None and self._report(holder, found, verb)

    def _report(self, holder: cst.CSTNode, found: cst.CSTNode, verb: str) -> bool:
        text = source_of(found).strip()
        if len(text) > 40:
            text = text[:37] + "..."
        # name only an exception the handler binds (a bare `except:` binds none)
        exc = self.model.exception_names()
        fix = f"Err(from_exception({sorted(exc)[0]}))" if exc else "`except ... as e:` and Err(from_exception(e))"
        self.report(holder, verb=verb, text=text, fix=fix)
        return True

    def _enter(self, node: cst.CSTNode, reported: bool) -> None:
        if reported:
            self._inside.append(node)

    def _leave(self, node: cst.CSTNode) -> None:
        if self._inside and self._inside[-1] is node:
            self._inside.pop()

    def visit_Return(self, node: cst.Return) -> None:
        self._enter(node, self._check(node, node.value, "returns"))

    def leave_Return(self, node: cst.Return) -> None:
        self._leave(node)

    def visit_Yield(self, node: cst.Yield) -> None:
        if isinstance(node.value, cst.BaseExpression):
            self._enter(node, self._check(node, node.value, "yields"))

    def leave_Yield(self, node: cst.Yield) -> None:
        self._leave(node)

    def _message(self, node: cst.Call | cst.Dict) -> None:
        """A message the model reads (``ToolMessage(content=str(e))``, ``{"role": "tool", ...}``), wherever it goes."""
        if self._inside or self._jsonrpc_error(node) or not self.text.message_construct(node) or self.text.reprompt(node):
            return
        found = self.text.message_leak(node)
        if found is not None and self._report(node, found, "sends the model"):
            self._inside.append(node)

    def _jsonrpc_error(self, node: cst.Call | cst.Dict) -> bool:
        """s49: a hand-written MCP server's JSON-RPC error response, or its builder's call (:mod:`.jsonrpc`): the
        text of its message is reported where its code is the protocol's catch-all. True where ``node`` is one."""
        ctx = self.ctx
        parts = dict_parts(node) if isinstance(node, cst.Dict) else call_parts(node, ctx.screen, ctx.names.lookup)
        if parts is None or not serves_mcp(ctx.screen, ctx.knowledge):
            return False
        code, texts = parts
        if not self.text.active():
            return True
        if isinstance(code, cst.BaseExpression) and isinstance(number := jsonrpc_number(code), int):
            code = number
        if isinstance(code, int) and not catch_all_number(code, ctx.knowledge) \
                or isinstance(code, cst.BaseExpression) and not self.text.catch_all_code(code):
            return True  # the code says what kind of failure it is
        exc = self.text.exceptions()
        for text in texts:
            found = self.text.text_of(text, exc)
            if found is not None and self._report(node, found, "sends the model"):
                self._inside.append(node)
                break
        return True

    def visit_Assign(self, node: cst.Assign) -> None:
        """s49: ``result = ToolResult(result_for_model=f"...{e}")`` in a runner's handler, where its ``try`` binds
        ``result`` to the tool run's result (:mod:`.standin`): the value takes the tool's result's place."""
        handler = self.ctx.names.handler
        if self._inside or handler is None or not self.text.tool_result(node.value) \
                or not stands_in(node, handler.statement, self.ctx.knowledge):
            return
        value = node.value.expression if isinstance(node.value, cst.Await) else node.value
        found = self.text.message_leak(value) if isinstance(value, cst.Call) else None
        if found is not None and self._report(node, found, "hands the tool's caller"):
            self._inside.append(node)

    def leave_Assign(self, node: cst.Assign) -> None:
        self._leave(node)

    def _delivered(self, node: cst.Call) -> None:
        """s46: a tool's result object a handler builds with the text and hands where its ``try`` hands the result
        of the work (``mailbox.deliver(_settled(call.id, ToolOutcome(output=str(cause), is_error=True)))`` beside
        ``result = await self._runner.run(call)``, ``mailbox.deliver(_settled(call.id, result))``): a runner's
        outcome, read back by the model loop as the success one is, though the handler returns nothing."""
        handler = self.ctx.names.handler
        if self._inside or handler is None or source_of(node.func) not in self._try_callees(handler.statement):
            return
        for n in walk_in_scope(node):
            if n is not node and isinstance(n, cst.Call) and self.text.tool_result(n):
                found = self.text.message_leak(n)
                if found is not None and self._report(node, found, "hands the tool's caller"):
                    self._inside.append(node)
                return

    def _try_callees(self, statement: cst.CSTNode) -> frozenset[str]:
        """The callees a ``try`` body hands a value that is no literal (``mailbox.deliver(...)``), once per ``try``."""
        key = id(statement)
        if key not in self._callees:
            body = getattr(statement, "body", None)
            self._callees[key] = frozenset(
                source_of(n.func) for n in (walk_in_scope(body) if body is not None else ())
                if isinstance(n, cst.Call) and any(not isinstance(a.value, cst.BaseString | cst.BaseNumber) for a in n.args)
            )
        return self._callees[key]

    def visit_Call(self, node: cst.Call) -> None:
        self._message(node)
        self._delivered(node)

    def leave_Call(self, node: cst.Call) -> None:
        self._leave(node)

    def visit_Dict(self, node: cst.Dict) -> None:
        self._message(node)

    def leave_Dict(self, node: cst.Dict) -> None:
        self._leave(node)
