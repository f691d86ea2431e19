"""Hypothesis strategies for ToolErrors and JSON values, shared by the tests."""

from __future__ import annotations

from hypothesis import strategies as st

from smullyan import runtime as r

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
durations = st.integers(min_value=0, max_value=10**12)
opt_text = st.none() | st.text()

tool_errors: st.SearchStrategy[r.ToolError] = st.one_of(
    st.builds(r.RateLimited, durations, opt_text),
    st.builds(r.InvalidArgs, st.text(), st.text(), json_values),
    st.builds(r.NotFound, st.text(), st.none() | st.lists(st.text(), max_size=5).map(tuple)),
    st.builds(r.Timeout, durations),
    st.builds(r.Unavailable, st.text(), st.none() | st.integers(min_value=100, max_value=599)),
    st.builds(r.Denied, st.text(), opt_text),
    st.builds(r.Unknown, st.text(), json_values.filter(lambda v: v is not None)),
    st.builds(r.Unknown, st.text()),
)
