"""`smullyan tools` (issue 28, session 40, after batch 13's blind run): calls a tool reaches through a project helper
the row did not list: a socket client class (Ableton's Remote Script), an NNG request helper on a module global set
from elsewhere (KiCad's ``KICAD_CLIENT = None``), a module-level object of the run's class (Godot's ``godot_server``)
running a subprocess, googleapiclient's ``...send(...).execute()`` and mlflow's fluent functions."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter.config import Config
from tools_support import tools_by_name as _rows


def test_a_socket_client_class_behind_an_unannotated_getter(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/server.py": """
            import socket
            from mcp.server.fastmcp import FastMCP

            mcp = FastMCP("live")


            class Connection:
                sock: socket.socket = None

                def connect(self) -> bool:
                    try:
                        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                        self.sock.connect(("localhost", 9877))
                        return True
                    except Exception:
                        self.sock = None
                        return False

                def send_command(self, kind: str) -> bytes:
                    self.sock.sendall(kind.encode())
                    return self.sock.recv(8192)


            _conn = None


            def get_connection():
                global _conn
                if _conn is None:
                    _conn = Connection()
                    _conn.connect()
                return _conn


            @mcp.tool()
            def play(name: str) -> str:
                conn = get_connection()
                return conn.send_command("play")
        """,
    })
    row = rows["play"]
    # ``sock: socket.socket`` declared in the class body: its sends listed (``connect``, the setup, is not)
    assert [(c.what, c.cls, c.helper) for c in row.calls] == [
        ("socket.sendall", None, "send_command"), ("socket.recv", None, "send_command")]
    assert row.classification == "unknown"  # a socket's send says nothing of what the command does
    assert row.failures == ["text"]  # FastMCP's text; connect's ``return False`` is no failure of the tool


def test_an_nng_helper_on_a_module_global_set_elsewhere(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {
        "kc/__init__.py": "",
        "kc/client.py": """
            import logging
            import pynng

            logger = logging.getLogger(__name__)


            class KiCadClient:
                def __init__(self, url: str) -> None:
                    self.req_socket = pynng.Req0(recv_timeout=30000, send_timeout=30000)
                    self.req_socket.dial(url, block=True)

                def cpp_sdk_action(self, api_name: str, params: dict) -> dict | None:
                    try:
                        self.req_socket.send(api_name.encode())
                        return {"raw": self.req_socket.recv()}
                    except Exception as e:
                        logger.error(f"Failed to cpp_sdk '{api_name}': {e}")
                        return None
        """,
        "kc/tools.py": """
            from mcp.server.fastmcp import FastMCP

            mcp = FastMCP("kicad")
            KICAD_CLIENT = None


            def init_context(client):
                global KICAD_CLIENT
                KICAD_CLIENT = client


            @mcp.tool()
            def draw_wires(lines: list) -> dict | None:
                if KICAD_CLIENT is None:
                    return None
                return KICAD_CLIENT.cpp_sdk_action(api_name="drawMultiWire", params={"lines": lines})
        """,
    })
    row = rows["draw_wires"]
    # ``KICAD_CLIENT = None`` and set from a parameter: the run's one class defining ``cpp_sdk_action``
    assert [(c.what, c.helper) for c in row.calls] == [("nng.send", "cpp_sdk_action"), ("nng.recv", "cpp_sdk_action")]
    # the helper's logged ``None`` is its swallowed failure (beside the framework's text of the tool's own raise)
    assert "swallowed" in row.failures


def test_an_untyped_global_method_defined_by_two_classes_is_not_followed(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {
        "kc/__init__.py": "",
        "kc/client.py": """
            import pynng

            class A:
                def __init__(self) -> None:
                    self.s = pynng.Req0()

                def act(self) -> bytes:
                    self.s.send(b"a")
                    return self.s.recv()

            class B:
                def act(self) -> None:
                    return None

            class C:
                def touch(self) -> bytes:
                    s = pynng.Req0()
                    s.send(b"t")
                    return s.recv()
        """,
        "kc/tools.py": """
            from pathlib import Path
            from mcp.server.fastmcp import FastMCP

            mcp = FastMCP("k")
            CLIENT = None

            WORKSPACE = None

            def setup(path: str) -> None:
                global WORKSPACE
                WORKSPACE = Path(path)

            @mcp.tool()
            def act() -> object:
                return CLIENT.act()

            @mcp.tool()
            def touch() -> object:
                return WORKSPACE.touch()
        """,
    })
    assert rows["act"].calls == []  # two classes define ``act``
    assert rows["touch"].calls == []  # ``WORKSPACE = Path(path)``: built here, not the run's ``C``


def test_a_module_object_of_the_runs_class_reaches_its_subprocess(tmp_path: Path) -> None:
    files = {
        "gd/__init__.py": "",
        "gd/core.py": """
            import asyncio
            import subprocess


            class GodotServer:
                def run_subprocess(self, cmd: str) -> tuple[str, str]:
                    proc = subprocess.Popen(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                    stdout, stderr = proc.communicate()
                    return stdout, stderr

                async def execute_operation(self, op: str) -> tuple[str, str]:
                    return await asyncio.to_thread(lambda: self.run_subprocess(f"godot --headless {op}"))


            godot_server = GodotServer()
        """,
        "gd/camera.py": """
            import asyncio
            from mcp.server.fastmcp import FastMCP
            from gd.core import godot_server

            mcp = FastMCP("godot")

            @mcp.tool()
            def camera_get_info(scene: str) -> str:
                stdout, stderr = asyncio.run(godot_server.execute_operation("get_camera_info"))
                return stdout
        """,
    }
    rows = _rows(tmp_path, files)
    row = rows["camera_get_info"]
    assert ("subprocess.Popen.communicate", "run_subprocess", "missing") in [
        (c.what, c.helper, c.timeout) for c in row.calls]
    # s52: the helper's `Popen(cmd)` runs a command the linter cannot read outside a tool function: TFH203 (off by
    # default), shown in the findings column when selected
    assert "TFH203" not in row.findings and "TFH201" not in row.findings
    selected = Config().with_overrides(extend_select=["TFH203"])
    assert "TFH203" in _rows(tmp_path / "again", files, selected)["camera_get_info"].findings


def test_googleapiclient_execute_and_mlflow_fluent_functions(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {
        "gm/__init__.py": "",
        "gm/client.py": """
            from typing import Any
            from googleapiclient.discovery import build


            class GmailClient:
                def __init__(self, creds: Any) -> None:
                    self.creds = creds
                    self._service = None

                @property
                def service(self) -> Any:
                    if not self._service:
                        self._service = build("gmail", "v1", credentials=self.creds)
                    return self._service

                def send_draft(self, draft_id: str) -> dict:
                    return self.service.users().drafts().send(userId="me", body={"id": draft_id}).execute()
        """,
        "gm/tools.py": """
            from langchain_core.tools import tool
            from gm.client import GmailClient


            @tool
            def send_draft_email(draft_id: str) -> dict:
                \"\"\"Send a draft.\"\"\"
                client = GmailClient(None)
                return client.send_draft(draft_id)


            @tool
            def mlflow_set_tags(tags: dict) -> str:
                \"\"\"Tag the active run.\"\"\"
                import mlflow
                with mlflow.start_run():
                    mlflow.set_tags(tags)
                return "ok"


            @tool
            def mlflow_log_artifact(path: str) -> str:
                \"\"\"Log a file.\"\"\"
                import mlflow
                mlflow.log_artifact(path)
                return "ok"
        """,
    })
    assert [(c.what, c.helper) for c in rows["send_draft_email"].calls] == [("send().execute", "send_draft")]
    # the run's bookkeeping (start_run) is not listed: what the tool logs classes it
    tags = rows["mlflow_set_tags"]
    assert [(c.what, c.cls) for c in tags.calls] == [("mlflow.set_tags", "idempotent-write")]
    assert tags.classification == "idempotent-write"
    assert rows["mlflow_log_artifact"].classification == "non-idempotent-write"
