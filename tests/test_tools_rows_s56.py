"""`smullyan tools` rows (issue 28, session 56): a tool's calls followed to the project's client class through the
forms that name it only by a parameter's annotation (tuned on batches 24-28's 20-row tables, not blind).

- A closure's client bound to ``client or _Client()`` where ``client: Rehearsal | None``: the annotated side names the
  class (rehearsal-kit, batch 28: ``c.post(...)`` reaches the client's httpx POST; calls ``none`` before).
- A parameter annotated ``Optional[Client]`` / ``Client | None`` holds a ``Client`` when it holds anything.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

_CLIENT = """
    import httpx

    class Rehearsal:
        def __init__(self, timeout: float = 30.0) -> None:
            self.http = httpx.Client(base_url="https://api.example.com", timeout=timeout)

        def get(self, path):
            return self.http.request("GET", path).json()

        def post(self, path, body):
            return self.http.request("POST", path, json=body).json()
"""


def test_a_closure_client_bound_to_an_annotated_parameter_or_a_stand_in(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/client.py": _CLIENT, "pkg/mcp.py": """
        from typing import Any
        from mcp.server.fastmcp import FastMCP
        from .client import Rehearsal

        class _Client:
            def __getattr__(self, name):
                return getattr(Rehearsal(), name)

        def build_server(client: Rehearsal | None = None) -> FastMCP:
            c: Any = client or _Client()
            mcp = FastMCP("r")

            @mcp.tool()
            def list_agents() -> list:
                \"\"\"Agents.\"\"\"
                return c.get("/v1/agents")

            @mcp.tool()
            def run_evaluation(world: str) -> dict:
                \"\"\"Start an evaluation.\"\"\"
                return c.post("/v1/evaluations", {"world": world})

            return mcp
    """})
    assert [c.what.rsplit(" ", 1)[-1] for c in rows["list_agents"].calls] == ["httpx.Client.request"]
    assert rows["list_agents"].classification == "read-safe"
    assert [c.what.rsplit(" ", 1)[-1] for c in rows["run_evaluation"].calls] == ["httpx.Client.request"]
    assert rows["run_evaluation"].classification == "non-idempotent-write"


def test_an_optional_annotation_names_the_class(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/client.py": _CLIENT, "pkg/mcp.py": """
        from typing import Optional
        from mcp.server.fastmcp import FastMCP
        from .client import Rehearsal

        def register(mcp: FastMCP, client: Optional[Rehearsal]) -> None:
            @mcp.tool()
            def list_worlds() -> list:
                \"\"\"Worlds.\"\"\"
                return client.get("/v1/worlds")
    """})
    assert [c.what.rsplit(" ", 1)[-1] for c in rows["list_worlds"].calls] == ["httpx.Client.request"]
    assert rows["list_worlds"].classification == "read-safe"


def test_two_constructors_say_no_class(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/client.py": _CLIENT + """
    class Other:
        def get(self, path):
            return {}
""", "pkg/mcp.py": """
        import os
        from mcp.server.fastmcp import FastMCP
        from .client import Other, Rehearsal

        mcp = FastMCP("r")
        c = Rehearsal(timeout=float(os.environ["T"])) or Other()

        @mcp.tool()
        def list_agents() -> list:
            \"\"\"Agents.\"\"\"
            return c.get("/v1/agents")
    """})
    assert rows["list_agents"].calls == []


def test_an_e2b_sandbox_built_by_its_class_method_is_an_sdk_client(tmp_path: Path) -> None:
    """E2B's ``Sandbox.create(...)`` (``knowledge.SDK_CLIENT_CONSTRUCTORS``): a method on the sandbox, or on its
    ``files``/``commands`` namespace, is a call out (e2b-adk, batch 28; ~20 installed packages build one so)."""
    rows = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/tools.py": """
        from e2b_code_interpreter import AsyncSandbox, Sandbox
        from langchain_core.tools import tool

        @tool
        def read_file(path: str) -> str:
            \"\"\"Read a file in the sandbox.\"\"\"
            sandbox = Sandbox.create(timeout=60)
            return sandbox.files.read(path)

        @tool
        async def run_code(code: str) -> str:
            \"\"\"Run code in the sandbox.\"\"\"
            sandbox = await AsyncSandbox.create()
            return str(await sandbox.run_code(code))

        @tool
        def shout(text: str) -> str:
            \"\"\"Upper-case a text.\"\"\"
            box = Sandbox
            return text.upper()
    """})
    assert [c.what for c in rows["read_file"].calls] == ["Sandbox.files.read"]
    assert [c.what for c in rows["run_code"].calls] == ["AsyncSandbox.run_code"]
    assert rows["shout"].calls == []


_BOX = """
    from e2b_code_interpreter import AsyncSandbox

    class SandboxManager:
        def __init__(self) -> None:
            self._sandbox = None

        async def get(self) -> AsyncSandbox:
            if self._sandbox is None:
                self._sandbox = await AsyncSandbox.create()
            return self._sandbox

        def label(self) -> str:
            return "box"
