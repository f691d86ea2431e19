"""The wire format: dump / parse / parse_json."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import json_values, tool_errors

from smullyan import runtime as r


def test_dump_uses_camel_case_and_omits_absent_optionals() -> None:
    assert r.dump(r.RateLimited(1200, "60/min")) == {"_tag": "RateLimited", "retryAfterMs": 1200, "limit": "60/min"}
    assert r.dump(r.RateLimited(1200)) == {"_tag": "RateLimited", "retryAfterMs": 1200}
    assert r.dump(r.RateLimited()) == {"_tag": "RateLimited"}  # no advice: no field (issue 21)
    assert r.parse({"_tag": "RateLimited"}) == r.RateLimited(None)
    assert r.dump(r.Timeout(5)) == {"_tag": "Timeout", "afterMs": 5}
    assert r.dump(r.NotFound("x", ("a",))) == {"_tag": "NotFound", "searched": "x", "suggestions": ["a"]}
    assert r.dump(r.Unavailable("down", 503)) == {"_tag": "Unavailable", "reason": "down", "status": 503}
    assert r.dump(r.Denied("no", "scope")) == {"_tag": "Denied", "reason": "no", "required": "scope"}
    assert r.dump(r.InvalidArgs("p", "int", None)) == {"_tag": "InvalidArgs", "path": "p", "expected": "int", "got": None}
    assert r.dump(r.Unknown("boom")) == {"_tag": "Unknown", "message": "boom"}


def test_dump_makes_non_json_values_json_safe() -> None:
    d = r.dump(r.Unknown("boom", ValueError("bad")))
    assert d["cause"] == "ValueError: bad"
    d = r.dump(r.InvalidArgs("p", "float", float("nan")))
    assert json.loads(json.dumps(d))["got"] == "nan"
    json.dumps(r.dump(r.InvalidArgs("p", "x", {1: (object(),)})))  # must not raise


@settings(max_examples=300)
@given(tool_errors)
def test_round_trip(error: r.ToolError) -> None:
    assert r.parse(r.dump(error)) == error
    assert r.parse_json(r.dump_json(error)) == error


@pytest.mark.parametrize(
    "payload",
    [
        {"_tag": "RateLimit", "retryAfterMs": 1},  # unknown tag
        {"retryAfterMs": 1},  # no tag
        {"_tag": "RateLimited", "retryAfterMs": "1200"},  # string, never cast
        {"_tag": "RateLimited", "retryAfterMs": True},  # bool is not an int
        {"_tag": "RateLimited", "retryAfterMs": -1},  # negative duration
        {"_tag": "RateLimited", "retryAfterMs": math.inf},  # non-finite
        {"_tag": "RateLimited", "retryAfterMs": math.nan},
        {"_tag": "RateLimited", "retryAfterMs": 1.5},  # not integral
        {"_tag": "RateLimited", "retryAfterMs": 1, "limit": 5},
        {"_tag": "Timeout", "afterMs": -5},
        {"_tag": "NotFound", "searched": "x", "suggestions": "a,b"},  # non-list suggestions
        {"_tag": "NotFound", "searched": "x", "suggestions": ["a", 1]},
        {"_tag": "NotFound", "searched": "x", "suggestions": ("a",)},  # a tuple is not a JSON list
        {"_tag": "InvalidArgs", "path": "p", "expected": "e"},  # got is required
        {"_tag": "Unavailable", "reason": "x", "status": "503"},
        {"_tag": "Unavailable", "reason": "x", "status": False},
        {"_tag": "Denied", "reason": None},
        {"_tag": "Unknown"},
        {"_tag": None},
        [],
        "RateLimited",
        None,
        42,
    ],
)
def test_parse_rejects(payload: object) -> None:
    assert r.parse(payload) is None


def test_parse_accepts_integral_float_and_ignores_extra_keys() -> None:
    assert r.parse({"_tag": "Timeout", "afterMs": 1000.0}) == r.Timeout(1000)
    assert r.parse({"_tag": "Timeout", "afterMs": 1, "traceId": "x"}) == r.Timeout(1)
    assert r.parse({"_tag": "Unavailable", "reason": "x", "status": None}) == r.Unavailable("x")


class Hostile(dict):  # type: ignore[type-arg]
    def get(self, *a: object, **k: object) -> object:
        raise RuntimeError("boom")

    def __getitem__(self, key: object) -> object:
        raise RuntimeError("boom")


class WeirdEq:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no")

    __hash__ = None  # type: ignore[assignment]


@settings(max_examples=300)
@given(json_values)
def test_parse_never_raises_on_json(value: object) -> None:
    result = r.parse(value)
    assert result is None or isinstance(result, (r.RateLimited, r.InvalidArgs, r.NotFound, r.Timeout, r.Unavailable, r.Denied, r.Unknown))
    r.parse_json(json.dumps(value))


@settings(max_examples=200)
@given(st.from_type(type).flatmap(st.from_type) | st.builds(object) | st.just(Hostile(_tag="Timeout")) | st.builds(WeirdEq))
def test_parse_never_raises_on_arbitrary_objects(value: object) -> None:
    r.parse(value)
    r.parse({"_tag": value, "afterMs": value})


@settings(max_examples=200)
@given(st.text() | st.binary())
def test_parse_json_never_raises(text: str | bytes) -> None:
    assert r.parse_json(text) is None or isinstance(r.parse_json(text), object)


def test_parse_json_bounds_size_and_depth() -> None:
    deep = '{"_tag": "Unknown", "message": "m", "cause": ' + "[" * 10_000 + "]" * 10_000 + "}"
    assert r.parse_json(deep) is None
    shallow = '{"_tag": "Unknown", "message": "m", "cause": [[["x"]]]}'
    assert r.parse_json(shallow) == r.Unknown("m", [[["x"]]])
    big = json.dumps({"_tag": "Unknown", "message": "x" * 2_000_000})
    assert r.parse_json(big) is None
    assert r.parse_json(big, max_bytes=3_000_000) == r.Unknown("x" * 2_000_000)
    # brackets inside strings do not count as nesting
    assert r.parse_json(json.dumps({"_tag": "Unknown", "message": "[" * 1000})) == r.Unknown("[" * 1000)
    assert r.parse_json(b'{"_tag": "Timeout", "afterMs": 3}') == r.Timeout(3)
    assert r.parse_json(b"\xff\xfe") is None
    assert r.parse_json("not json") is None
