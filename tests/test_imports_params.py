"""linter/imports_params.py (s54, issue 23): a module-level function's unannotated parameter is the client every call
of the function in the project hands it; TFH201 then reads its calls (batch 27's seekr-chain, ``list_pods(k8s_v1,
ns)`` called with ``kube.core_v1`` or a ``CoreV1Api()``)."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_path

STATE = """\
import kubernetes
from typing import Any
def list_pods(k8s_v1, namespace):
    return k8s_v1.list_namespaced_pod(namespace)
def read_all(k8s_v1, namespace):
    return list_pods(k8s_v1, namespace)
def by_keyword(ns, *, api: Any):
    return api.list_namespaced_secret(ns)
def rebound(k8s_v1, ns):
    k8s_v1 = make()
    return k8s_v1.list_namespaced_pod(ns)
def bounded(k8s_v1, ns):
    return k8s_v1.list_namespaced_pod(ns, _request_timeout=30)
"""

RUN = """\
import functools
import kubernetes
from app.state import read_all, by_keyword, rebound, bounded, list_pods
def main():
    v1 = kubernetes.client.CoreV1Api()
    read_all(v1, "ns")
    by_keyword("ns", api=v1)
    rebound(v1, "ns")
    bounded(v1, "ns")
    seed = functools.partial(list_pods, v1, "ns")
"""


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def _tfh201(root: Path) -> list[int]:
    return sorted(f.line for f in lint_path(root / "app/state.py", Config.default()) if f.code == "TFH201")


def test_every_caller_hands_a_client(tmp_path: Path) -> None:
    _write(tmp_path, {"app/__init__.py": "", "app/state.py": STATE, "app/run.py": RUN})
    # through a caller's own parameter (read_all), by keyword (an `Any` annotation), a partial's argument;
    # not a parameter the function rebinds, nor a call with its timeout
    assert _tfh201(tmp_path) == [4, 8]


def test_one_unknown_caller_answers_nothing(tmp_path: Path) -> None:
    _write(tmp_path, {"app/__init__.py": "", "app/state.py": STATE,
                      "app/run.py": RUN + "def other(x):\n    read_all(x.api, 'ns')\n    by_keyword('ns', api=object())\n"})
    assert _tfh201(tmp_path) == []


def test_a_function_used_as_a_value_or_spread_is_not_read(tmp_path: Path) -> None:
    _write(tmp_path, {"app/__init__.py": "", "app/state.py": STATE,
                      "app/run.py": RUN + "HANDLERS = [read_all]\ndef spread(args, kw):\n    by_keyword(*args, **kw)\n"})
    assert _tfh201(tmp_path) == []


def test_two_classes_or_no_caller_answer_nothing(tmp_path: Path) -> None:
    two = RUN + "def batch():\n    read_all(kubernetes.client.BatchV1Api(), 'ns')\n"
    _write(tmp_path, {"app/__init__.py": "", "app/state.py": STATE, "app/run.py": two})
    assert _tfh201(tmp_path) == [8]  # read_all's callers disagree; by_keyword's do not
    _write(tmp_path, {"app/run.py": "import app.state\n"})
    assert _tfh201(tmp_path) == []


def test_a_module_level_instance_and_a_method_of_the_caller(tmp_path: Path) -> None:
    _write(tmp_path, {"app/__init__.py": "", "app/state.py": STATE, "app/k8s_api.py": """\
from functools import cached_property
from kubernetes import client
class _KubeApi:
    @cached_property
    def core_v1(self) -> client.CoreV1Api:
        return client.CoreV1Api()
kube = _KubeApi()
""", "app/run.py": """\
from app.k8s_api import kube
from app import state
class Workflow:
    def __init__(self):
        self._v1 = kube.core_v1
    def pods(self):
        return state.read_all(self._v1, "ns")
def main():
    state.by_keyword("ns", api=kube.core_v1)
