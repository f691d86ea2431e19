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


def test_the_same_module_outside_a_providers_package_keeps_the_finding(tmp_path: Path) -> None:
    pkg = tmp_path / "pari" / "net"
    pkg.mkdir(parents=True)
    for name in ("__init__.py", "anthropic.py", "http.py"):
        (pkg / name).write_text("")
    assert codes(pkg / "http.py") == ["TFH101"]
