"""Configuration: discovery, validation, selection semantics, fingerprint."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from smullyan.linter.config import Config, ConfigError
from smullyan.linter.config_files import load_config
from smullyan.linter.engine import lint_source


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    "select, ignore, code, enabled",
    [
        (("TFH",), (), "TFH201", True),
        (("TFH2",), (), "TFH201", True),
        (("TFH2",), (), "TFH401", False),
        (("TFH",), ("TFH2",), "TFH201", False),  # ignore longer than select wins
        (("TFH201",), ("TFH2",), "TFH201", True),  # select longer than ignore wins
        (("TFH2",), ("TFH2",), "TFH201", False),  # a tie goes to ignore
        (("TFH2", "TFH401"), ("TFH",), "TFH401", True),
        ((), (), "TFH201", False),
    ],
)
def test_prefix_selection(select: tuple[str, ...], ignore: tuple[str, ...], code: str, enabled: bool) -> None:
    assert Config(select=select, ignore=ignore).is_enabled(code) is enabled


def test_per_file_ignores_relative_to_the_config_directory(tmp_path: Path) -> None:
    cfg_file = write(
        tmp_path / "pyproject.toml",
        '[tool.smullyan]\nper-file-ignores = { "tests/*" = ["TFH201"], "conftest.py" = ["TFH4"] }\n',
    )
    cfg = load_config(tmp_path)
    assert cfg.source == str(cfg_file)
    assert not cfg.is_enabled("TFH201", str(tmp_path / "tests" / "test_a.py"))
    assert cfg.is_enabled("TFH202", str(tmp_path / "tests" / "test_a.py"))
    assert cfg.is_enabled("TFH201", str(tmp_path / "src" / "a.py"))
    # a glob without a slash also matches the file name anywhere
    assert not cfg.is_enabled("TFH401", str(tmp_path / "src" / "conftest.py"))
    assert cfg.is_enabled("TFH201", None)


def test_flake8_style_per_file_ignores_strings(tmp_path: Path) -> None:
    write(tmp_path / ".smullyan.yaml", "per-file-ignores:\n  - 'scripts/*.py: TFH201,TFH202'\n")
    cfg = load_config(tmp_path / "scripts" / "x.py")
    assert cfg.per_file_ignores == (("scripts/*.py", ("TFH201", "TFH202")),)
    assert not cfg.is_enabled("TFH202", str(tmp_path / "scripts" / "x.py"))


def test_discovery_nearest_wins_and_skips_foreign_pyproject(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.smullyan]\nselect = ["TFH2"]\n')
    write(tmp_path / "pkg" / "pyproject.toml", '[project]\nname = "x"\n')  # no [tool.smullyan]: skipped
    write(tmp_path / "pkg" / "sub" / ".smullyan.yaml", "select: [TFH4]\n")
    assert load_config(tmp_path / "pkg" / "mod.py").select == ("TFH2",)
    assert load_config(tmp_path / "pkg" / "sub" / "deep" / "m.py").select == ("TFH4",)
    assert load_config(tmp_path / "pkg" / "sub").select == ("TFH4",)


def test_yaml_wins_over_pyproject_in_the_same_directory(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.smullyan]\nselect = ["TFH2"]\n')
    write(tmp_path / ".smullyan.yaml", "select: [TFH4]\n")
    cfg = load_config(tmp_path)
    assert cfg.select == ("TFH4",) and cfg.source == str(tmp_path / ".smullyan.yaml")


def test_explicit_file_wins(tmp_path: Path) -> None:
    write(tmp_path / ".smullyan.yaml", "select: [TFH4]\n")
    other = write(tmp_path / "elsewhere" / "conf.toml", '[tool.smullyan]\nignore = ["TFH201"]\n')
    cfg = load_config(tmp_path, explicit=other)
    assert cfg.ignore == ("TFH201",) and cfg.select == ("TFH",)


def test_no_config_is_default(tmp_path: Path) -> None:
    cfg = load_config(tmp_path / "a.py")
    if cfg.source is None:  # unless something above the temp dir configures smullyan
        assert cfg == Config.default()


def test_all_keys_parse(tmp_path: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        """\
[tool.smullyan]
select = ["TFH"]
ignore = ["TFH402"]
classify = { "myapp.search.post" = "read-safe", "billing.charge" = "irreversible" }
timeout-required = ["mylib.fetch", "mylib.Client.call:request_timeout"]
retry-decorators = ["myapp.retry.retrying"]
[tool.smullyan.per-file-ignores]
"tests/*" = ["TFH201"]
""",
    )
    cfg = load_config(tmp_path)
    assert cfg.classify == {"myapp.search.post": "read-safe", "billing.charge": "irreversible"}
    assert cfg.timeout_required == ("mylib.fetch", "mylib.Client.call:request_timeout")
    assert cfg.retry_decorators == ("myapp.retry.retrying",)


@pytest.mark.parametrize(
    "body, key, expected",
    [
        ('selct = ["TFH2"]\n', "selct", "did you mean `select`"),
        ('select = "TFH2;TFH4"\n', "select", "rule codes"),
        ("select = 3\n", "select", "list of rule codes"),
        ('classify = { "a.b" = "safe" }\n', "classify", "read-safe, idempotent-write, non-idempotent-write, irreversible"),
        ('classify = ["a.b"]\n', "classify", "table mapping qualified names"),
        ('timeout-required = "a.b"\n', "timeout-required", "list of qualified names"),
        ('timeout-required = ["not a name"]\n', "timeout-required", "dotted qualified name"),
        ("retry-decorators = [1]\n", "retry-decorators", "list of qualified names"),
        ("per-file-ignores = 3\n", "per-file-ignores", "globs"),
    ],
)
def test_errors_name_file_key_and_expectation(tmp_path: Path, body: str, key: str, expected: str) -> None:
    path = write(tmp_path / "pyproject.toml", "[tool.smullyan]\n" + body)
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path)
    message = str(info.value)
    assert str(path) in message and key in message and expected in message


def test_invalid_toml_and_yaml(tmp_path: Path) -> None:
    bad_toml = write(tmp_path / "a" / "pyproject.toml", "[tool.smullyan\nselect = \n")
    with pytest.raises(ConfigError, match="invalid TOML") as info:
        load_config(tmp_path / "a")
    assert str(bad_toml) in str(info.value)
    bad_yaml = write(tmp_path / "b" / ".smullyan.yaml", "select: [TFH2\n")
    with pytest.raises(ConfigError, match="invalid YAML") as info:
        load_config(tmp_path / "b")
    assert str(bad_yaml) in str(info.value)
    write(tmp_path / "c" / ".smullyan.yaml", "- just\n- a list\n")
    with pytest.raises(ConfigError, match="mapping"):
        load_config(tmp_path / "c")


def test_explicit_missing_or_without_table(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path, explicit=tmp_path / "nope.toml")
    plain = write(tmp_path / "pyproject.toml", "[project]\nname = 'x'\n")
    with pytest.raises(ConfigError, match=r"no \[tool.smullyan\]"):
        load_config(tmp_path, explicit=plain)


def test_fingerprint_stable_and_sensitive() -> None:
    a = Config(select=("TFH2",), classify={"a.b": "read-safe"})
    assert a.fingerprint() == Config(select=("TFH2",), classify={"a.b": "read-safe"}).fingerprint()
    assert a.fingerprint() != Config(select=("TFH2",), classify={"a.b": "irreversible"}).fingerprint()
    assert a.fingerprint() != a.with_overrides(ignore=["TFH201"]).fingerprint()
    assert a.fingerprint() != Config(select=("TFH2",), classify={"a.b": "read-safe"}, timeout_required=("x.y",)).fingerprint()


def test_with_overrides() -> None:
    cfg = Config(select=("TFH2",), ignore=("TFH202",))
    assert cfg.with_overrides(select=["TFH4"]).select == ("TFH4",)
    assert cfg.with_overrides(ignore=[]).ignore == ()
    assert cfg.with_overrides(extend_ignore=["TFH201"]).ignore == ("TFH202", "TFH201")
    assert cfg.with_overrides().select == ("TFH2",)
    with pytest.raises(ConfigError, match="--select"):
        cfg.with_overrides(select=["tfh 2"])


def test_timeout_required_extends_knowledge() -> None:
    src = """\