"""})
    assert _tfh201(tmp_path) == [4, 8]


def test_an_annotated_parameter_is_what_its_annotation_says(tmp_path: Path) -> None:
    """s55: only an unannotated or ``Any`` parameter is read through its callers (an annotated one is not asked:
    ``entry: dict[str, Any]`` with ``entry.get(...)`` cost a project-wide reading per function for nothing)."""
    state = STATE.replace("def list_pods(k8s_v1, namespace):", "def list_pods(k8s_v1: dict[str, Any], namespace):")
    state = state.replace("def by_keyword(ns, *, api: Any):", "def by_keyword(ns, *, api: 'Any'):")
    _write(tmp_path, {"app/__init__.py": "", "app/state.py": state, "app/run.py": RUN})
    assert _tfh201(tmp_path) == [8]  # list_pods's `dict` parameter not read; a string "Any" is Any


HELPER = """\
from kubernetes import client
class K8sHelper:
    def __init__(self, api_client=None):
        self.custom_objects_api = client.CustomObjectsApi(api_client)
"""

BASE = """\
from app.helper import K8sHelper
class Sandbox:
    def __init__(self, k8s_helper: K8sHelper | None = None):
        self.k8s_helper = k8s_helper or K8sHelper()
"""

CHILD = """\
from kubernetes import client
from app.base import Sandbox
class WithSnapshots(Sandbox):
    def snap(self, name):
        return self.k8s_helper.custom_objects_api.get_namespaced_custom_object("g", "v1", "ns", "p", name)
class Generic(Sandbox[int]):
    def snap(self, name):
        return self.k8s_helper.custom_objects_api.list_namespaced_custom_object("g", "v1", "ns", "p")
class OwnHelper(Sandbox):
    def __init__(self, helper):
        self.k8s_helper = helper
    def snap(self, name):
        return self.k8s_helper.custom_objects_api.get_namespaced_custom_object("g", "v1", "ns", "p", name)
class Bounded(Sandbox):
    def snap(self, name):
        return self.k8s_helper.custom_objects_api.get_namespaced_custom_object("g", "v1", "ns", "p", name, _request_timeout=30)
