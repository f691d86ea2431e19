"""The same tools, written with smullyan.runtime: typed errors, timeouts, safe retries."""

from __future__ import annotations

import requests

from smullyan import runtime as tool
from smullyan.runtime import Err, Ok, Result, ToolError, explain, from_http, unknown


@tool.read_safe
def get_issue(repo: str, number: int, token: str) -> Result[str]:
    try:
        resp = requests.get(
            f"https://api.github.com/repos/{repo}/issues/{number}",
            headers={"Authorization": token},
            timeout=(3.05, 10),
        )
    except requests.RequestException as e:
        return Err(tool.from_exception(e))
    if resp.status_code >= 400:
        return Err(from_http(resp.status_code, dict(resp.headers), target=f"{repo}#{number}"))
    try:
        return Ok(resp.json()["title"])
    except (ValueError, KeyError) as e:
        return Err(unknown("unexpected response shape", e))


def for_the_model(result: Result[str]) -> str:
    """What the agent loop hands back to the model."""
    match result:
        case Ok(title):
            return title
        case Err(error):
            return explain(error)


def describe(error: ToolError) -> str:
    match error:
        case tool.RateLimited(retry_after_ms=ms):
            return f"wait {ms} ms"
        case tool.Timeout() | tool.Unavailable():
            return "transient"
        case tool.InvalidArgs() | tool.NotFound() | tool.Denied() | tool.Unknown():
            return "permanent"
