"""`smullyan tools`' ``local`` class (issue 28, session 47; batch 19's local parsers read column by column): a tool whose
every call works on values of known types stays on the machine, whatever depth its same-module helpers reach:
a regular expression compiled at the top of the module and iterated in a table of patterns, a ``str`` parameter's
methods, ``Path.cwd().resolve()``. A value of unknown type (a parameter without annotation) keeps the row unknown."""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

PARSER = """
    import re
    from pathlib import Path

    _PATTERNS = [
        ("apt", re.compile(r"apt-get install (.+)")),
        ("yum", re.compile(r"yum install (.+)")),
    ]
    _SECRET = re.compile(r"(?i)password")


    def _root() -> Path:
        return Path.cwd().resolve()


    def parse_script(path: str) -> str:
        text = (_root() / path).read_text()
        return _format(_parse(text))


    def _parse(content: str) -> dict:
        result = {"packages": [], "secrets": 0}
        _extract(content, result)
        return result


    def _extract(content: str, result: dict) -> None:
        for manager, pattern in _PATTERNS:
            for match in pattern.finditer(content):
                result["packages"].append({"manager": manager, "names": _names(match.group(1))})
        result["secrets"] = len(_SECRET.findall(content))


    def _names(raw: str) -> list:
        idx = raw.lower().find("install")
        if idx >= 0:
            raw = raw[idx:]
        return [w for w in raw.split() if not any(ch.isupper() for ch in w)]


    def _format(ir: dict) -> str:
        return ", ".join(p["manager"] for p in ir.get("packages", []))


    def untyped(raw, word: str):
        return raw.lower().find(word)
"""

SERVER = """
    from fastmcp import FastMCP

    from .parser import parse_script, untyped

    mcp = FastMCP("x")


    @mcp.tool()
    def parse_bash_script(path: str) -> str:
        return parse_script(path)


    @mcp.tool()
    def parse_other(raw: str) -> int:
        return untyped(raw, "x")
"""


def test_a_parser_over_typed_values_is_local(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/parser.py": PARSER, "x/server.py": SERVER})
    row = rows["parse_bash_script"]
    assert (row.classification, row.key, row.calls) == ("local", "not-needed", [])


def test_a_method_of_a_value_of_unknown_type_keeps_the_row_unknown(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/parser.py": PARSER, "x/server.py": SERVER})
    assert (rows["parse_other"].classification, rows["parse_other"].key) == ("unknown", "unknown")


MODELS = """
    from pydantic import BaseModel


    class Machine(BaseModel):
        name: str


    class MachinesConfig(BaseModel):
        machines: list[Machine] = []
"""

SERVERS = """
    import json
    from pathlib import Path

    from fastmcp import FastMCP

    from .models import Machine, MachinesConfig

    mcp = FastMCP("x")
    CONFIG = Path("machines.json")


    @mcp.tool()
    def add_entry(name: str) -> str:
        config: MachinesConfig = MachinesConfig.model_validate(json.loads(CONFIG.read_text()))
        config.machines.append(Machine(name=name))
        CONFIG.write_text(json.dumps(config.model_dump()))
        return "ok"
"""


def test_a_model_s_own_value_methods_stay_local(tmp_path: Path) -> None:
    """``config.machines.append(...)``/``config.model_dump()`` on an object of the run's pydantic class: methods of
    a list and of a model, not of the run (which does not define them)."""
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/models.py": MODELS, "x/servers.py": SERVERS})
    assert (rows["add_entry"].classification, rows["add_entry"].key) == ("local", "not-needed")
