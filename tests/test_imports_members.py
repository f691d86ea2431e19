"""linter/imports_members.py (s54, issue 23): what an attribute of a project class's instance holds, read from the
class's own module; and TFH201 on a client held that way, reached from another module."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter.imports_members import imported_member

ADAPTER = """\
from dataclasses import dataclass, field
from requests import Session
@dataclass
class Http:
    session: Session = field(init=False)
    label: str = "x"
    def __post_init__(self):
        self.session = Session()
class Plain:
    def __init__(self):
        self.client = Session()
        self.name = "p"
"""


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def test_fields_and_init_assignments_of_another_module(tmp_path: Path) -> None:
    _write(tmp_path, {"app/__init__.py": "from .http_adapter import Http\n", "app/http_adapter.py": ADAPTER,
                      "app/pipeline.py": ""})
    linted = str(tmp_path / "app/pipeline.py")
    assert imported_member(linted, "app.http_adapter.Http", "session") == ("requests.Session", True)
    assert imported_member(linted, "app.http_adapter.Plain", "client") == ("requests.Session", True)
    assert imported_member(linted, "app.Http", "session") == ("requests.Session", True)  # one re-export followed
    assert imported_member(linted, "app.http_adapter.Http", "label") is None  # not an object of a known class
    assert imported_member(linted, "app.http_adapter.Plain", "name") is None
    assert imported_member(linted, "app.http_adapter.Missing", "session") is None
    assert imported_member(linted, "requests.Session", "adapters") is None  # another project's class: not read


def test_tfh201_on_a_held_client_across_modules(tmp_path: Path) -> None:
    from smullyan.linter.config import Config
    from smullyan.linter.engine import lint_path

    _write(tmp_path, {"app/__init__.py": "", "app/http_adapter.py": ADAPTER, "app/pipeline.py": """\
from app.http_adapter import Http, Plain
def trigger(url):
    with Http().session.post(url, json={}) as response:
        return response.json()
def fetch(url):
    h = Plain()
    return h.client.get(url)
def bounded(url):
    return Http().session.get(url, timeout=10)
class Runner:
    def __init__(self):
        self.http = Http()
    def go(self, url):
        return self.http.session.get(url)
"""})
    found = lint_path(tmp_path / "app/pipeline.py", Config.default())
    assert sorted((f.line, f.code) for f in found) == [(3, "TFH201"), (7, "TFH201"), (14, "TFH201")]


KUBE = """\
import threading
import kubernetes
_lock = threading.RLock()
class _lazy:
    def __init__(self, factory):
        self._factory = factory
    def __set_name__(self, owner, name):
        self._name = name
    def __get__(self, obj, objtype=None):
        with _lock:
            if self._name not in obj.__dict__:
                obj.__dict__[self._name] = self._factory(obj)
            return obj.__dict__[self._name]
class _KubeApi:
    @_lazy
    def core_v1(self) -> kubernetes.client.CoreV1Api:
        return kubernetes.client.CoreV1Api()
    @property
    def batch_v1(self):
        return kubernetes.client.BatchV1Api()
    @_lazy
    def namespace(self) -> str:
        return "default"
    def plain(self) -> kubernetes.client.CoreV1Api:
        return kubernetes.client.CoreV1Api()
