"""TFH401-TFH403 decide from where the value goes (issue 24), and ``classify_call`` asks ``reaches_outside`` first.

Each test lints a small module twice, changing only what the rule is meant
to read (an import, the path the step runs on, the package a call resolves
to), so the finding's presence is due to that one fact.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst
import pytest

from smullyan.linter import effects
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.linter.knowledge import Knowledge
from smullyan.linter.names import Names


# a module of a tools package: TFH401 reports a helper only where something names it for tools
TOOLS = "pkg/tools/mod.py"


def _codes(src: str, select: str, path: str = "mod.py") -> list[tuple[int, str]]:
    findings = lint_source(textwrap.dedent(src), path, Config.default().with_overrides(select=[select]))
    return [(f.line, f.code) for f in findings]


# ---------------------------------------------------------------- TFH401: messages a model reads


MESSAGE = """\
{imports}
def run_tool(tool, call, messages):
    try:
        out = tool.invoke(call["args"])
    except Exception as e:
        messages.append(ToolMessage(content=str(e), tool_call_id=call["id"]))
        return
    messages.append(ToolMessage(content=out, tool_call_id=call["id"]))
"""


@pytest.mark.parametrize(
    "imports",
    [
        "from langchain_core.messages import ToolMessage",
        "from langchain_core.messages.tool import ToolMessage",
        "import langchain_core.messages as lc\nToolMessage = lc.ToolMessage",
    ],
)
def test_a_framework_tool_message_is_read_through_the_imports(imports: str) -> None:
    assert _codes(MESSAGE.format(imports=imports), "TFH401") == [(imports.count("\n") + 6, "TFH401")]


def test_a_class_that_is_only_named_like_a_tool_message_is_not_one() -> None:
    local = "class ToolMessage:\n    def __init__(self, **kw):\n        self.kw = kw"
    assert _codes(MESSAGE.format(imports=local), "TFH401") == []


@pytest.mark.parametrize(
    ("message", "found"),
    [
        ('{"role": "tool", "content": f"Error: {e}"}', True),
        ('{"type": "function_call_output", "call_id": c, "output": str(e)}', True),
        ('{"role": "user", "content": f"Error: {e}"}', False),  # not a tool's answer: the text is not returned
        ('{"role": "tool", "content": type(e).__name__}', False),
    ],
)
def test_chat_dicts(message: str, found: bool) -> None:
    src = f"""\
    def step(fn, history, c):
        try:
            history.append(fn())
        except Exception as e:
            history.append({message})
    """
    assert _codes(src, "TFH401") == ([(5, "TFH401")] if found else [])


def test_format_repair_is_silent_only_around_a_parse_in_memory() -> None:
    local = """\
    import json
    def parse_args(call):
        try:
            return json.loads(call.arguments)
        except json.JSONDecodeError as e:
            return f"Invalid JSON arguments: {e}"
    """
    remote = """\
    import json
    import requests
    def fetch(url):
        try:
            return json.loads(requests.get(url, timeout=5).text)
        except json.JSONDecodeError as e:
            return f"Invalid JSON from the service: {e}"
    """
    assert _codes(local, "TFH401", TOOLS) == []
    assert _codes(remote, "TFH401", TOOLS) == [(7, "TFH401")]


def test_code_run_in_process_is_the_product_a_sandbox_sdk_is_infrastructure() -> None:
    in_process = """\
    def run_python(code, ns):
        try:
            exec(code, ns)
        except Exception as e:
            return f"Error: {e}"
    """
    sandbox = """\
    from e2b_code_interpreter import Sandbox
    def run_python(code):
        try:
            return Sandbox().run_code(code)
        except Exception as e:
            return f"Error: {e}"
    """
    assert _codes(in_process, "TFH401", TOOLS) == []
    assert _codes(sandbox, "TFH401", TOOLS) == [(6, "TFH401")]


def test_returns_after_the_handler_count_through_variables_only() -> None:
    src = """\
    def f(client):
        error = None
        try:
            value = client.get()
        except Exception as e:
            error = e
        if error is not None:
            return str(error)
        return str(value)
    """
    assert _codes(src, "TFH401", TOOLS) == [(8, "TFH401")]


def test_a_discriminator_makes_the_text_a_detail() -> None:
    src = """\
    def f(client):
        try:
            return client.get()
        except Exception as e:
            return {{"error": str(e){extra}}}
    """
    assert _codes(src.format(extra=""), "TFH401", TOOLS) == [(5, "TFH401")]
    assert _codes(src.format(extra=', "status": e.status_code'), "TFH401", TOOLS) == []
    assert _codes(src.format(extra=', "error_type": "rate_limited"'), "TFH401", TOOLS) == []
    # s43: the exception's own class name is no kind the program chose
    assert _codes(src.format(extra=', "error_type": type(e).__name__'), "TFH401", TOOLS) == [(5, "TFH401")]
    assert _codes(src.format(extra=', "type": e.__class__.__name__'), "TFH401", TOOLS) == [(5, "TFH401")]
    assert _codes(src.format(extra=', "type": "server_error"'), "TFH401", TOOLS) == []
    assert _codes(src.format(extra=', "type": "error"'), "TFH401", TOOLS) == [(5, "TFH401")]


# ---------------------------------------------------------------- TFH402 and TFH403


def test_an_existence_check_over_an_sdk_reports_false_on_any_error() -> None:
    src = """\
    from couchbase.cluster import Cluster
    class Store:
        def __init__(self):
            self._cb = Cluster("couchbase://x")
        def {name}(self, bucket):
            try:
                self._cb.buckets().get_bucket(bucket)
                return True
            except Exception:
                return False
    """
    assert _codes(src.format(name="bucket_exists"), "TFH402") == [(9, "TFH402")]
    assert _codes(src.format(name="is_bucket_reachable"), "TFH402") == []


def test_a_third_party_call_is_a_remote_read_only_with_evidence() -> None:
    src = """\
    import jiter
    import {module}
    def parse({arg}):
        try:
            return {call}({arg})
        except Exception:
            return None
    """
    assert _codes(src.format(module="jiter", call="jiter.from_json", arg="text"), "TFH402") == []
    # a converter of text or a local path works on this machine; handed a URL, it fetches
    assert _codes(src.format(module="markitdown", call="markitdown.convert", arg="text"), "TFH402") == []
    assert _codes(src.format(module="markitdown", call="markitdown.convert", arg="page_url"), "TFH402") == [(6, "TFH402")]


@pytest.mark.parametrize(
    "body, reported",
    [
        ("return open(path).read()", False),
        ("return pathlib.Path(path).read_text()", False),
        ("return subprocess.run(['git', 'status'], capture_output=True, timeout=5).stdout", False),
        ("return sqlite3.connect(path).execute('select 1').fetchall()", False),
        ("return requests.get(path, timeout=5).text", True),
        ("return self.db.fetch(path)", True),  # self.db: a redis client the class builds
        # s49: a name alone is no evidence (an object handed in); the project's own class is (its methods decide)
        ("return StoreClient.fetch(path)", True),
        ("return self.store.fetch(path)", False),
        ("return await self.loader.load(path)", False),  # an await alone says nothing about where
        ("return {'host': socket.gethostname()}", False),  # a module's function, not a socket's method
        # a program whose job is a remote service, its argv literal, concatenated or bound to a local name
        ("return subprocess.run(['kubectl', 'get', 'crds'], capture_output=True, timeout=5).stdout", True),
        ("return subprocess.run(['kubectl'] + ctx + ['get', 'crds'], timeout=5).stdout", True),
        ("cmd = ['gh', 'api', path]; return subprocess.check_output(cmd, timeout=5)", True),
        ("return subprocess.check_output('curl -s ' + path, shell=True, timeout=5)", True),
        ("return (await asyncio.create_subprocess_exec('aws', 's3', 'ls', path)).stdout", True),
        ("return subprocess.run(['git', 'ls-remote', path], timeout=5).stdout", True),
        # ... its local setup, its version, a local program
        ("return subprocess.run(['kubectl', 'config', 'current-context'], timeout=5).stdout", False),
        ("return subprocess.run(['helm', '--version'], timeout=5).stdout", False),
        ("return subprocess.run(['git', 'remote', 'get-url', 'origin'], timeout=5).stdout", False),
        ("return subprocess.run(['kind', 'version'], timeout=5).stdout", False),
        ("cmd = ['ps', '-ef']; return subprocess.check_output(cmd, timeout=5)", False),
        # a known remote client's API namespace, through the object the class was given
        ("return await self.es.indices.get(index=path)", True),
        ("return await self.parser.indices.get(index=path)", False),
        # a client method run by a worker thread is a call of it; a local helper is not
        ("return await asyncio.to_thread(self._client.get_collection, name=path)", True),
        ("return await asyncio.get_running_loop().run_in_executor(None, self.db.fetch, path)", True),
        ("return await asyncio.to_thread(lambda: self.db.fetch(path))", True),
        ("return await asyncio.to_thread(self._parse, path)", False),
    ],
)
def test_tfh402_reports_a_remote_read_not_local_work(body: str, reported: bool, tmp_path: Path) -> None:
    # linted as a module of a package of its own, so the checkout around the test run is not read as the project
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    src = f"""\
    import asyncio, pathlib, socket, sqlite3, subprocess, chromadb, redis
    import requests
    from elasticsearch import AsyncElasticsearch
    from .stores import StoreClient
    class Reader:
        def __init__(self, es: AsyncElasticsearch, parser: Parser, store):
            self.es = es; self.db = redis.Redis(); self._client = chromadb.HttpClient(); self.store = store
            self.parser = parser
        async def read(self, path, ctx):
            try:
                {body}
            except Exception:
                return None
    """
    assert (_codes(src, "TFH402", str(tmp_path / "app" / "mod.py")) == [(12, "TFH402")]) is reported


@pytest.mark.parametrize(
    "argv, remote",
    [
        (["kubectl", "get", "pods"], True),
        (["kubectl", "--context", "prod", "get", "pods"], True),
        (["/usr/local/bin/gh", "api", "repos/x/y"], True),
        (["kubectl"], True),  # the rest built at run time: kubectl's job is the cluster
        (["git", "fetch", "origin"], True),
        (["kubectl", "config", "view"], False),
        (["gcloud", "config", "get-value", "project"], False),
        (["aws", "--version"], False),
        (["git", "rev-parse", "HEAD"], False),
        (["docker", "stats", "--no-stream"], False),
        (["python", "-m", "pytest"], False),
        ([], False),
    ],
)
def test_remote_cli_names_programs_whose_job_is_a_remote_service(argv: list[str], remote: bool) -> None:
    assert Knowledge.remote_cli(argv) is remote


def test_a_predicate_about_a_connection_s_kind_is_not_a_reachability_check() -> None:
    src = """\
    import psycopg
    def {name}(conn: psycopg.Connection) -> bool:
        try:
            return conn.execute("select id()").fetchone()[0].endswith(".rs")
        except Exception:
            return False
    """
    assert _codes(src.format(name="is_read_only_connection"), "TFH402") == [(5, "TFH402")]
    assert _codes(src.format(name="check_connection"), "TFH402") == []


def test_a_compensation_runs_on_a_failure_path_housekeeping_does_not() -> None:
    housekeeping = """\
    def upsert(col, ids, rows):
        try:
            col.delete(ids)
        except Exception:
            pass
        col.insert(rows)
    """
    compensation = """\
    def upsert(col, ids, rows):
        col.insert(rows)
        try:
            col.commit()
        except Exception:
            try:
                col.delete(ids)
            except Exception:
                pass
            raise
    """
    assert _codes(housekeeping, "TFH403") == []
    assert _codes(compensation, "TFH403") == [(7, "TFH403")]


# ---------------------------------------------------------------- effects: one answer


def _calls(src: str, package: str | None = None) -> tuple[Names, list[cst.Call]]:
    module = cst.parse_module(textwrap.dedent(src))
    names = Names(module, package=package)
    calls: list[cst.Call] = []

    class _Collect(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            calls.append(node)

    module.visit(_Collect())
    return names, calls


CALLS = """\
import requests, stripe, boto3, jiter, socket, httpx
from llama_index.core.program.utils import repair
requests.post("https://x/charge", json={})
requests.get("https://x")
stripe.Charge.create(amount=1)
sns.publish(TopicArn="t", Message="m")
jiter.from_json(b"{}")
socket.gethostname()
httpx.Client().post("https://x/search")
Model.model_validate({})
repair("{")
"""


def test_classify_call_classifies_only_calls_that_reach_outside() -> None:
    knowledge = Knowledge.build()
    names, calls = _calls(CALLS, package="core.program")  # a namespace package's file: llama_index/core/program
    imports = frozenset({"requests", "stripe", "boto3", "jiter", "socket", "httpx", "llama_index"})
    classified = {cst.Module([]).code_for_node(c.func): effects.classify_call(c, names, knowledge, {}, imports) for c in calls}
    outside = {cst.Module([]).code_for_node(c.func): effects.reaches_outside(c, names, knowledge, imports) for c in calls}
    for func, cls in classified.items():
        if cls is not None:
            assert outside[func], func
    assert classified["requests.post"] is not None and classified["sns.publish"] is not None
    assert not outside["jiter.from_json"] and not outside["socket.gethostname"] and not outside["Model.model_validate"]
    assert not outside["repair"]  # the module's own package, seen through a namespace package
    assert outside["requests.get"] and outside["sns.publish"]


# ---------------------------------------------------------------- the docs' examples, linted as printed


@pytest.mark.parametrize("code", ["TFH401", "TFH402", "TFH403"])
def test_the_docs_example_is_reported_and_its_fix_is_not(code: str) -> None:
    import re

    from smullyan.linter.registry import all_rules

    rule = next(r for r in all_rules() if r.code == code)
    blocks = {
        section: re.search(r"```python\n(.*?)```", rule.docs[rule.docs.index(section):], re.S)
        for section in ("## Example", "## Use instead")
    }
    example, fixed = (b.group(1) if b is not None else "" for b in blocks.values())
    assert [c for _, c in _codes(example, code)] == [code]
    assert _codes(fixed, code) == []


def test_a_message_that_also_gets_the_exception_object_keeps_the_typed_failure() -> None:
    src = """\
    from llama_index.core.tools import ToolOutput
    def call(tool, args, outputs):
        try:
            outputs.append(tool(**args))
        except Exception as e:
            outputs.append(ToolOutput(content=str(e), tool_name="t", raw_input=args, raw_output=str(e){extra}))
    """
    assert _codes(src.format(extra=""), "TFH401") == [(6, "TFH401")]
    assert _codes(src.format(extra=", is_error=True, exception=e"), "TFH401") == []


# ---------------------------------------------------------------- TFH401: reports named by the module's path


REPORT = """\
def run_case(agent, case):
    try:
        return {"answer": agent.run(case)}
    except Exception as e:
        return {"answer": None, "error": str(e)}
