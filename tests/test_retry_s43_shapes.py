"""Session 43 (issue 23, batch 15's false retry findings): what only a file on disk can show, the shared transport
of an LLM providers package; the other shapes are VALID/INVALID examples of their rules."""

from __future__ import annotations

import textwrap
from pathlib import Path

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source

TRANSPORT = '''\
import asyncio, httpx
async def checked_post(client: httpx.AsyncClient, url, *, headers, payload):
    for attempt in range(3):
        try:
            return await client.post(url, headers=headers, json=payload, timeout=30)
        except httpx.TimeoutException:
            await asyncio.sleep(2 ** attempt)
    raise RuntimeError(url)
'''


def codes(path: Path) -> list[str]:
    cfg = Config.default().only("TFH101")
    return [f.code for f in lint_source(textwrap.dedent(TRANSPORT), str(path), cfg)]


def test_the_shared_transport_of_an_llm_providers_package_is_inference(tmp_path: Path) -> None:
    pkg = tmp_path / "pari" / "providers"
    pkg.mkdir(parents=True)
    for name in ("__init__.py", "anthropic.py", "openai_compat.py", "http.py"):
        (pkg / name).write_text("")
    assert codes(pkg / "http.py") == []


def test_a_providers_package_of_no_llm_vendor_keeps_the_finding(tmp_path: Path) -> None:
    pkg = tmp_path / "cloud" / "providers"
    pkg.mkdir(parents=True)
    for name in ("__init__.py", "aws.py", "hetzner.py", "http.py"):
        (pkg / name).write_text("")
    assert codes(pkg / "http.py") == ["TFH101"]


def test_a_module_not_named_as_transport_outside_a_providers_package_keeps_the_finding(tmp_path: Path) -> None:
    # s44: outside a ``providers`` package only the package's shared transport (``http.py``, ``sse.py``) is read as
    # the vendors' (lindwyrm, batch 16); a module named for something else (``orders.py``) keeps its finding
    pkg = tmp_path / "pari" / "net"
    pkg.mkdir(parents=True)
    for name in ("__init__.py", "anthropic.py", "orders.py"):
        (pkg / name).write_text("")
    assert codes(pkg / "orders.py") == ["TFH101"]


def test_the_shared_transport_beside_an_llm_vendor_client_is_inference(tmp_path: Path) -> None:
    # s44 (batch 16, lindwyrm): ``http.py``'s ``stream_sse(url, headers, body)`` beside ``openai_client.py`` and
    # ``client.py`` (the Anthropic one): the package's clients send their completions through it
    pkg = tmp_path / "lindwyrm"
    pkg.mkdir(parents=True)
    for name in ("__init__.py", "client.py", "openai_client.py", "http.py", "_http.py", "sse_transport.py"):
        (pkg / name).write_text("")
    assert codes(pkg / "http.py") == []
    assert codes(pkg / "_http.py") == []
    assert codes(pkg / "sse_transport.py") == []


def test_a_transport_module_of_a_package_of_no_llm_vendor_keeps_the_finding(tmp_path: Path) -> None:
    pkg = tmp_path / "shop"
    pkg.mkdir(parents=True)
    for name in ("__init__.py", "github_client.py", "stripe.py", "http.py"):
        (pkg / name).write_text("")
    assert codes(pkg / "http.py") == ["TFH101"]
