"""linter/client_defaults.py (s56, issue 23): TFH201 is silent on a call of a client the project has given a default
timeout on its request path (batch 28's bexhoma: every API object built on an ``ApiClient`` whose
``rest_client.request`` its factory wraps), read in the class, in a subclass of the module, and through a parameter
holding an instance of the class from another module; and what fills a default and what does not."""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from smullyan.linter.client_defaults import _function_fill
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_path

CLUSTERS = """\
from kubernetes import client
TIMEOUT = (5, 60)
class Kubernetes:
    def __init__(self):
        self.v1core = None
    def connect(self):
        self.v1core = client.CoreV1Api(api_client=self._new_api_client())
        self.plain = client.CoreV1Api()
    def _new_api_client(self):
        api_client = client.ApiClient()
        request = api_client.rest_client.request
        def request_with_timeout(*args, _request_timeout=None, **kwargs):
            return request(*args, _request_timeout=_request_timeout or TIMEOUT, **kwargs)
        api_client.rest_client.request = request_with_timeout
        return api_client
    def pods(self, ns):
        return self.v1core.list_namespaced_pod(ns)
class AWS(Kubernetes):
    def nodes(self):
        return self.v1core.list_node()
    def plain_nodes(self):
        return self.plain.list_node()
"""

ENVIRONMENT = """\
from typing import Any
from kubernetes import client as kubernetes_client
def collect_nodes(cluster: Any):
    return cluster.v1core.list_node()
def collect_plain(cluster: Any):
    return cluster.plain.list_node()
"""

RUN = """\
from app.clusters import Kubernetes
from app.environment import collect_nodes, collect_plain
def main():
    cluster = Kubernetes()
    collect_nodes(cluster)
    collect_plain(cluster)
"""


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def _tfh201(path: Path) -> list[int]:
    return sorted(f.line for f in lint_path(path, Config.default()) if f.code == "TFH201")


def test_a_factory_wrapping_the_request_path(tmp_path: Path) -> None:
    _write(tmp_path, {"app/__init__.py": "", "app/clusters.py": CLUSTERS, "app/environment.py": ENVIRONMENT,
                      "app/run.py": RUN})
    # the class's and its subclass's calls of the wrapped client are silent; the plain client's stays reported
    assert _tfh201(tmp_path / "app/clusters.py") == [22]
    # through a parameter every caller hands an instance of the class (another module): the same
    assert _tfh201(tmp_path / "app/environment.py") == [6]


def test_without_the_wrapper_every_call_is_reported(tmp_path: Path) -> None:
    plain = CLUSTERS.replace("        api_client.rest_client.request = request_with_timeout\n", "")
    _write(tmp_path, {"app/__init__.py": "", "app/clusters.py": plain, "app/environment.py": ENVIRONMENT,
                      "app/run.py": RUN})
    assert _tfh201(tmp_path / "app/clusters.py") == [16, 19, 21]
    assert _tfh201(tmp_path / "app/environment.py") == [4, 6]


def _fill(body: str) -> str | None:
    fn = cst.parse_module(body).body[0]
    assert isinstance(fn, cst.FunctionDef)
    return _function_fill(fn, "timeout")


def test_what_fills() -> None:
    # a missing or None keyword filled
    assert _fill("def f(*a, timeout=None, **kw):\n    return g(*a, timeout=timeout or 30, **kw)\n") == "none"
    assert _fill("def f(*a, **kw):\n    if kw.get('timeout') is None:\n        kw['timeout'] = 30\n    return g(*a, **kw)\n") == "none"
    assert _fill("def f(r, timeout=None):\n    if timeout is None:\n        timeout = 30\n    return g(r, timeout=timeout)\n") == "none"
    # a missing keyword only
    assert _fill("def f(*a, **kw):\n    kw.setdefault('timeout', 30)\n    return g(*a, **kw)\n") == "absent"
    assert _fill("def f(*a, **kw):\n    if 'timeout' not in kw:\n        kw['timeout'] = 30\n    return g(*a, **kw)\n") == "absent"
    # no default: forwarded as given, None, or filled under a condition the call does not decide
    assert _fill("def f(*a, timeout=None, **kw):\n    return g(*a, timeout=timeout, **kw)\n") is None
    assert _fill("def f(*a, **kw):\n    kw.setdefault('timeout', None)\n    return g(*a, **kw)\n") is None
    assert _fill("def f(*a, **kw):\n    if kw.get('timeout') is None and self.timeout is not None:\n"
                 "        kw['timeout'] = self.timeout\n    return g(*a, **kw)\n") is None
    assert _fill("def f(*a, **kw):\n    if slow:\n        kw['timeout'] = 30\n    return g(*a, **kw)\n") is None