"""


@pytest.mark.parametrize(
    ("path", "reported"),
    [
        ("agent/steps.py", False),  # nothing names it for tools: a helper nobody said a model reads
        ("agent/tools/steps.py", True),
        ("pkg/evaluation/runner.py", False),  # a package directory named for an evaluation harness
        ("pkg/eval_framework/beam/ingest.py", False),
        ("pkg/api/health.py", False),  # the module is a health check
        ("pkg/sandbox/diagnostics.py", False),
        # s57: a doctor command, a setup's or an installer's report, a conformance report (b20-25, 7 packages)
        ("lado_mcp/doctor.py", False),
        ("swarmly/swarm/mcp_setup.py", False),
        ("email_tool_mcp/setup_page.py", False),
        ("local_shell_mcp/remote_worker_installer.py", False),
        ("chipzen_mcp/conformance.py", False),
        ("pkg/tools/setup_steps.py", False),  # a whole word of the module's name, as `health`
        ("pkg/tools/setuptools_shim.py", True),  # a word, not a part of one
        ("pkg/tools/install.py", True),  # `install` is a tool's verb (an installer is not)
        ("pkg/tools/evaluate_expression.py", True),  # `evaluate` is a tool's word, not a report's
        ("home/me/test/project/tools/agent.py", True),  # a checkout's `test` directory says nothing
        ("pkg/cli/utils/gcp.py", False),  # a command-line program's subpackage: checks for the terminal
        ("pkg/_cli/_debug/bridge.py", False),
        ("pkg/cli_agent/tools/sdk_server.py", True),  # an agent driving a CLI: `cli` is only a word of the name
        ("cli_mcp_server/server.py", True),
        ("pkg/tools/cli.py", True),  # a module named `cli`, not its package directory
    ],
)
def test_tfh401_report_modules_by_path(path: str, reported: bool) -> None:
    assert bool(_codes(REPORT, "TFH401", path)) is reported


def test_tfh401_setup_words_keep_a_registered_tool() -> None:
    """s57: `setup`/`doctor` name a report only for what is not a tool: a tool so named still answers the model."""
    src = """\
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("x")
@mcp.tool()
def setup_workspace(path: str) -> str:
    try:
        return open(path).read()
    except OSError as e:
        return f"setup failed: {e}"
