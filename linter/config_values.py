"""The configuration's values: the error every mistake raises (``ConfigError``), the rule
selectors' check, and one parser per setting (``PARSERS``), each naming the key and what was
expected. ``config.py`` holds the settings (``Config``) and reads a mapping through these."""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from .knowledge import CLASSES, TIMEOUT_KINDS
from .suggest import closest_selector, key_hint

_QUALNAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


class ConfigError(Exception):
    """A configuration mistake; ``str()`` is the complete user-facing message."""


_KNOWN_CODES: tuple[str, ...] | None = None


def known_codes() -> tuple[str, ...]:
    """Every rule code, pseudo-codes included (read from file names: imports no rule)."""
    global _KNOWN_CODES
    if _KNOWN_CODES is None:
        from .registry import codes_from_files

        _KNOWN_CODES = tuple(codes_from_files())
    return _KNOWN_CODES


def selector_problem(selector: str, codes: "tuple[str, ...] | None" = None) -> str | None:
    """Why ``selector`` selects no rule (with a did-you-mean), or None when it is valid.

    A selector is a rule code or a prefix of one, upper case: ``TFH``, ``TFH2``,
    ``TFH201``. Lower case is refused, as flake8 and ruff refuse it, with the
    upper-case spelling suggested.
    """
    codes = known_codes() if codes is None else codes
    if selector and any(code.startswith(selector) for code in codes):
        return None
    if selector.upper() != selector and any(c.startswith(selector.upper()) for c in codes):
        return f"unknown rule selector {selector!r} (codes are upper case: did you mean {selector.upper()!r}?)"
    if not selector:
        return "empty rule selector"
    close = closest_selector(selector.upper(), codes)
    hint = f" (did you mean {close!r}?)" if close else ""
    if not selector.upper().startswith("TFH"):
        hint += "; smullyan's rules are TFH codes (other tools' codes belong in their own config)"
    return (
        f"unknown rule selector {selector!r}{hint}; expected rule codes or prefixes like "
        "TFH2 or TFH201 (`smullyan rules` lists them)"
    )


def check_selectors(where: str, key: str, codes: "tuple[str, ...] | list[str]") -> tuple[str, ...]:
    """``codes`` unchanged when every one is a valid selector; else a ConfigError naming ``key``."""
    known = known_codes()
    for code in codes:
        problem = selector_problem(code, known)
        if problem is not None:
            raise ConfigError(f"{where}: `{key}`: {problem}")
    return tuple(codes)


def _string_list(file: str, key: str, value: Any, what: str) -> list[str]:
    """``value`` if it is a list of strings; else a ConfigError naming ``key`` and ``what`` it must be.

    A string is refused in TOML and YAML alike, with the list it should be spelt out
    (``"TFH2,TFH4"`` -> ``["TFH2", "TFH4"]``), and so is an item of another type (a
    YAML 1.1 ``off``, a number), named.
    """
    if isinstance(value, str):
        items = [v.strip() for v in value.split(",") if v.strip()]
        raise ConfigError(
            f"{file}: `{key}` must be {what}, got a string ({value!r}); write a list: {json.dumps(items)}"
        )
    if not isinstance(value, list):
        raise ConfigError(f"{file}: `{key}` must be {what}, got {show(value)}")
    for item in value:
        if not isinstance(item, str):
            raise ConfigError(f"{file}: `{key}` must be {what}; it holds {show(item)}")
    return value


def _codes(file: str, key: str, value: Any) -> tuple[str, ...]:
    what = 'a list of rule codes or prefixes (like ["TFH2", "TFH401"])'
    if isinstance(value, str) and value.upper() != value:  # spell out the list as it must be written
        items = [v.strip().upper() for v in value.split(",") if v.strip()]
        raise ConfigError(f"{file}: `{key}` must be {what}, got a string ({value!r}); write a list, "
                          f"in upper case as codes are: {json.dumps(items)}")
    codes = _string_list(file, key, value, what)
    return check_selectors(file, key, [c.strip() for c in codes])


def _globs(file: str, key: str, value: Any) -> tuple[str, ...]:
    what = 'a list of file or directory globs (like ["generated/", "*_pb2.py"])'
    globs = _string_list(file, key, value, what)
    if not all(g.strip() for g in globs):
        raise ConfigError(f"{file}: `{key}` must be {what}; it holds an empty glob")
    return tuple(g.strip() for g in globs)


def _qualnames(file: str, key: str, value: Any, allow_keyword: bool = False) -> tuple[str, ...]:
    what = "a list of qualified names (like [\"mylib.client.fetch\"])"
    if allow_keyword and isinstance(value, dict):
        items = []
        for name, kw in value.items():
            if not isinstance(kw, str) or not kw.isidentifier():
                raise ConfigError(
                    f"{file}: `{key}` maps {name!r} to {show(kw)}; expected the name of its timeout keyword"
                )
            items.append(f"{name}:{kw}")
        value = items
    value = _string_list(file, key, value, what)
    for v in value:
        name, _, kw = v.partition(":") if allow_keyword else (v, "", "")
        if not _QUALNAME_RE.match(name) or (kw and not kw.isidentifier()):
            hint = " or \"name:keyword\"" if allow_keyword else ""
            raise ConfigError(f"{file}: `{key}` has {v!r}; expected a dotted qualified name{hint}")
    return tuple(value)