"""


def test_an_attribute_a_base_class_of_another_module_sets(tmp_path: Path) -> None:
    """s55 (batch 24's k8s-agent-sandbox): ``self.k8s_helper`` in a subclass is what the base class's ``__init__``
    sets (``Base`` or ``Base[T]``); not when the subclass sets the attribute itself, nor a call with its timeout."""
    _write(tmp_path, {"app/__init__.py": "", "app/helper.py": HELPER, "app/base.py": BASE, "app/child.py": CHILD})
    found = sorted(f.line for f in lint_path(tmp_path / "app/child.py", Config.default()) if f.code == "TFH201")
    assert found == [5, 8]


UTILS = """\
from typing import Any
from kubernetes import client
def wait_for(k8s_helper: Any, name):
    return k8s_helper.custom_objects_api.get_namespaced_custom_object("g", "v1", "ns", "p", name)
def other(k8s_helper, name):
    return k8s_helper.custom_objects_api.get_namespaced_custom_object("g", "v1", "ns", "p", name)
"""

CALLER = """\
from kubernetes import client
from app.base import Sandbox
from app.utils import wait_for, other
class WithSnapshots(Sandbox):
    def snap(self, name):
        return wait_for(self.k8s_helper, name)
class OwnHelper(Sandbox):
    def __init__(self, helper):
        self.k8s_helper = helper
    def snap(self, name):
        return other(self.k8s_helper, name)
"""


def test_a_parameter_holding_a_client_a_subclass_hands_from_its_base(tmp_path: Path) -> None:
    """s55 (batch 24's k8s-agent-sandbox ``wait_for_pod_ready(self.k8s_helper, ...)``): the caller hands
    ``self.k8s_helper`` that its base class sets (a ``K8sHelper``), and the function calls a client that object
    holds (``k8s_helper.core_v1_api.read_namespaced_pod``); not when the caller's class sets the attribute itself."""
    _write(tmp_path, {"app/__init__.py": "", "app/helper.py": HELPER, "app/base.py": BASE, "app/utils.py": UTILS,
                      "app/caller.py": CALLER})
    found = sorted(f.line for f in lint_path(tmp_path / "app/utils.py", Config.default()) if f.code == "TFH201")
    assert found == [4]


LAUNCHER = """\
import kubernetes
class Launcher:
    def __init__(self, core_api, namespace):
        self.core = core_api
        self.namespace = namespace
    def pod(self, name):
        return self.core.read_namespaced_pod(name, self.namespace)
    def helper_pods(self):
        return self.core.list_namespaced_pod(self.namespace)
"""

LAUNCH_RUN = """\
from kubernetes import client
from app.launcher import Launcher
def main(ns):
    launcher: Launcher = Launcher(core_api=client.CoreV1Api(), namespace=ns)
    return launcher
def other(ns):
    core = client.CoreV1Api()
    return Launcher(core, ns)
"""


def test_an_init_parameter_stored_on_self_is_what_every_constructor_call_hands(tmp_path: Path) -> None:
    """INVALID (s56, issue 23; batch 24's k8s-agent-sandbox ``SnapshotEngine(k8s_helper=...)``): ``self.core =
    core_api`` in ``__init__``, every ``Launcher(...)`` of another module hands a ``CoreV1Api`` (built in place or a
    name bound to one; an annotation naming the class is no call), so ``self.core.read_namespaced_pod`` is the
    library's call."""
    _write(tmp_path, {"app/__init__.py": "", "app/launcher.py": LAUNCHER, "app/run.py": LAUNCH_RUN})
    found = sorted(f.line for f in lint_path(tmp_path / "app/launcher.py", Config.default()) if f.code == "TFH201")
    assert found == [7, 9]


def test_constructor_callers_disagreeing_or_a_subclass_answer_nothing(tmp_path: Path) -> None:
    """VALID: one caller hands a ``BatchV1Api`` and another a ``CoreV1Api`` (no one class), or a subclass's instances
    are built with other arguments (a base-class use of the name is no construction): nothing is read."""
    two = LAUNCH_RUN + "def third(ns):\n    return Launcher(client.BatchV1Api(), ns)\n"
    _write(tmp_path / "a", {"app/__init__.py": "", "app/launcher.py": LAUNCHER, "app/run.py": two})
    assert not [f for f in lint_path(tmp_path / "a/app/launcher.py", Config.default()) if f.code == "TFH201"]
    sub = LAUNCH_RUN + "class Mine(Launcher):\n    pass\n"
    _write(tmp_path / "b", {"app/__init__.py": "", "app/launcher.py": LAUNCHER, "app/run.py": sub})
    assert not [f for f in lint_path(tmp_path / "b/app/launcher.py", Config.default()) if f.code == "TFH201"]


def test_a_static_factory_handing_an_override_or_a_client(tmp_path: Path) -> None:
    """INVALID (s56; batch 29's dagster-k8s ``production_client``): the class's own ``@staticmethod`` hands the
    constructor ``core_api_override or kubernetes.client.CoreV1Api(...)``; narrowing keeps that factory whole (the
    call built in place sits inside the ``or``)."""
    src = """\
import kubernetes.client
class Client:
    def __init__(self, core_api, logger):
        self.core_api = core_api
        self.logger = logger
    @staticmethod
    def production_client(core_api_override=None):
        return Client(core_api=(core_api_override or kubernetes.client.CoreV1Api()), logger=None)
    def pods(self, ns):
        return self.core_api.list_namespaced_pod(ns)
"""
    other = "from app.client import Client\ndef go(api):\n    return Client.production_client(core_api_override=api)\n"
    _write(tmp_path, {"app/__init__.py": "", "app/client.py": src, "app/launcher.py": other})
    assert [f.line for f in lint_path(tmp_path / "app/client.py", Config.default()) if f.code == "TFH201"] == [10]