"""
    assert _codes(src, "TFH401", "pkg/tools/doctor.py") == [(8, "TFH401")]
    assert _codes(src.replace("@mcp.tool()\n", ""), "TFH401", "pkg/tools/doctor.py") == []
    # the module's own name only: a function named for a setup in a tools module is a tool's helper (openocto's
    # `_setup_exec_tool` dispatcher, k8s-mcp's `kind_ingress_setup` tool: true labels, batches 1-19)
    assert _codes(REPORT.replace("run_case", "_setup_exec_tool"), "TFH401", "agent/tools/steps.py") == [(5, "TFH401")]


DASHBOARD = """\
class ApprovalService:
    async def approve(self, approval_id):
        try:
            return ApprovalActionResult(success=True, message=await self._plans.approve(approval_id))
        except Exception as e:
            return ApprovalActionResult(success=False, message=f"Error: {str(e)}")
"""


@pytest.mark.parametrize(
    ("path", "reported"),
    [
        ("pkg/services/approval_service.py", True),  # an action's result object: read as a tool's answer
        ("pkg/dashboard/services/approval_service.py", False),  # s47: a dashboard's service answers its web page
        ("pkg/admin_dashboard/api.py", False),
    ],
)
def test_tfh401_dashboard_package_answers_a_person(path: str, reported: bool) -> None:
    assert bool(_codes(DASHBOARD, "TFH401", path)) is reported


def test_tfh401_report_module_still_reports_a_message() -> None:
    src = "from langchain_core.messages import ToolMessage\n" + REPORT.replace(
        '{"answer": None, "error": str(e)}', 'ToolMessage(content=str(e), tool_call_id="1")'
    )
    assert _codes(src, "TFH401", "pkg/evaluation/runner.py")


# ---------------------------------------------------------------- TFH402: what says the fallback is the design

FALLBACK = """\
import requests
def latest(url):
    try:
        return requests.get(url, timeout=5).json()["tag"]
    except Exception:{comment}
        return None
