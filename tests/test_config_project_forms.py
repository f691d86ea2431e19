"""A project's own forms as configuration (issues 23 and 28, session 54): ``clients`` (a project's function or
attribute whose value is a known client), ``tool-registrars`` (calls that make a tool of the function they are handed)
and ``timeout-required``'s table form (the timeout keyword of each call). Each key: what it changes, that nothing
changes without it, and its validation (one line naming the file, the key and what was expected; exit 2)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from smullyan.linter.cli import main
from smullyan.linter.config import Config, ConfigError, from_mapping
from smullyan.linter.config_files import load_config
from smullyan.linter.engine import lint_source


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


# --------------------------------------------------------------------------- clients

# chainedci's form (batch 26): a dataclass holding a requests.Session, reached from outside it as ``Http().session``
HOLDER = """\
    from myproj.http_adapter import Http, get_session, shared


    def trigger(url):
        with Http().session.post(url, data={}) as response:
            return response.status_code


    def status(url):
        return get_session().get(url).json()


    def ping(url):
        return shared.put(url)


    def bounded(url):
        return Http().session.get(url, timeout=10).json()
    """


def _holder_lines(config: Config) -> list[tuple[int, str, str]]:
    return [(f.line, f.code, f.message.split(" ", 1)[0]) for f in lint_source(textwrap.dedent(HOLDER), "myproj/pipeline.py", config)
            if f.code.startswith("TFH2")]


def test_without_clients_a_call_through_a_project_holder_is_not_read() -> None:
    assert _holder_lines(Config.default()) == []


def test_clients_reads_calls_through_a_holder_attribute_function_and_module_object() -> None:
    config = from_mapping({"clients": {"myproj.http_adapter.Http.session": "requests.Session",
                                       "myproj.http_adapter.get_session": "requests.sessions.Session",
                                       "myproj.http_adapter.shared": "requests.Session"}}, "test")
    assert _holder_lines(config) == [(5, "TFH201", "requests.Session.post"), (10, "TFH201", "requests.Session.get"),
                                     (14, "TFH201", "requests.Session.put")]


def test_clients_changes_the_cache_fingerprint_only_when_given() -> None:
    default = from_mapping({}, "test")
    assert from_mapping({"clients": {}}, "test").fingerprint() == default.fingerprint()
    given = from_mapping({"clients": {"myproj.http.Http.session": "requests.Session"}}, "test")
    assert given.fingerprint() != default.fingerprint()


def test_clients_from_pyproject_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, {"myproj/pipeline.py": HOLDER})
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "--no-cache", "--select", "TFH201", "myproj"]) == 0
    capsys.readouterr()
    (tmp_path / "pyproject.toml").write_text(
        '[tool.smullyan]\nclients = {"myproj.http_adapter.Http.session" = "requests.Session"}\n')
    assert main(["lint", "--no-cache", "--select", "TFH201", "--format", "json", "myproj"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert [(f["line"], f["code"]) for f in found] == [(5, "TFH201")]


def test_clients_reach_the_tool_rows_calls(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, {
        "myproj/__init__.py": "",
        "myproj/http_adapter.py": """\
            import vendor_sdk


            class Http:
                def __init__(self):
                    self.session = vendor_sdk.connect()  # a requests.Session, which only the configuration says
            """,
        "myproj/server.py": """\
            from mcp.server.fastmcp import FastMCP

            from myproj.http_adapter import Http

            mcp = FastMCP("x")


            @mcp.tool()
            def trigger(url: str) -> int:
                return Http().session.post(url, data={}).status_code
            """,
    })
    monkeypatch.chdir(tmp_path)

    def row() -> tuple[list[tuple[str, str]], dict[str, int]]:
        assert main(["tools", "--format", "json", "-j", "1", "myproj/server.py"]) == 0
        tool = json.loads(capsys.readouterr().out)["tools"][0]
        return [(c["what"], c["timeout"]) for c in tool["calls"]], tool["findings"]

    assert row() == ([], {})
    (tmp_path / "pyproject.toml").write_text(
        '[tool.smullyan]\nclients = {"myproj.http_adapter.Http.session" = "requests.Session"}\n')
    assert row() == ([("POST through requests.Session.post", "missing")], {"TFH201": 1})


# --------------------------------------------------------------------------- tool-registrars

REGISTRY = {
    "myproj/__init__.py": "",
    "myproj/registry.py": """\
        class Registry:
            def register(self, fn, name=None):
                return fn


        registry = Registry()
        """,
    "myproj/tools.py": """\
        import requests

        from myproj.registry import registry


        def fetch_page(url: str) -> str:
            return requests.get(url, timeout=5).text


        def post_note(text: str) -> str:
            return requests.post("https://api.example.com/notes", json={"t": text}, timeout=5).text


        def helper() -> None:
            pass


        registry.register(fetch_page)
        registry.register(name="note", fn=post_note)
        """,
    # a constructor's keyword: ``Command(title=..., run=...)`` handed to a registry
    "myproj/defs.py": """\
        from myproj.spec import Command


        def search(query: str) -> str:
            return query


        SEARCH = Command(title="Search the docs", run=search)
        """,
    "myproj/spec.py": """\
        class Command:
            def __init__(self, title, run):
                self.title, self.run = title, run
        """,
}


def _tool_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[str, str, str]]:
    assert main(["tools", "--format", "json", "-j", "1", "myproj"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return sorted((t["name"], t["framework"], f"{t['path']}:{t['line']}") for t in doc["tools"])


def test_tool_registrars_make_tools_of_the_functions_handed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, REGISTRY)
    monkeypatch.chdir(tmp_path)
    assert _tool_rows(tmp_path, capsys) == []
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent("""\
        [tool.smullyan.tool-registrars]
        "myproj.registry.registry.register" = {position = 0, keyword = "fn"}
        "myproj.spec.Command" = "run"
        """))
    assert _tool_rows(tmp_path, capsys) == [("fetch_page", "configured", "myproj/tools.py:6"),
                                            ("note", "configured", "myproj/tools.py:10"),
                                            ("search", "configured", "myproj/defs.py:4")]


def test_tool_registrars_list_form_takes_the_first_argument(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, REGISTRY)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.smullyan]\ntool-registrars = ["myproj.registry.registry.register"]\n')
    # the keyword call (``fn=post_note``) names no position-0 argument: the function is still the one it is handed
    assert [r[0] for r in _tool_rows(tmp_path, capsys)] == ["fetch_page", "note"]


def test_tool_registrars_in_settings() -> None:
    config = from_mapping({"tool-registrars": {"a.b.register": 1, "a.Spec": "func", "a.c": {"position": 2}},
                           "clients": {"a.http.Http.session": "requests.Session"}}, "test")
    settings = config.settings()
    assert settings["tool-registrars"] == {"a.b.register": {"position": 1}, "a.Spec": {"keyword": "func"},
                                           "a.c": {"position": 2}}
    assert settings["clients"] == {"a.http.Http.session": "requests.Session"}
    assert Config.default().settings()["tool-registrars"] == {} and Config.default().settings()["clients"] == {}


# --------------------------------------------------------------------------- timeout-required's table form

def test_timeout_required_table_names_each_calls_keyword(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.smullyan.timeout-required]\n"mycorp.rpc.call" = "deadline"\n"mycorp.rpc.fetch" = "timeout"\n')
    config = load_config(tmp_path)
    src = "import mycorp.rpc\nmycorp.rpc.call('x')\nmycorp.rpc.call('x', deadline=5)\nmycorp.rpc.fetch('y')\n"
    found = [(f.line, f.code) for f in lint_source(src, "m.py", config)]
    assert found == [(2, "TFH201"), (4, "TFH201")]
    assert "deadline" in next(f.message for f in lint_source(src, "m.py", config) if f.line == 2)


# --------------------------------------------------------------------------- validation

@pytest.mark.parametrize(
    "body, expected",
    [
        ('clients = ["a.b"]\n', "`clients` must be a table mapping a project's function or attribute"),
        ('clients = {"not a name" = "requests.Session"}\n', "`clients` has key 'not a name'"),
        ('clients = {"a.b" = "requests.get"}\n', "expected the qualified name of a client class"),
        ('clients = {"a.b" = 3}\n', "expected the qualified name of a client class"),
        ('tool-registrars = "a.b"\n', "`tool-registrars` must be a list of qualified names"),
        ('tool-registrars = ["a b"]\n', "`tool-registrars` has 'a b'; expected a dotted qualified name"),
        ('tool-registrars = {"a.b" = -1}\n', "the position a number (-1); expected a whole number"),
        ('tool-registrars = {"a.b" = true}\n', "the position a boolean (True); expected a whole number"),
        ('tool-registrars = {"a.b" = "not-an-id"}\n', "the keyword a string ('not-an-id')"),
        ('tool-registrars = {"a.b" = {pos = 1}}\n', "`tool-registrars` maps 'a.b' to a table"),
        ('timeout-required = {"a.b" = 3}\n', "expected the name of its timeout keyword"),
    ],
)
def test_errors_name_the_file_the_key_and_what_was_expected(tmp_path: Path, body: str, expected: str,
                                                            capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text("[tool.smullyan]\n" + body)
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path)
    assert str(path) in str(info.value) and expected in str(info.value)
    (tmp_path / "m.py").write_text("x = 1\n")
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "--no-cache", "m.py"]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