def _classify(file: str, value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        raise ConfigError(
            f"{file}: `classify` must be a table mapping qualified names to one of "
            f"{', '.join(CLASSES)}, got {show(value)}"
        )
    out: dict[str, str] = {}
    for name, cls in value.items():
        if not isinstance(name, str) or not _QUALNAME_RE.match(name):
            raise ConfigError(f"{file}: `classify` has key {name!r}; expected a dotted qualified name")
        if cls not in CLASSES:
            raise ConfigError(
                f"{file}: `classify` maps {name!r} to {cls!r}; expected one of {', '.join(CLASSES)}"
            )
        out[name] = cls
    return out


def _registrars(file: str, value: Any) -> tuple[tuple[str, str, int | None], ...]:
    """``tool-registrars``: calls that make a tool of a function they are handed, as ``(qualified name, keyword,
    position)``. A list names calls taking the function first (``["myproj.tools.Registry.register"]``); a table
    says where: a position (``0``), a keyword (``"func"``), or both (``{position = 1, keyword = "handler"}``)."""
    key = "tool-registrars"
    what = ('a list of qualified names (like ["myproj.Registry.register"]) or a table mapping each to the position '
            '(0, 1, ...) or keyword ("func") of the function it is handed, or both ({position = 1, keyword = "handler"})')
    pairs: list[tuple[Any, Any]]
    if isinstance(value, dict):
        pairs = list(value.items())
    else:
        pairs = [(name, 0) for name in _string_list(file, key, value, what)]
    out: list[tuple[str, str, int | None]] = []
    for name, where in pairs:
        if not isinstance(name, str) or not _QUALNAME_RE.match(name):
            raise ConfigError(f"{file}: `{key}` has {name!r}; expected a dotted qualified name")
        spec = where if isinstance(where, dict) else {"keyword": where} if isinstance(where, str) else {"position": where}
        unknown = [k for k in spec if k not in ("position", "keyword")]
        if unknown or not spec:
            raise ConfigError(f"{file}: `{key}` maps {name!r} to {show(where)}; expected {what}")
        position, keyword = spec.get("position"), spec.get("keyword", "")
        if position is not None and (isinstance(position, bool) or not isinstance(position, int) or position < 0):
            raise ConfigError(f"{file}: `{key}` gives {name!r} the position {show(position)}; expected a whole "
                              "number, 0 for the first argument")
        if not isinstance(keyword, str) or (keyword and not keyword.isidentifier()):
            raise ConfigError(f"{file}: `{key}` gives {name!r} the keyword {show(keyword)}; expected the name of "
                              "the parameter the function is handed as")
        out.append((name, keyword, position))
    return tuple(out)


def _clients(file: str, value: Any) -> tuple[tuple[str, str], ...]:
    """``clients``: a project's function or attribute -> the client class its value is an instance of."""
    key = "clients"
    if not isinstance(value, dict):
        raise ConfigError(f"{file}: `{key}` must be a table mapping a project's function or attribute to the client "
                          f"class its value is (like {{\"myproj.http.Http.session\" = \"requests.Session\"}}), "
                          f"got {show(value)}")
    out: list[tuple[str, str]] = []
    for name, cls in value.items():
        if not isinstance(name, str) or not _QUALNAME_RE.match(name):
            raise ConfigError(f"{file}: `{key}` has key {name!r}; expected the dotted qualified name of a function or "
                              "attribute")
        if not isinstance(cls, str) or not _QUALNAME_RE.match(cls) or not cls.rsplit(".", 1)[-1][:1].isupper():
            raise ConfigError(f"{file}: `{key}` maps {name!r} to {show(cls)}; expected the qualified name of a "
                              "client class (like \"requests.Session\", \"httpx.AsyncClient\")")
        out.append((name, cls))
    return tuple(sorted(out))


def _per_file_ignores(file: str, value: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    key = "per-file-ignores"
    pairs: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        pairs = list(value.items())
    elif isinstance(value, (list, str)):
        lines = value if isinstance(value, list) else value.splitlines()
        for line in lines:
            if not isinstance(line, str) or ":" not in line:
                raise ConfigError(
                    f"{file}: `{key}` entry {show(line)} must look like \"glob:CODE,CODE\""
                )
            glob, _, codes = line.partition(":")
            pairs.append((glob.strip(), [c.strip() for c in codes.split(",") if c.strip()]))
    else:
        raise ConfigError(
            f"{file}: `{key}` must be a table mapping globs to lists of codes "
            f"(like {{\"tests/*\" = [\"TFH201\"]}}), got {show(value)}"
        )
    out = []
    for glob, codes in pairs:
        if not isinstance(glob, str) or not glob.strip():
            raise ConfigError(f"{file}: `{key}` has key {glob!r}; expected a file glob")
        out.append((glob.strip(), _codes(file, f"{key}.{glob}", codes)))
    return tuple(out)


def _positive_number(file: str, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or value != value or value == float("inf"):
        raise ConfigError(f"{file}: `{key}` must be a positive number of seconds (like 30), got {show(value)}")
    return value


def seconds_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _timeout_seconds(file: str, key: str, value: Any) -> float | tuple[tuple[str, float], ...]:
    """A number of seconds, or a table of them by kind (``{http = 30, process = 300}``)."""
    if not isinstance(value, dict):
        return _positive_number(file, key, value)
    if not value:
        raise ConfigError(f"{file}: `{key}` is an empty table; give seconds by kind ({', '.join(TIMEOUT_KINDS)}) "
                          "or one number")
    out: list[tuple[str, float]] = []
    for kind, seconds in value.items():
        if kind not in TIMEOUT_KINDS:
            raise ConfigError(f"{file}: `{key}` has unknown kind `{kind}`{key_hint(str(kind), TIMEOUT_KINDS)}; "
                              f"expected one of: {', '.join(TIMEOUT_KINDS)}")
        out.append((kind, _positive_number(file, f"{key}.{kind}", seconds)))
    return tuple(sorted(out))


def _attempts(file: str, key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{file}: `{key}` must be a whole number of attempts, 1 or more (like 3), got {show(value)}")
    return value


class Yaml11Bool:
    """An unquoted ``yes``/``no``/``on``/``off`` in a ``.smullyan.yaml``: a boolean in YAML 1.1,
    text in YAML 1.2, absent from TOML. ``config_files`` reads it as this marker, which every
    setting refuses (:func:`show` says why), so its meaning is never guessed."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Yaml11Bool) and other.text == self.text

    def __hash__(self) -> int:
        return hash(("yaml11-bool", self.text))


def _boolean(file: str, key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{file}: `{key}` must be true or false, got {show(value)}")
    return value


def show(value: Any) -> str:
    if isinstance(value, Yaml11Bool):
        return (f"a YAML 1.1 boolean ({value.text}; quote it, '{value.text}', to mean the text; "
                "a boolean is true or false)")
    kind = {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list",
            dict: "a table", type(None): "nothing"}.get(type(value), type(value).__name__)
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{kind} ({text})"


PARSERS: dict[str, Callable[[str, Any], Any]] = {
    "select": lambda f, v: _codes(f, "select", v),
    "extend-select": lambda f, v: _codes(f, "extend-select", v),
    "ignore": lambda f, v: _codes(f, "ignore", v),
    "extend-ignore": lambda f, v: _codes(f, "extend-ignore", v),
    "per-file-ignores": _per_file_ignores,
    "exclude": lambda f, v: _globs(f, "exclude", v),
    "extend-exclude": lambda f, v: _globs(f, "extend-exclude", v),
    "classify": _classify,
    "timeout-required": lambda f, v: _qualnames(f, "timeout-required", v, allow_keyword=True),
    "retry-decorators": lambda f, v: _qualnames(f, "retry-decorators", v),
    "fixable": lambda f, v: _codes(f, "fixable", v),
    "unfixable": lambda f, v: _codes(f, "unfixable", v),
    "unsafe-fixes": lambda f, v: _boolean(f, "unsafe-fixes", v),
    "default-timeout-seconds": lambda f, v: _timeout_seconds(f, "default-timeout-seconds", v),
    "default-max-attempts": lambda f, v: _attempts(f, "default-max-attempts", v),
    "tool-decorators": lambda f, v: _qualnames(f, "tool-decorators", v),
    "tool-base-classes": lambda f, v: _qualnames(f, "tool-base-classes", v),
    "tool-list-constructors": lambda f, v: _qualnames(f, "tool-list-constructors", v),
    "tool-registrars": _registrars,
    "clients": _clients,
    "test-modules": lambda f, v: _test_globs(f, v),
    "extend": lambda f, v: _extend_path(f, v),
}


def _test_globs(file: str, value: Any) -> tuple[str, ...]:
    """``test-modules``: the globs of the project's test files (``[]``: none; every rule runs everywhere)."""
    what = 'a list of file globs (like ["tests/*", "test_*.py"]; [] for none)'
    globs = _string_list(file, "test-modules", value, what)
    if not all(g.strip() for g in globs):
        raise ConfigError(f"{file}: `test-modules` must be {what}; it holds an empty glob")
    return tuple(g.strip() for g in globs)


def _extend_path(file: str, value: Any) -> str:
    """``extend``: the configuration file this one starts from (read by ``config_files``)."""
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{file}: `extend` must be the path of a configuration file (like \"../pyproject.toml\"), "
                          f"got {show(value)}")
    return value.strip()
