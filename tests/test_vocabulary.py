"""The ToolError vocabulary: variants, constructors, Result, retryability."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from smullyan import runtime as r

VARIANTS = [r.RateLimited, r.InvalidArgs, r.NotFound, r.Timeout, r.Unavailable, r.Denied, r.Unknown]


@pytest.mark.parametrize("cls", VARIANTS)
def test_variant_is_frozen_slotted_and_tagged(cls: type) -> None:
    assert cls.tag == cls.__name__
    assert "__slots__" in cls.__dict__
    assert dataclasses.is_dataclass(cls)
    fields = [f.name for f in dataclasses.fields(cls)]
    assert all(name == name.lower() for name in fields)  # snake_case
    instance = cls(*[0 if f.type in ("int",) else "x" for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING])
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(instance, fields[0], 1)
    assert instance.tag == cls.__name__
    assert "tag" not in fields  # class-level, not a field: never part of equality


def test_tags_list_every_variant_in_order() -> None:
    assert r.TAGS == tuple(cls.__name__ for cls in VARIANTS)


def test_lower_case_constructors_mirror_classes() -> None:
    assert r.rate_limited(1200, "60/min") == r.RateLimited(1200, "60/min")
    assert r.invalid_args("a.b", "int", "x") == r.InvalidArgs("a.b", "int", "x")
    assert r.not_found("repo", ["a", "b"]) == r.NotFound("repo", ("a", "b"))
    assert r.not_found("repo") == r.NotFound("repo", None)
    assert r.timeout(5000) == r.Timeout(5000)
    assert r.unavailable("down", 503) == r.Unavailable("down", 503)
    assert r.denied("no", "repo:write") == r.Denied("no", "repo:write")
    assert r.unknown("boom") == r.Unknown("boom", None)


def test_retryability_table() -> None:
    assert [r.is_retryable(e) for e in (
        r.RateLimited(1), r.Timeout(1), r.Unavailable("x"),
        r.InvalidArgs("p", "e", 1), r.Denied("x"), r.NotFound("x"), r.Unknown("x"),
    )] == [True, True, True, False, False, False, False]


def describe(result: r.Result[int]) -> str:
    match result:
        case r.Ok(value):
            return f"ok {value}"
        case r.Err(r.RateLimited(retry_after_ms=ms)):
            return f"wait {ms}"
        case r.Err(error):
            return f"err {error.tag}"
    return "unreachable"


def test_ok_err_work_in_match() -> None:
    assert describe(r.Ok(3)) == "ok 3"
    assert describe(r.Err(r.RateLimited(1200))) == "wait 1200"
    assert describe(r.Err(r.Denied("no"))) == "err Denied"


def test_tool_failure_carries_the_error() -> None:
    err = r.not_found("issue 7")
    exc = r.ToolFailure(err)
    assert exc.error is err
    assert "NotFound" in str(exc)
    assert r.from_exception(exc) is err


def test_importing_runtime_pulls_in_no_linter_dependencies() -> None:
    code = (
        "import sys, smullyan.runtime;"
        "bad = [m for m in ('libcst', 'flake8', 'yaml', 'smullyan.linter', 'smullyan.rules',"
        " 'opentelemetry', 'smullyan.runtime.otel') if m in sys.modules];"
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"
