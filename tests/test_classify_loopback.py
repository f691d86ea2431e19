"""from_exception on what the real clients raise against a real server on loopback.

Each client (requests, httpx, urllib3, aiohttp, openai, anthropic, botocore)
talks to tests/http_faults.py's server, which acts and then fails: connection
refused (nothing listens), reset or closed after the request went out, a read
timeout, 500/502/503/504, and a 503 with ``Retry-After``. What matters for a
keyed write is the split of docs/runtime.md's table: *never sent* (nothing
happened: the key is released) against *sent, outcome unknown* (reconcile
before repeating), which ``never_happened`` reads off the ToolError.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

import pytest
from http_faults import FaultyAPI, closed_port_url

from smullyan import runtime as r
from smullyan.runtime._keys import never_happened

# The clients' read timeout: long enough that a loaded CI machine (two cores, four test workers) still reads a
# loopback 500 before it fires (0.2 s once turned a 500 into a Timeout under load), short enough that the
# slow mode, held three times as long, costs one second per client.
TIMEOUT = 1.0
MODES = ["refused", "reset-after", "close-after", "slow-after", "500", "502", "503", "504", "503-retry-before"]
NEVER_SENT = {"refused", "503-retry-before"}


@pytest.fixture(scope="module")
def api() -> Any:
    with FaultyAPI(slow_s=TIMEOUT * 3) as server:
        yield server


def _url(api: FaultyAPI, mode: str) -> str:
    return closed_port_url() + "/x" if mode == "refused" else f"{api.url}/{mode}/charge"


def _requests(url: str) -> None:
    import requests

    requests.post(url, data=b"{}", timeout=TIMEOUT).raise_for_status()


def _httpx(url: str) -> None:
    import httpx

    httpx.post(url, content=b"{}", timeout=TIMEOUT).raise_for_status()


def _urllib3(url: str) -> None:
    import urllib3

    response = urllib3.PoolManager(retries=False).request("POST", url, body=b"{}", timeout=TIMEOUT)
    if response.status >= 400:  # urllib3 raises for no status: read it as from_http does
        raise r.ToolFailure(r.from_http(response.status, response.headers))


def _aiohttp(url: str) -> None:
    import aiohttp

    async def post() -> None:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None, sock_read=TIMEOUT)) as session:
            async with session.post(url, data=b"{}") as response:
                response.raise_for_status()

    asyncio.run(post())


def _sdk(name: str) -> Callable[[str], None]:
    def call(url: str) -> None:
        import httpx

        sdk = pytest.importorskip(name)
        base, _, path = url.partition("/x") if url.endswith("/x") else url.rpartition("/charge")
        client = getattr(sdk, "OpenAI" if name == "openai" else "Anthropic")(
            base_url=base, api_key="test", max_retries=0, timeout=TIMEOUT
        )
        client.post("/charge" if not url.endswith("/x") else "/x", cast_to=httpx.Response, body={})

    return call


_S3: dict[str, Any] = {}


def _botocore(url: str) -> None:
    import botocore.session
    from botocore.config import Config

    if url.endswith("/x"):  # refused: any bucket
        endpoint, bucket = url[: -len("/x")], "refused"
    else:  # {api.url}/{mode}/charge: the mode is the bucket (path-style addressing)
        endpoint, bucket = url[: -len("/charge")].rsplit("/", 1)
    client = _S3.get(endpoint)
    if client is None:
        client = _S3[endpoint] = botocore.session.get_session().create_client(
            "s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="k", aws_secret_access_key="s",
            config=Config(retries={"total_max_attempts": 1}, connect_timeout=TIMEOUT, read_timeout=TIMEOUT,
                          s3={"addressing_style": "path"}),
        )
    client.put_object(Bucket=bucket, Key="charge", Body=b"{}")


CLIENTS: dict[str, Callable[[str], None]] = {
    "requests": _requests, "httpx": _httpx, "urllib3": _urllib3, "aiohttp": _aiohttp,
    "openai": _sdk("openai"), "anthropic": _sdk("anthropic"), "botocore": _botocore,
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("client", list(CLIENTS))
def test_never_sent_and_sent_outcome_unknown_are_told_apart(api: FaultyAPI, client: str, mode: str) -> None:
    pytest.importorskip(client if client != "botocore" else "botocore")
    before = sum(len(v) for v in api.charges.values())
    with pytest.raises(BaseException) as info:
        CLIENTS[client](_url(api, mode))
    error = r.from_exception(info.value)
    acted = sum(len(v) for v in api.charges.values()) > before
    assert acted == (mode not in NEVER_SENT)
    assert never_happened(error) == (mode in NEVER_SENT), (client, mode, type(info.value), error)
    assert r.is_retryable(error)  # every one of these is worth a retry, done safely
    if mode in ("slow-after", "reset-after", "close-after", "504"):
        assert error == r.Timeout(0), (client, mode, error)
    if mode in ("500", "502", "503"):
        assert isinstance(error, r.Unavailable) and error.status == int(mode)


def test_a_connect_timeout_was_never_sent() -> None:
    """A connect timeout of each client (built as the client does): the request never went out."""
    import aiohttp
    import botocore.exceptions
    import httpx
    import requests
    import urllib3

    request = httpx.Request("POST", "http://127.0.0.1/x")
    for exc in (requests.ConnectTimeout("connect timed out"), httpx.ConnectTimeout("slow", request=request),
                urllib3.exceptions.ConnectTimeoutError("slow"), aiohttp.ConnectionTimeoutError("slow"),
                botocore.exceptions.ConnectTimeoutError(endpoint_url="http://127.0.0.1")):
        error = r.from_exception(exc)
        assert isinstance(error, r.Unavailable) and never_happened(error), (exc, error)
