"""Shapes read in batch 9 (session 36): retry rules."""

from __future__ import annotations

import textwrap

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source


def _codes_at(src: str, path: str, select: str) -> list[str]:
    cfg = Config.default().only(select)
    return sorted(f.code for f in lint_source(textwrap.dedent(src), path, cfg))


# inference-post (batch 9): a model-provider adapter named for its vendor in a `providers` package
VENDOR_POST = """
import httpx, asyncio
class Client:
    def __init__(self, url):
        self._url = url
        self._http = httpx.AsyncClient(timeout=60)

    async def send(self, body):
        for attempt in range(3):
            try:
                return await self._http.post(self._url, json=body)
            except httpx.TransportError:
                await asyncio.sleep(2 ** attempt)
"""


def test_a_post_in_a_vendor_named_provider_module_is_inference() -> None:
    assert _codes_at(VENDOR_POST, "app/api/providers/anthropic.py", "TFH101") == []
    assert _codes_at(VENDOR_POST, "app/providers/openai_compat.py", "TFH101") == []


def test_a_vendor_name_or_a_providers_package_alone_is_no_evidence() -> None:
    assert _codes_at(VENDOR_POST, "app/openai_files.py", "TFH101") == ["TFH101"]  # may upload a file
    assert _codes_at(VENDOR_POST, "app/providers/github.py", "TFH101") == ["TFH101"]  # an OAuth/API provider
