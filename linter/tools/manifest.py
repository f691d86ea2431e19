"""A tool manifest beside its dispatcher (issue 28, session 44): a module that reads a JSON file next to it
(``json.loads(Path(__file__).with_name("tools.json").read_text())``) listing tool definitions, two at least, each
with a ``"name"`` and a parameter schema (``parameters``/``input_schema``/``inputSchema``: what a model is given), and
a function comparing the called name with those names (``if name == "exec_command":``, ``name in {"poll_command",
...}``) is the dispatcher of every tool the file lists (bello's ``ToolHost.call``, batch 16). Used by :mod:`.forms`;
the file is read only for a module that names a ``.json`` file in a call or a ``/`` path and ``__file__``."""

from __future__ import annotations

import ast
import json
import os
import re
from collections.abc import Collection

from .index import CALLED_NAME, Index, literal_str, own_nodes

__all__ = ["manifest_dispatcher", "manifest_names"]

Entry = tuple[str, int, ast.AST, tuple[ast.AST, ...]]

_FILE = re.compile(r"^[\w.-]+\.json$")
_SCHEMA_KEYS = frozenset({"parameters", "input_schema", "inputSchema"})
#: a manifest larger than this is no tool list written by hand: not read
MAX_BYTES = 1_000_000
#: a bare name compared with the listed names that holds the called tool's name (``name``, ``tool``, ``tool_name``)
_NAME_VAR = re.compile(r"^_?(name|tool|action|(tool|action)_?name)$", re.IGNORECASE)


def _file_names(index: Index) -> list[str]:
    """The ``.json`` file names the module hands a call (``with_name("tools.json")``, ``os.path.join(d, "x.json")``)
    or joins to a path with ``/``, when it also hands a call ``__file__`` (the file lies beside the module)."""
    calls = index.screen.calls
    if not any(isinstance(a, ast.Name) and a.id == "__file__" for c in calls for a in c.args):
        return []
    out = [s for c in calls for a in c.args if (s := literal_str(a)) and _FILE.match(s)]
    out += [s for b in index.screen.binders for n in ast.walk(b) if isinstance(n, ast.BinOp)
            and isinstance(n.op, ast.Div) and (s := literal_str(n.right)) and _FILE.match(s)]
    return list(dict.fromkeys(out))


def manifest_names(index: Index) -> tuple[str, list[str]]:
    """(the file name, the tool names it lists) of the first JSON file beside the module that lists two tool
    definitions at least (a list of them, or one under a ``"tools"`` key); ("", []) else."""
    path = index.screen.path
    if not path:
        return "", []
    for name in _file_names(index):
        full = os.path.join(os.path.dirname(path), name)
        try:
            if os.path.getsize(full) > MAX_BYTES:
                continue
            with open(full, encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            data = data.get("tools")
        if not isinstance(data, list):
            continue
        names = [d["name"] for d in data if isinstance(d, dict) and isinstance(d.get("name"), str)
                 and (d.keys() & _SCHEMA_KEYS or isinstance(d.get("function"), dict))]
        if len(names) >= 2:
            return name, list(dict.fromkeys(names))
    return "", []


def _compared(node: ast.Compare, names: Collection[str]) -> int:
    if len(node.ops) != 1 or not isinstance(node.left, (ast.Name, ast.Attribute)):
        return 0
    left = node.left.attr if isinstance(node.left, ast.Attribute) else node.left.id
    if not (_NAME_VAR.match(left) or CALLED_NAME.search(ast.unparse(node.left))):
        return 0
    right = node.comparators[0]
    if isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
        return int(literal_str(right) in names)
    if isinstance(node.ops[0], (ast.In, ast.NotIn)) and isinstance(right, (ast.Set, ast.Tuple, ast.List)):
        return sum(literal_str(e) in names for e in right.elts)
    return 0


def manifest_dispatcher(index: Index, names: Collection[str]) -> Entry | None:
    """The function of the module comparing the called name with the most of ``names`` (one at least)."""
    best: tuple[int, Entry | None] = (0, None)
    for entry in index.defs:
        count = sum(_compared(n, names) for n in own_nodes(entry[2]) if isinstance(n, ast.Compare))
        if count > best[0]:
            best = (count, entry)
    return best[1]
