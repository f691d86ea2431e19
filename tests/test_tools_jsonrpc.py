"""``smullyan tools`` (s52): a hand-written MCP server, recognised by what it answers (a branch taken for the JSON-RPC
method ``"tools/call"``): each string its answer compares the called name with (``params.get("name")``, followed into
the functions and methods the branch hands the name or the params to) is a tool, and each key of a module-level
``{"name": fn}`` table it looks the called name up in (``linter/tools/jsonrpc.py``). Shapes of plate-core,
swarmly, monag, sovereign-fleet (batch 24), ao-orchestrator, flywheel-relay (batch 21), pxx-orchestrator (batch 23)."""

from __future__ import annotations

from tools_support import source_rows

BRANCHES = "tools/call: if on the called name"
TABLE = "tools/call: table[name]"

# plate-core: the method branch hands the params to a module function binding the called name
PARAMS_HANDED = '''
import json, sys

def _write(obj):
    sys.stdout.write(json.dumps(obj))

def _handle_tools_call(req_id, params):
    name = params.get("name")
    args = params.get("arguments", {}) or {}
    try:
        if name == "plate_health":
            payload = get_health(args.get("repo"))
        elif name == "plate_epic_status":
            payload = get_epic_status(args.get("repo"))
        elif name in {"plate_agents", "plate_skills"}:
            payload = list_things(name)
        else:
            raise ValueError(f"unknown tool {name}")
        _write({"id": req_id, "result": payload})
    except Exception as exc:
        _write({"id": req_id, "error": str(exc)})

def run():
    for line in sys.stdin:
        req = json.loads(line)
        method = req.get("method")
        if method == "tools/list":
            _write({"tools": []})
        elif method == "tools/call":
            _handle_tools_call(req.get("id"), req.get("params") or {})
'''

# swarmly: a method handed the name itself; ao-orchestrator: one function hands it on to another
NAME_HANDED = '''
class Server:
    def _dispatch(self, method, params):
        if method == "tools/list":
            return {"tools": TOOLS}
        if method == "tools/call":
            return self._call(str(params.get("name")), params.get("arguments") or {})
        raise KeyError(method)

    def _call(self, name, a):
        return _answer(name, a)

def _answer(name, args):
    if name == "a2a_next":
        return next_task()
    if name == "a2a_post":
        return post(args)
    if name == "a2a_inbox" or name == "a2a_tasks":
        return view(name)
    raise KeyError(name)
'''

# sovereign-fleet: a table of handlers, one entry a local factory's function
TABLED = '''
def tool_dispatch(args):
    return post("/dispatch", args)

def tool_list(args):
    return get("/tasks")

def _action(verb):
    def run(args):
        return post(f"/tasks/{args['id']}/{verb}", {})
    return run

HANDLERS = {
    "fleet_dispatch_task": tool_dispatch,
    "fleet_list_tasks": tool_list,
    "fleet_approve_task": _action("approve"),
}

def handle(req):
    method, params = req.get("method"), req.get("params") or {}
    if method == "tools/call":
        handler = HANDLERS.get(params.get("name"))
        if handler is None:
            return {"error": "unknown tool"}
        return {"result": handler(params.get("arguments") or {})}
'''


def test_a_tools_call_answer_s_branches_on_the_name_in_the_params_handed_on_are_tools() -> None:
    assert source_rows(PARAMS_HANDED) == [
        ("plate_agents", "dispatch", BRANCHES),
        ("plate_epic_status", "dispatch", BRANCHES),
        ("plate_health", "dispatch", BRANCHES),
        ("plate_skills", "dispatch", BRANCHES),
    ]


def test_the_called_name_is_followed_through_the_functions_it_is_handed_to() -> None:
    assert source_rows(NAME_HANDED) == [
        ("a2a_inbox", "dispatch", BRANCHES),
        ("a2a_next", "dispatch", BRANCHES),
        ("a2a_post", "dispatch", BRANCHES),
        ("a2a_tasks", "dispatch", BRANCHES),
    ]


def test_a_table_a_tools_call_answer_looks_the_name_up_in_names_a_tool_per_key() -> None:
    assert source_rows(TABLED) == [
        ("fleet_approve_task", "dispatch", TABLE),
        ("fleet_dispatch_task", "dispatch", TABLE),
        ("fleet_list_tasks", "dispatch", TABLE),
    ]


def test_without_a_tools_call_method_the_same_branches_are_no_tools() -> None:
    # the same code answering another method (a REPL's commands, a CLI's subcommands): no tool
    assert source_rows(PARAMS_HANDED.replace('"tools/call"', '"commands/run"')) == []
    assert source_rows(NAME_HANDED.replace('"tools/call"', '"commands/run"')) == []
    assert source_rows(TABLED.replace('"tools/call"', '"commands/run"')) == []


def test_branches_on_another_value_than_the_called_name_are_no_tools() -> None:
    # a branch on another item of the params (``params.get("mode")``) is not on the called name
    other = PARAMS_HANDED.replace('name = params.get("name")', 'name = params.get("mode")')
    assert source_rows(other) == []