"""


@pytest.mark.parametrize(
    ("comment", "found"),
    [
        ("", True),
        ("  # noqa: BLE001", True),  # a pragma explains nothing
        ("  # return None on any error", True),  # restates the code
        ("  # TODO: fall back less quietly", True),  # the author knows it is wrong
        ("  # noqa: BLE001 - the version notice is optional", False),
        ("\n        # the caller falls back to the bundled list", False),
        ("\n        # best-effort: nothing is shown when the check fails", False),
    ],
)
def test_a_comment_saying_the_fallback_is_the_design(comment: str, found: bool) -> None:
    assert bool(_codes(FALLBACK.format(comment=comment), "TFH402")) is found


@pytest.mark.parametrize(
    ("annotation", "found"),
    [("httpx.Response", False), ("requests.Response", False), ("httpx.AsyncClient", True)],
)
def test_a_response_in_hand_is_no_remote_read(annotation: str, found: bool) -> None:
    src = f"""\
import httpx, requests
def items(r: {annotation}):
    try:
        return r.json()["items"]
    except Exception:
        return []
"""
    assert bool(_codes(src, "TFH402")) is found


@pytest.mark.parametrize(("receiver", "found"), [("index_file", False), ("search_index", True)])
def test_a_receiver_named_as_a_path_is_local(receiver: str, found: bool) -> None:
    # s49: the remote one is typed (a name alone is no evidence); the path-named one is not
    src = f"""\
import pinecone
def names({receiver}{": pinecone.Index" if found else ""}, root):
    try:
        return list({receiver}.query(root))
    except Exception:
        return []
"""
    assert bool(_codes(src, "TFH402")) is found
