"""The registry sees exactly the rule files in the source tree, with no reinstall step.

``make`` installs in strict editable mode, which links only the files that
existed at install time. ``smullyan.rules`` adds its source directory to its
own path, so a rule file added since is found at once; these tests make a
stale or foreign install fail loudly instead of silently testing fewer rules.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import types
from pathlib import Path

from smullyan.linter import registry

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "rules"


def _rule_files() -> set[str]:
    """Every rule file at any depth, as a path under rules/ without ``.py`` (``retries/tfh101_...``)."""
    return {p.relative_to(RULES_DIR).with_suffix("").as_posix() for p in RULES_DIR.rglob("tfh*.py")}


def _key(module: str) -> str:
    return module.removeprefix("smullyan.rules.").replace(".", "/")


def test_every_file_in_rules_is_a_registered_rule_from_this_tree() -> None:
    registered = {_key(rule.__module__): rule for rule in registry.all_rules()}
    assert set(registered) == _rule_files(), (
        "the rules the registry found differ from the files in rules/: "
        f"missing {sorted(_rule_files() - set(registered))}, extra {sorted(set(registered) - _rule_files())}"
    )
    for key, rule in registered.items():
        source = Path(sys.modules[rule.__module__].__file__ or "").resolve()
        assert source == RULES_DIR / f"{key}.py", f"{rule.code} was imported from {source}, not from {RULES_DIR}"
        stem = key.rsplit("/", 1)[-1]
        assert stem.startswith(rule.code.lower() + "_"), f"{stem}.py holds {rule.code}: the file name must start with the code"
    assert registry.codes_from_files() == registry.all_codes()


def test_the_family_modules_beside_the_rules_hold_no_rule() -> None:
    """A model or base class file (``rules/retries/model.py``) is not a rule file: no class in it has a code."""
    from smullyan.linter.rule import Rule

    support = [p for p in RULES_DIR.rglob("*.py") if not p.name.startswith(("tfh", "_"))]
    assert {p.relative_to(RULES_DIR).as_posix() for p in support} >= {"retries/model.py", "union/base.py"}
    for path in support:
        module = importlib.import_module("smullyan.rules." + path.relative_to(RULES_DIR).with_suffix("").as_posix().replace("/", "."))
        for obj in vars(module).values():
            if isinstance(obj, types.GenericAlias):
                continue  # ``_Use = tuple[bool, ...]``: a class to isinstance() on Python 3.10, not to issubclass()
            if isinstance(obj, type) and issubclass(obj, Rule) and obj.__module__ == module.__name__:
                assert "code" not in vars(obj), f"{path}: {obj.__name__} has a code; a rule lives in a tfhNNN_<name>.py file"


def test_no_shipped_rule_uses_the_reserved_test_codes() -> None:
    for rule in registry.all_rules():
        assert not rule.code.startswith(registry.RESERVED_FOR_TESTS), (
            f"{rule.code}: {registry.RESERVED_FOR_TESTS}xx codes are reserved for tests' stand-in rules"
        )


def _link_tree(dest: Path, keep_rules: bool) -> None:
    """What ``pip install -e . --config-settings editable_mode=strict`` builds: a tree of file symlinks.

    Without ``keep_rules``, only the packages' ``__init__.py`` files are linked, and
    the ``union`` family not at all (as if it had been added after the install).
    """
    pkg = dest / "smullyan"
    pkg.mkdir()
    (pkg / "__init__.py").symlink_to(ROOT / "__init__.py")
    (pkg / "runtime").symlink_to(ROOT / "runtime", target_is_directory=True)
    for path in (ROOT / "linter").glob("*.py"):
        (pkg / "linter").mkdir(exist_ok=True)
        (pkg / "linter" / path.name).symlink_to(path)
    for path in RULES_DIR.rglob("*.py"):
        rel = path.relative_to(RULES_DIR)
        if not keep_rules and (path.name != "__init__.py" or rel.parts[0] == "union"):
            continue
        (pkg / "rules" / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / "rules" / rel).symlink_to(path)


def test_a_rule_file_added_after_a_strict_editable_install_is_found(tmp_path: Path) -> None:
    # the link tree holds no rule file at all, as if every rule had been added after `make`
    _link_tree(tmp_path, keep_rules=False)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    code = (
        "import smullyan.linter.registry as r, smullyan.rules as p;"
        "assert p.__file__.startswith(%r), p.__file__;"
        "print(' '.join(x.code for x in r.all_rules()));"
        "print(' '.join(r.codes_from_files()))" % str(tmp_path)
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    found, from_files = out.splitlines()
    assert found.split() == [rule.code for rule in registry.all_rules()]
    assert from_files.split() == registry.all_codes()