"""


def test_a_project_objects_method_annotated_to_return_an_sdk_client(tmp_path: Path) -> None:
    """A tool reaching the SDK through the project's wrapper: ``sandbox = await self.manager.get()`` with ``manager:
    SandboxManager`` set in ``__init__`` (e2b-adk, batch 28), or ``sb = box.get()`` with ``box: SandboxManager`` a
    parameter of the enclosing function (e2b-haystack's form, batch 27): the method's annotated SDK class is the
    object's, its methods calls out. A method returning no SDK client gives no call."""
    rows = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/box.py": _BOX, "pkg/tools.py": """
        from typing import Any
        from google.adk.tools import BaseTool
        from langchain_core.tools import tool
        from pkg.box import SandboxManager

        class ReadFile(BaseTool):
            def __init__(self, manager: SandboxManager) -> None:
                super().__init__(name="read_file", description="Read a file.")
                self.manager = manager

            async def run_async(self, *, args: dict[str, Any], tool_context: Any) -> dict[str, Any]:
                sandbox = await self.manager.get()
                return {"content": await sandbox.files.read(args["path"])}

        def make(box: SandboxManager):
            @tool
            async def run_command(command: str) -> str:
                \"\"\"Run a command.\"\"\"
                sb = await box.get()
                return str(await sb.commands.run(command))

            @tool
            def label() -> str:
                \"\"\"The box's label.\"\"\"
                name = box.label()
                return name.upper()

            return [run_command, label]
    """})
    assert [c.what for c in rows["read_file"].calls] == ["AsyncSandbox.files.read"]
    assert rows["read_file"].classification == "read-safe"
    assert [c.what for c in rows["run_command"].calls] == ["AsyncSandbox.commands.run"]
    assert rows["label"].calls == []


def test_an_sdk_client_a_method_of_a_run_functions_value_returns(tmp_path: Path) -> None:
    """``client = get_session().get_client()``: the run's function returns the project's session class, whose method is
    annotated to return the SDK client (krutrim-mcp-server, batch 24: ``client.kos.buckets.create_bucket(...)``)."""
    rows = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/client.py": """
        from krutrim_cloud import KrutrimClient

        class Session:
            def get_client(self) -> KrutrimClient:
                return KrutrimClient(api_key="k")

            def region(self) -> str:
                return "in-south-1"

        def get_session() -> Session:
            return Session()
    """, "pkg/tools.py": """
        from mcp.server.fastmcp import FastMCP
        from pkg.client import get_session

        mcp = FastMCP("k")

        @mcp.tool()
        def create_bucket(name: str) -> str:
            \"\"\"Create a bucket.\"\"\"
            client = get_session().get_client()
            return str(client.kos.buckets.create_bucket(name=name))

        @mcp.tool()
        def region() -> str:
            \"\"\"The region.\"\"\"
            where = get_session().region()
            return where.upper()
    """})
    assert [c.what for c in rows["create_bucket"].calls] == ["KrutrimClient.kos.buckets.create_bucket"]
    assert rows["region"].calls == []