kube = _KubeApi()
other = _KubeApi()
other = None
"""


def test_a_module_level_instance_of_another_module(tmp_path: Path) -> None:
    """s54 (issue 23; batch 27's seekr-chain): ``from pkg.k8s_api import kube`` where ``kube = _KubeApi()``: its
    attributes are what the class's properties and cached descriptors (a class of the module defining ``__get__``)
    return; a plain method is no attribute's value, a name rebound to something else is no instance."""
    from smullyan.linter.imports_members import imported_global_member

    _write(tmp_path, {"app/__init__.py": "from .k8s_api import kube\n", "app/k8s_api.py": KUBE, "app/jobs.py": ""})
    linted = str(tmp_path / "app/jobs.py")
    assert imported_global_member(linted, "app.k8s_api.kube", "core_v1") == ("kubernetes.client.CoreV1Api", True)
    assert imported_global_member(linted, "app.k8s_api.kube", "batch_v1") == ("kubernetes.client.BatchV1Api", True)
    assert imported_global_member(linted, "app.kube", "core_v1") == ("kubernetes.client.CoreV1Api", True)  # re-export
    assert imported_global_member(linted, "app.k8s_api.kube", "namespace") is None
    assert imported_global_member(linted, "app.k8s_api.kube", "plain") is None
    assert imported_global_member(linted, "app.k8s_api.other", "core_v1") is None
    assert imported_global_member(linted, "kubernetes.client", "CoreV1Api") is None  # another project: not read


def test_tfh201_on_a_client_a_module_level_instance_holds(tmp_path: Path) -> None:
    from smullyan.linter.config import Config
    from smullyan.linter.engine import lint_path

    _write(tmp_path, {"app/__init__.py": "", "app/k8s_api.py": KUBE, "app/jobs.py": """\
import kubernetes
from app.k8s_api import kube
def nodes():
    return kube.core_v1.list_node()
def secrets(ns):
    v1 = kube.core_v1
    return v1.list_namespaced_secret(ns)
class Workflow:
    def __init__(self):
        self._batch = kube.batch_v1
    def jobs(self, ns):
        return self._batch.list_namespaced_job(ns)
def bounded(ns):
    return kube.core_v1.list_namespaced_pod(ns, _request_timeout=30)
"""})
    found = lint_path(tmp_path / "app/jobs.py", Config.default())
    assert sorted((f.line, f.code) for f in found) == [(4, "TFH201"), (7, "TFH201"), (12, "TFH201")]


def _held(path: Path) -> list[int]:
    import ast

    from smullyan.linter.knowledge import Knowledge
    from smullyan.linter.packages import package_of
    from smullyan.linter.rule import Screen
    from smullyan.rules.timeouts.screen import held_calls

    screen = Screen(ast.parse(path.read_text()), package_of(str(path)), str(path))
    return sorted(c.lineno for c in held_calls(screen, Knowledge.build()))


def test_the_screen_keeps_held_calls_only_where_a_client_can_be_held(tmp_path: Path) -> None:
    """s55: `x.y.get(...)` is a TFH201 candidate only when a class of a module importing a client (this one for
    `self.y`, another of the project for an imported class) binds an attribute `y`: a dict's `.get` in a project of
    plain models leaves the file unparsed, as before s54."""
    pipeline = """\
from app.models import Record
from app.http_adapter import Http
class Runner:
    def go(self, url):
        Http().session.get(url)
        Http().label.get(url)
        return self.cache.get(url)
"""
    _write(tmp_path, {"app/__init__.py": "", "app/http_adapter.py": ADAPTER, "app/pipeline.py": pipeline,
                      "app/models.py": "import json\nclass Record:\n    session: dict\n",
                      "app/plain.py": pipeline.replace("from app.http_adapter import Http\n", ""),
                      "app/own.py": "import httpx\n" + pipeline.replace("from app.http_adapter import Http\n", "").replace(
                          "    def go", "    def __init__(self):\n        self.cache = httpx.Client()\n    def go")})
    # Http's module imports requests and binds `session` and `label`; Runner's own module imports no client
    assert _held(tmp_path / "app/pipeline.py") == [5, 6]
    # Record's module imports json only, and this one no client
    assert _held(tmp_path / "app/plain.py") == []
    # this module imports httpx: its own classes can hold a client under what they bind (`cache`), not elsewhere
    assert _held(tmp_path / "app/own.py") == [9]


GEFYRA = """\
from typing import Any
class ClientConfiguration:
    def __init__(self, kube_config_file=None):
        self.KUBE_CONFIG_FILE = kube_config_file
    def _init_kubeapi(self):
        from kubernetes.client import CoreV1Api, CustomObjectsApi
        from kubernetes.config import load_kube_config
        load_kube_config(self.KUBE_CONFIG_FILE)
        self.K8S_CORE_API = CoreV1Api()
        self.K8S_CUSTOM_OBJECT_API = CustomObjectsApi()
    def __getattr__(self, item):
        if item in ("K8S_CORE_API", "K8S_CUSTOM_OBJECT_API"):
            self._init_kubeapi()
        return self.__getattribute__(item)
class Kube:
    def __init__(self, core_api: Any) -> None:
        self.core = core_api
    @classmethod
    def from_context(cls, context):
        from kubernetes import client, config
        return cls(client.CoreV1Api(config.new_client_from_config(context=context)))
"""


def test_a_client_built_after_an_import_inside_the_method_of_another_module(tmp_path: Path) -> None:
    """s56 (issue 23; batch 28's gefyra): the class's method imports the API class and assigns `self`; the module
    calling it imports only the project's class (no kubernetes import: the screen keeps the family's requests on an
    instance of it); batch 28's multihull: an `__init__` parameter the class's factory hands a client built in place."""
    from smullyan.linter.config import Config
    from smullyan.linter.engine import lint_path

    _write(tmp_path, {"app/__init__.py": "", "app/configuration.py": GEFYRA, "app/operator.py": """\
from app.configuration import ClientConfiguration, Kube
def update(kubeconfig=None):
    config = ClientConfiguration(kube_config_file=kubeconfig)
    return config.K8S_CORE_API.read_namespaced_namespace(name="gefyra")
def bounded(config: ClientConfiguration):
    return config.K8S_CUSTOM_OBJECT_API.list_namespaced_custom_object("g", "v1", "ns", "p", _request_timeout=5)
def pods(kube: Kube):
    return kube.core.list_namespaced_pod("default")
def unrelated(store):
    return store.cache.get_item("k")
"""})
    linted = str(tmp_path / "app/operator.py")
    assert imported_member(linted, "app.configuration.ClientConfiguration", "K8S_CORE_API") == (
        "kubernetes.client.CoreV1Api", True)
    assert imported_member(linted, "app.configuration.Kube", "core") == ("kubernetes.client.CoreV1Api", True)
    assert imported_member(linted, "app.configuration.ClientConfiguration", "KUBE_CONFIG_FILE") is None
    found = lint_path(tmp_path / "app/operator.py", Config.default())
    assert sorted((f.line, f.code) for f in found) == [(4, "TFH201"), (8, "TFH201")]