import mylib
from mylib import Client
mylib.fetch("x")
mylib.fetch("x", timeout=3)
Client().call("x")
Client().call("x", request_timeout=3)
"""
    plain = lint_source(src, "m.py", Config.default())
    assert plain == []
    cfg = Config(timeout_required=("mylib.fetch", "mylib.Client.call:request_timeout"))
    found = lint_source(src, "m.py", cfg)
    assert [(f.line, f.code) for f in found] == [(3, "TFH201"), (5, "TFH201")]
    assert "request_timeout" in found[1].message


# --------------------------------------------------------------------------- issue 26, item 7: nothing silently

LIST_KEYS = ("select", "extend-select", "ignore", "extend-ignore", "fixable", "unfixable", "exclude",
             "extend-exclude", "timeout-required", "retry-decorators", "tool-decorators", "tool-base-classes",
             "tool-list-constructors")


@pytest.mark.parametrize("key", LIST_KEYS)
@pytest.mark.parametrize("kind", ["toml", "yaml"])
def test_a_string_where_a_list_belongs_is_refused_everywhere(tmp_path: Path, key: str, kind: str) -> None:
    value = "TFH2" if "select" in key or "ignore" in key or "fixable" in key else "mylib.thing"
    if kind == "toml":
        path = write(tmp_path / "pyproject.toml", f'[tool.smullyan]\n{key} = "{value}"\n')
    else:
        path = write(tmp_path / ".smullyan.yaml", f"{key}: {value}\n")
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path)
    message = str(info.value)
    assert message.startswith(f"{path}: `{key}` must be a list of ")
    assert f"got a string ('{value}'); write a list: [\"{value}\"]" in message
    # ... and the list itself is accepted
    good = f'[tool.smullyan]\n{key} = ["{value}"]\n' if kind == "toml" else f"{key}: [{value}]\n"
    path.write_text(good)
    load_config(tmp_path)


def test_per_file_ignores_values_are_lists_too(tmp_path: Path) -> None:
    write(tmp_path / ".smullyan.yaml", "per-file-ignores:\n  'tests/*': TFH201\n")
    with pytest.raises(ConfigError, match=r"`per-file-ignores.tests/\*` must be a list .* write a list: \[\"TFH201\"\]"):
        load_config(tmp_path)


def test_yaml_duplicate_keys_are_an_error_naming_the_line(tmp_path: Path) -> None:
    path = write(tmp_path / ".smullyan.yaml", "select: [TFH2]\nignore: []\nselect: [TFH4]\n")
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path)
    assert str(info.value) == (f"{path}:3: duplicate key `select` (YAML would keep only the last one; "
                               "write each key once)")
    write(tmp_path / "b" / ".smullyan.yaml", "classify:\n  a.b: read-safe\n  a.b: irreversible\n")
    with pytest.raises(ConfigError, match=r":3: duplicate key `a.b`"):
        load_config(tmp_path / "b")


@pytest.mark.parametrize(
    "body, key",
    [
        ("exclude: [build, off]\n", "exclude"),
        ("select: yes\n", "select"),
        ("extend-exclude:\n  - generated\n  - NO\n", "extend-exclude"),
        ("retry-decorators: [On]\n", "retry-decorators"),
    ],
)
def test_yaml11_booleans_are_refused_where_text_belongs(tmp_path: Path, body: str, key: str) -> None:
    write(tmp_path / ".smullyan.yaml", body)
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path)
    message = str(info.value)
    assert f"`{key}` must be a list of" in message and "a YAML 1.1 boolean" in message
    assert "quote it" in message and "\n" not in message


def test_yaml_quoted_yes_no_are_text_and_true_false_are_booleans(tmp_path: Path) -> None:
    write(tmp_path / ".smullyan.yaml", "extend-exclude: ['off', \"no\"]\n")
    assert load_config(tmp_path).extend_exclude == ("off", "no")
    write(tmp_path / "t" / ".smullyan.yaml", "extend-exclude: [true]\n")
    with pytest.raises(ConfigError, match=r"it holds a boolean \(True\)"):
        load_config(tmp_path / "t")


def test_a_template_pyproject_that_is_not_toml_is_skipped_on_the_way_up(tmp_path: Path) -> None:
    # a Jinja/cookiecutter template shipped inside a package: not TOML, never names smullyan
    write(tmp_path / "pyproject.toml", "[tool.smullyan]\nselect = ['TFH2']\n")
    write(tmp_path / "pkg" / "templates" / "pyproject.toml", "[project]\n{% if x %}\nname = 1\n{% endif %}\n")
    assert load_config(tmp_path / "pkg" / "templates").select == ("TFH2",)
    # a broken file that names smullyan is the user's configuration: its error stands
    broken = write(tmp_path / "other" / "pyproject.toml", "[tool.smullyan\nselect = ['TFH2']\n")
    with pytest.raises(ConfigError, match="invalid TOML") as info:
        load_config(tmp_path / "other")
    assert str(broken) in str(info.value)


@pytest.mark.parametrize("body", ["select: [TFH2\n", "a: b: c\n", "select:\n  - TFH2\n - TFH4\n", "key: 'open\n"])
def test_yaml_syntax_errors_are_one_line_with_the_position(tmp_path: Path, body: str) -> None:
    path = write(tmp_path / ".smullyan.yaml", body)
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path)
    message = str(info.value)
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: invalid YAML: \S", message), message
    assert "\n" not in message


def test_toml_syntax_errors_are_one_line(tmp_path: Path) -> None:
    path = write(tmp_path / "pyproject.toml", "[tool.smullyan]\nselect = [\n")
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path)
    assert str(info.value).startswith(f"{path}: invalid TOML: ") and "\n" not in str(info.value)


@pytest.mark.parametrize("typo", ["TFH9", "TFH99", "TFH2011", "TFH20111", "TFH6", "TFH206", "TFX", "TFH2X", "XFH201"])
def test_did_you_mean_never_suggests_a_broader_selector(typo: str) -> None:
    from smullyan.linter.config import selector_problem

    problem = selector_problem(typo)
    assert problem is not None
    suggested = re.search(r"did you mean '([^']*)'", problem)
    if suggested is not None:  # as specific as what was written: never a shorter prefix of it
        assert len(suggested.group(1)) == len(typo) and not typo.startswith(suggested.group(1)), problem
    if typo in ("TFH9", "TFH99", "TFH2011"):  # the TFH9 -> TFH; and no guess between equals
        assert suggested is None, problem


def test_did_you_mean_for_selectors_that_are_near_one_selector() -> None:
    from smullyan.linter.config import selector_problem

    assert "did you mean 'TFH201'" in (selector_problem("TFH2O1") or "")  # a letter O for a zero
    assert "did you mean 'TFH201'" in (selector_problem("TFH210") or "")  # two characters swapped
    assert "did you mean 'TFH20'" in (selector_problem("TFH21") or "")  # the same family
    assert "did you mean 'TFH201'" in (selector_problem("tfh201") or "")  # upper case


@pytest.mark.parametrize(
    "key, hint",
    [
        ("selct", "(did you mean `select`?)"),
        ("extend-selct", "(did you mean `extend-select`?)"),
        ("extend_ignore", "(did you mean `extend-ignore`?)"),
        ("extend-fixable", "(the extend- forms are `extend-select`, `extend-ignore`, `extend-exclude`)"),
        ("extend-per-file-ignores", "(the extend- forms are"),
        ("extend-classify", "(the extend- forms are"),
    ],
)
def test_unknown_keys_suggest_a_key_of_the_same_kind(tmp_path: Path, key: str, hint: str) -> None:
    path = write(tmp_path / "pyproject.toml", f"[tool.smullyan]\n{key} = []\n")
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path)
    assert str(info.value).startswith(f"{path}: unknown key `{key}` {hint}")
