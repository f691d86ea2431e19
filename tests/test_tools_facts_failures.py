"""`smullyan tools` (issue 28): the failures column counts the failures of calls out of the process. A same-module
helper that calls nothing out (a URL builder's ``except Exception: return None``) adds no mode, as a helper in
another module does not (``follow.join``); a handler of a ``try`` whose body only computes in memory (``int(port)``,
``ipaddress.ip_address(ip)``) gives no ``fallback``/``swallowed``: the tool's answer to a bad argument is no failure
of anything outside. A handler around a call out keeps its mode."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config
from tools_support import write_tree

PROBE = """
    import ipaddress
    import json
    import socket
    from urllib.parse import quote
    from langchain_core.tools import tool

    def _explore_url(base, query):
        try:
            return base + "/explore?q=" + quote(json.dumps(query))
        except Exception:
            return None

    def _allowed(ip):
        try:
            ipaddress.ip_address(ip)
        except ValueError:
            return False
        return True

    @tool
    def probe(host: str, port: str) -> str:
        \"\"\"Open a TCP connection.\"\"\"
        try:
            port_int = int(port)
        except ValueError:
            return "invalid port"
        if not _allowed(host):
            return "not allowed"
        try:
            socket.create_connection((host, port_int), timeout=3).close()
        except OSError as e:
            return f"failed: {e}"
        return "ok " + str(_explore_url("https://grafana", host))

    @tool
    def fetch_or_default(host: str) -> str:
        \"\"\"Read a port, or a default.\"\"\"
        try:
            socket.create_connection((host, 80), timeout=3).close()
        except OSError:
            return "unreachable"
        return "ok"
"""


def test_local_helpers_and_local_parses_add_no_failure_mode(tmp_path: Path) -> None:
    run = tools.run(write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/probe.py": PROBE}), Config(), jobs=1)
    rows = {t.name: t for t in run.tools}
    assert rows["probe"].failures == ["text"]
    assert rows["fetch_or_default"].failures == ["fallback"]  # a handler around the connection keeps its mode
    assert (rows["probe"].classification, rows["probe"].key) == ("read-safe", "not-needed")  # a TCP connect


def test_a_failure_status_only_logged_is_swallowed(tmp_path: Path) -> None:
    src = """
        import logging
        import requests
        from langchain_core.tools import tool

        logger = logging.getLogger(__name__)

        def _search(query):
            response = requests.get("https://api.example/search", params={"q": query}, timeout=10)
            results = response.json().get("items", [])
            if response.status_code != 200 and not results:
                logger.error("search failed: %s", response.text)
            return results

        def _checked(query):
            response = requests.get("https://api.example/search", params={"q": query}, timeout=10)
            if response.status_code != 200:
                logger.error("search failed")
                raise RuntimeError("search failed")
            return response.json()

        @tool
        def search(query: str) -> str:
            \"\"\"Search.\"\"\"
            return str(_search(query))

        @tool
        def checked_search(query: str) -> str:
            \"\"\"Search, raising on a failure status.\"\"\"
            return str(_checked(query))
    """
    run = tools.run(write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/s.py": src}), Config(), jobs=1)
    rows = {t.name: t for t in run.tools}
    assert "swallowed" in rows["search"].failures
    assert rows["checked_search"].failures == ["raised"]


def test_a_try_running_a_callable_or_an_awaitable_is_not_local(tmp_path: Path) -> None:
    src = """
        import asyncio
        from langchain_core.tools import tool
        from .store import fetch_rows

        @tool
        async def rows(key: str) -> str:
            \"\"\"Rows of a key.\"\"\"
            try:
                return str(await asyncio.to_thread(fetch_rows, key))
            except KeyError:
                return "no such key"

        @tool
        def first_row(key: str) -> str:
            \"\"\"The first row of a key.\"\"\"
            try:
                return str(list(fetch_rows(key))[0])
            except IndexError:
                return "no rows"
    """
    store = """
        import requests

        def fetch_rows(key):
            yield from requests.get("https://db.example/rows", params={"k": key}, timeout=5).json()
    """
    run = tools.run(write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/t.py": src, "pkg/store.py": store}),
                    Config(), jobs=1)
    rows = {t.name: t for t in run.tools}
    assert "fallback" in rows["rows"].failures
    assert "fallback" in rows["first_row"].failures


def test_a_substitute_bound_in_the_handler_is_a_fallback_not_swallowed(tmp_path: Path) -> None:
    # ``file_path = Path(raw)`` when normalising failed, ``works = False`` when a probe could not run: the code goes
    # on with a substitute; a literal record without the failure (``out = {"ok": False}``) still says nothing of it
    paths = write_tree(tmp_path, {"edit_tools.py": """
        import subprocess
        from pathlib import Path
        from langchain_core.tools import tool
        from .paths import normalise

        @tool
        def edit(raw: str) -> str:
            \"\"\"Edit a file.\"\"\"
            try:
                file_path = normalise(raw)
            except Exception:
                file_path = Path(raw)
            return file_path.read_text()

        @tool
        def can_sandbox() -> bool:
            \"\"\"Whether the sandbox runs.\"\"\"
            try:
                works = subprocess.run(["unshare", "true"], timeout=5).returncode == 0
            except OSError:
                works = False
            return works

        @tool
        def status(raw: str) -> dict:
            \"\"\"Status.\"\"\"
            try:
                out = {"ok": True, "data": normalise(raw)}
            except Exception:
                out = {"ok": False}
            return out

        @tool
        def logged(raw: str) -> str:
            \"\"\"Logged.\"\"\"
            out = ""
            try:
                out = normalise(raw)
            except Exception:
                title = describe(raw)
                log.warning("failed: %s", title)
            return out

        @tool
        def empty(raw: str) -> str:
            \"\"\"Empty.\"\"\"
            try:
                out = normalise(raw)
            except Exception:
                out = None
            return out or ""
    """})
    rows = {t.name: t for t in tools.run(paths, Config()).tools}
    assert rows["edit"].failures == ["fallback"]
    assert rows["can_sandbox"].failures == ["fallback"]
    assert rows["status"].failures == ["swallowed"]
    assert rows["empty"].failures == ["swallowed"]
    assert rows["logged"].failures == ["swallowed"]  # a name of the handler's own, for its log line
