"""Issue 23 evidence (session 57, helper nonedefault): calls handed ``timeout=x`` where x defaults to None.

An evidence script, not rule code. Scans the installed corpus (batches 1-29 in /tmp/smullyan-survey/site, batch 30's
held-out half in /tmp/smullyan-survey-b30/site) with ``ast`` for calls with a ``timeout=`` keyword whose value is
  * ``param``: a parameter of the enclosing function whose default is ``None`` (Python's own resolution: the signature), or
  * ``field``: ``self.NAME`` where the enclosing class declares ``NAME = None`` / ``NAME: T = None`` /
    ``NAME = Field(None)`` / ``Field(default=None)`` / ``field(default=None)``, or its ``__init__`` does
    ``self.NAME = p`` with ``p`` a parameter defaulting to None;
and the callee is one TFH201 knows takes a network/process timeout (``KNOWN``: requests/httpx verbs, urlopen,
subprocess runs, communicate/wait, asyncio.wait_for) or any other (``other``: SDK methods, project wrappers).
Who sets it: calls in the same package to the enclosing function's name (param) or the class's name (field) that pass
``timeout=`` with a value other than None ("set"), calls that all leave it None ("unset"), or no call of that name ("nocaller": a library API). Each site is matched with the labels and
misses rows (bench/survey/labels, same package and path, within 3 lines; any code).

  .venv/bin/python bench/nonedefault_evidence.py [--known-only] > sites.tsv   # then a summary on stderr
"""
from __future__ import annotations

import ast
import csv
import sys
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SITES = [Path("/tmp/smullyan-survey/site"), Path("/tmp/smullyan-survey-b30/site")]
KNOWN = {
    "get", "post", "put", "patch", "delete", "head", "options", "request", "urlopen", "run", "check_output",
    "check_call", "call", "communicate", "wait", "wait_for", "create_connection", "stream", "send",
}
SKIP_DIRS = {"tests", "test", "examples", "bin"}


def batches() -> dict[str, tuple[int, str]]:
    data = tomllib.loads((HERE / "survey" / "corpus.toml").read_text(encoding="utf-8"))
    return {p["name"]: (int(p.get("batch", 1)), p["half"]) for p in data["package"]}


def labels() -> dict[tuple[str, str], list[tuple[int, str, str, str]]]:
    out: dict[tuple[str, str], list[tuple[int, str, str, str]]] = defaultdict(list)
    for path in sorted((HERE / "survey" / "labels").glob("*.tsv")):
        miss = path.name.startswith("misses-")
        lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
        for row in csv.reader(lines[1:] if lines and lines[0].startswith("half\t") else lines, delimiter="\t"):
            if len(row) < 6 or not row[3].isdigit():
                continue
            verdict = ("miss:" + ("-" if row[4] == "-" else "true")) if miss else row[5]
            out[(row[1], row[2])].append((int(row[3]), row[4], verdict, path.name))
    return out


def none(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def field_none(value: ast.expr | None) -> bool:
    if none(value):
        return True
    if isinstance(value, ast.Call):
        name = value.func.attr if isinstance(value.func, ast.Attribute) else getattr(value.func, "id", "")
        if name in ("Field", "field"):
            if value.args and none(value.args[0]):
                return True
            return any(k.arg == "default" and none(k.value) for k in value.keywords)
    return False


def param_defaults(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ast.expr | None]:
    a = fn.args
    pos = a.posonlyargs + a.args
    out: dict[str, ast.expr | None] = {p.arg: None for p in pos}
    out.update({p.arg: d for p, d in zip(pos[len(pos) - len(a.defaults):], a.defaults)})
    out.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults)})
    return out


def none_fields(cls: ast.ClassDef) -> set[str]:
    names: set[str] = set()
    for st in cls.body:
        if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and field_none(st.value):
            names.add(st.target.id)
        if isinstance(st, ast.Assign) and field_none(st.value):
            names.update(t.id for t in st.targets if isinstance(t, ast.Name))
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == "__init__":
            defaults = param_defaults(st)
            for sub in ast.walk(st):
                if isinstance(sub, (ast.Assign, ast.AnnAssign)):
                    targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                    v = sub.value
                    if isinstance(v, ast.Name) and v.id in defaults and none(defaults[v.id]):
                        for t in targets:
                            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                                names.add(t.attr)
    return names


def callee(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "?")


def scan(path: Path):
    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return
    def walk(node: ast.AST, fn, cls):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                yield from walk(child, None, child)
                continue
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield from walk(child, child, cls)
                continue
            if isinstance(child, ast.Call):
                for k in child.keywords:
                    if k.arg != "timeout":
                        continue
                    v = k.value
                    if isinstance(v, ast.Name) and fn is not None:
                        d = param_defaults(fn)
                        if v.id in d and none(d[v.id]):
                            yield ("param", v.id, fn.name, child)
                    elif (isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and v.value.id == "self"
                          and cls is not None and v.attr in none_fields(cls)):
                        yield ("field", v.attr, cls.name, child)
            yield from walk(child, fn, cls)
    yield from walk(tree, None, None)


def setters(files: list[Path]) -> dict[str, list[bool]]:
    """callee name -> for each call of that name in the package: True when it passes timeout= other than None."""
    out: dict[str, list[bool]] = defaultdict(list)
    for path in files:
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                given = [not none(k.value) for k in node.keywords if k.arg == "timeout"]
                out[callee(node)].append(bool(given and given[0]))
    return out


def main() -> None:
    known_only = "--known-only" in sys.argv
    where = batches()
    labs = labels()
    w = csv.writer(sys.stdout, delimiter="\t", lineterminator="\n")
    w.writerow(["batch", "half", "package", "path", "line", "form", "name", "owner", "callee", "kind", "set_by_callers",
                "labels"])
    tally: Counter[tuple[str, str]] = Counter()
    pkgs: dict[str, set[str]] = defaultdict(set)
    for site in SITES:
        if not site.is_dir():
            continue
        for pkg_dir in sorted(site.iterdir()):
            if pkg_dir.name not in where:
                continue
            batch, half = where[pkg_dir.name]
            files = [p for p in pkg_dir.rglob("*.py") if not (SKIP_DIRS & set(p.relative_to(pkg_dir).parts[:-1]))
                     and ".dist-info" not in str(p)]
            sets = None
            for path in files:
                rel = str(path.relative_to(pkg_dir))
                for form, name, owner, call in scan(path):
                    kind = "known" if callee(call) in KNOWN else "other"
                    if known_only and kind != "known":
                        continue
                    if sets is None:
                        sets = setters(files)
                    calls = sets.get(owner, [])
                    who = "set" if any(calls) else ("unset" if calls else "nocaller")
                    near = [f"{c}:{v}" for ln, c, v, _ in labs.get((pkg_dir.name, rel), []) if abs(ln - call.lineno) <= 3]
                    w.writerow([batch, half, pkg_dir.name, rel, call.lineno, form, name, owner, callee(call), kind, who,
                                ",".join(near) or "-"])
                    verdict = "labelled" if near else "unlabelled"
                    tally[(f"{form}/{kind}/{who}", verdict)] += 1
                    pkgs[f"{form}/{kind}/{who}"].add(f"{pkg_dir.name}@{batch}")
    for key in sorted(pkgs):
        n = sum(v for (k, _), v in tally.items() if k == key)
        batches_n = len({p.split("@")[1] for p in pkgs[key]})
        print(f"{key}: {n} sites ({tally[(key, 'labelled')]} labelled), {len(pkgs[key])} packages, {batches_n} batches",
              file=sys.stderr)


if __name__ == "__main__":
    main()
