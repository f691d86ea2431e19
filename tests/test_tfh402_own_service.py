"""TFH402: a loopback read of a path the project serves itself is the tool's own local service, no remote read (s47:
claw-forge's state client asking ``http://127.0.0.1:{port}/info`` of the FastAPI app the package runs, 3 false on
batch 19); a third-party server merely addressed on localhost (a local Ollama) stays reported."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from smullyan.linter import engine
from smullyan.linter.config import Config

SERVICE = '''
from fastapi import FastAPI


class StateService:
    def create_app(self):
        app = FastAPI()

        @app.get("/info")
        async def info():
            return {"project": "x"}

        @app.get("/sessions/{session_id}/status")
        async def status(session_id: str):
            return {}

        return app
'''

CLIENT = '''
import json
import urllib.request

import httpx


def service_info(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/info", timeout=1) as resp:
            body = json.loads(resp.read())
    except Exception:
        return None
    return body


def live(port):
    def _get(path):
        try:
            req = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
            with urllib.request.urlopen(req, timeout=1) as resp:
                return json.loads(resp.read())
        except Exception:
            return None

    info = _get("/info")
    return _get(f"/sessions/{info['id']}/status")


def local_models():
    try:
        return httpx.get("http://localhost:11434/api/tags", timeout=5).json()["models"]
    except Exception:
        return []


def remote_info(host, port):
    try:
        return httpx.get(f"http://{host}:{port}/info", timeout=5).json()
    except Exception:
        return None


def other_path(port):
    try:
        return httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).json()
    except Exception:
        return None
'''


def _project(tmp_path: Path, service: bool = True) -> Path:
    (tmp_path / "app" / "state").mkdir(parents=True)
    for init in ("app", "app/state"):
        (tmp_path / init / "__init__.py").write_text("")
    if service:
        (tmp_path / "app" / "state" / "service.py").write_text(SERVICE)
    client = tmp_path / "app" / "state" / "client.py"
    client.write_text(CLIENT)
    return client


def _lines(path: Path) -> list[int]:
    config = Config.default()
    return [f.line for f in engine.lint_source(path.read_bytes(), str(path), config) if f.code == "TFH402"]


def test_a_loopback_read_of_a_route_the_project_serves_is_not_remote(tmp_path: Path) -> None:
    # silent: service_info (/info), the nested _get whose every caller passes a served path; reported: a local Ollama
    # the project does not serve, a host that is no loopback address, a loopback path the project does not serve
    assert _lines(_project(tmp_path)) == [33, 40, 47]


def test_without_the_projects_own_server_every_loopback_read_stays_reported(tmp_path: Path) -> None:
    assert _lines(_project(tmp_path, service=False)) == [12, 23, 33, 40, 47]


def _cli(root: Path) -> str:
    proc = subprocess.run([sys.executable, "-m", "smullyan", "lint", "--select", "TFH402", "app"], cwd=root,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.stdout


def test_the_cache_relints_when_the_projects_routes_change(tmp_path: Path) -> None:
    """The findings depend on which files register a route (a module added later) and on what they register."""
    client = _project(tmp_path, service=False)
    (tmp_path / "pyproject.toml").write_text("[tool.smullyan]\n")
    assert "client.py:12:" in _cli(tmp_path)
    assert "client.py:12:" in _cli(tmp_path)  # warm
    service = client.parent / "service.py"
    service.write_text(SERVICE)
    assert "client.py:12:" not in _cli(tmp_path)  # a new module registering /info
    old = time.time() - 3600
    os.utime(client, (old, old))
    assert "client.py:12:" not in _cli(tmp_path)  # warm
    service.write_text(SERVICE.replace('"/info"', '"/about"'))
    assert "client.py:12:" in _cli(tmp_path)  # the route is gone from the module read
