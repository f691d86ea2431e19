"""The runtime is standard-library only and never waits or reads time on its own."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

RUNTIME = Path(__file__).resolve().parent.parent / "runtime"

# Reading or waiting on real time is allowed only inside these explicit clock
# choices, which user code must name to get them.
CLOCK_FUNCTIONS = {
    "system_sleep", "asyncio_sleep", "system_now", "system_clock", "asyncio_clock", "wall_now", "wall_sleep",
}

# The one import outside the standard library: the PostgreSQL ledger imports
# psycopg (the optional extra smullyan[postgres]) inside the constructor, so
# only code that makes a PostgresLedger needs it. Module, package, and "only
# inside a function" are all checked.
OPTIONAL_LAZY_IMPORTS = {("_ledger_postgres.py", "psycopg")}
TIME_CALLS = {
    ("time", "sleep"), ("time", "monotonic"), ("time", "monotonic_ns"), ("time", "time"),
    ("time", "time_ns"), ("time", "perf_counter"), ("asyncio", "sleep"),
}


# The framework adapters are the one exception, and a narrow one: each module
# under runtime/adapters/ may import its own framework (and nothing else outside
# the standard library), because it exists to speak that framework's types. The
# framework is optional (an extra), and `import smullyan.runtime` never imports an
# adapter (test_importing_the_runtime_imports_no_adapter below), so the runtime
# proper stays standard-library only. An adapter may also import the runtime's
# public names (`from smullyan import runtime`), never a private module.
ADAPTER_FRAMEWORKS = {
    "mcp.py": {"mcp"},
    "openai_agents.py": {"agents"},
    "langchain.py": {"langchain_core"},
    "pydantic_ai.py": {"pydantic_ai"},
}


# smullyan.runtime.otel (the [otel] extra) is the other: it exists to speak
# OpenTelemetry, so it imports opentelemetry (and nothing else outside the standard
# library); `import smullyan.runtime` never imports it (checked below).
OTEL_MODULE = ("otel.py", {"opentelemetry"})


def _modules() -> list[Path]:
    return sorted(RUNTIME.rglob("*.py"))


def _allowed(path: Path) -> set[str]:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    if path.parent.name == "adapters":
        return stdlib | {"smullyan"} | ADAPTER_FRAMEWORKS.get(path.name, set())
    if path.parent == RUNTIME and path.name == OTEL_MODULE[0]:
        return stdlib | OTEL_MODULE[1]
    return stdlib


def test_runtime_imports_only_the_standard_library() -> None:
    for path in _modules():
        allowed = _allowed(path)
        tree = ast.parse(path.read_text(), str(path))
        top_level = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(
                (path.name, a.name) in OPTIONAL_LAZY_IMPORTS for a in node.names
            ):
                assert id(node) not in top_level, f"{path.name} must import {node.names[0].name} lazily"
                continue
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.relative_to(RUNTIME)} imports {name}"
                if name.split(".")[0] == "smullyan":
                    assert name == "smullyan" and all(a.name == "runtime" for a in node.names), (
                        f"{path.relative_to(RUNTIME)}: an adapter imports only `from smullyan import runtime`"
                    )


def test_every_adapter_module_is_listed_with_its_framework() -> None:
    adapters = {p.name for p in (RUNTIME / "adapters").glob("*.py") if not p.name.startswith("_")}
    assert adapters == set(ADAPTER_FRAMEWORKS)


def test_importing_the_runtime_imports_no_adapter_and_no_framework() -> None:
    code = (
        "import sys, smullyan.runtime;"
        "bad = [m for m in sys.modules if m.startswith(('smullyan.runtime.adapters', 'smullyan.runtime.otel'))"
        " or m.split('.')[0] in ('mcp', 'agents', 'langchain_core', 'pydantic_ai', 'pydantic', 'opentelemetry')];"
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


def test_no_time_is_read_or_waited_on_outside_explicit_clocks() -> None:
    offenders = []
    for path in _modules():
        tree = ast.parse(path.read_text(), str(path))
        parents: dict[ast.AST, ast.AST] = {}
        for parent in ast.walk(tree):
            for child in ast.iter_child_nodes(parent):
                parents[child] = parent
        imported_from = {
            alias.asname or alias.name: (node.module, alias.name)
            for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        for node in ast.walk(tree):
            hit = None
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if (node.value.id, node.attr) in TIME_CALLS:
                    hit = f"{node.value.id}.{node.attr}"
            elif isinstance(node, ast.Name) and imported_from.get(node.id) in TIME_CALLS:
                hit = node.id
            if hit is None:
                continue
            scope = node
            while scope in parents and not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
                scope = parents[scope]
            if not (isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and scope.name in CLOCK_FUNCTIONS):
                offenders.append(f"{path.name}:{node.lineno} {hit}")
    assert offenders == []
