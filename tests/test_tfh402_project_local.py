"""TFH402: a receiver named for one of the project's own classes whose implementations of the method do only local
work is no remote read (s43: lingtai's notification store of local JSON files, 3 false on batch 15)."""

from __future__ import annotations

from pathlib import Path

import pytest

from smullyan.linter import engine
from smullyan.linter.config import Config

PORT = '''
from abc import ABC, abstractmethod


class NotificationStorePort(ABC):
    @abstractmethod
    def snapshot(self, allow):
        """Every channel's payload."""
'''

LOCAL_ADAPTER = '''
import json
import threading
from pathlib import Path

from app.kernel.store import NotificationStorePort


class PosixNotificationStoreAdapter(NotificationStorePort):
    def __init__(self, workdir):
        self._workdir = Path(workdir)
        self._lock = threading.Lock()

    def snapshot(self, allow):
        return {f.stem: json.loads(f.read_bytes()) for f in self._workdir.glob("*.json") if allow(f.stem)}
'''

REMOTE_ADAPTER = '''
import httpx

from app.kernel.store import NotificationStorePort


class HttpNotificationStoreAdapter(NotificationStorePort):
    def snapshot(self, allow):
        return httpx.get("https://example.com/notifications").json()
'''

# s49: the callers' objects are typed by a third-party class (a receiver's name alone is no evidence of a remote read);
# what the project implements the method as then decides
CALLER = '''import sdk_agents
def current_entries(agent: sdk_agents.Agent):
    try:
        snapshot = agent._notification_store.snapshot(None)
        return list(snapshot.get("nudges", []))
    except Exception:
        return []


def notification_metadata(agent: sdk_agents.Agent):
    try:
        store = agent._notification_store
        notifications = store.snapshot(None)
    except Exception:
        return {"sources": []}
    return {"sources": list(notifications)}


def entries(agent: sdk_agents.Agent):
    try:
        return list(agent.store.snapshot(None))
    except Exception:
        return []
'''


def _project(tmp_path: Path, *adapters: str) -> Path:
    (tmp_path / "app" / "kernel").mkdir(parents=True)
    (tmp_path / "app" / "adapters").mkdir()
    for init in ("app", "app/kernel", "app/adapters"):
        (tmp_path / init / "__init__.py").write_text("")
    (tmp_path / "app" / "kernel" / "store.py").write_text(PORT)
    for i, adapter in enumerate(adapters):
        (tmp_path / "app" / "adapters" / f"a{i}.py").write_text(adapter)
    caller = tmp_path / "app" / "kernel" / "nudge.py"
    caller.write_text(CALLER)
    return caller


def _lines(path: Path) -> list[int]:
    config = Config.default()
    return [f.line for f in engine.lint_source(path.read_bytes(), str(path), config) if f.code == "TFH402"]


def test_a_store_the_project_implements_on_local_files_is_not_remote(tmp_path: Path) -> None:
    # the one-word receiver (``agent.store``) says too little to name a project class: still a store
    assert _lines(_project(tmp_path, LOCAL_ADAPTER)) == [22]


@pytest.mark.parametrize("adapters", [(), (REMOTE_ADAPTER,), (LOCAL_ADAPTER, REMOTE_ADAPTER)])
def test_a_store_with_no_local_implementation_or_a_remote_one_stays_remote(
    tmp_path: Path, adapters: tuple[str, ...]
) -> None:
    assert _lines(_project(tmp_path, *adapters)) == [6, 14, 22]


STATE_STORE = '''
import json
from pathlib import Path


class StateStore:
    def __init__(self, root):
        self.root = Path(root)

    def get_app_config(self):
        return json.loads((self.root / "config.json").read_text())


class GenerationStore:
    def __init__(self, home):
        self.home = Path(home)

    def active(self):
        return json.loads((self.home / "active.json").read_text())
'''

REMOTE_STATE_STORE = '''
import httpx


class RemoteStateStore:
    def get_app_config(self):
        return httpx.get("https://example.com/config").json()
'''

STATE_CALLER = '''import sdk_agents
from app.kernel.state import GenerationStore


def goal_setting(app: sdk_agents.App):
    try:
        return app.ports.store.get_app_config().goal
    except Exception:
        return None


def overrides(home):
    try:
        return dict(GenerationStore(home).active())
    except Exception:
        return {}


def overrides_bound(home):
    try:
        store = GenerationStore(home)
        return dict(store.active())
    except Exception:
        return {}
'''


def _state_project(tmp_path: Path, *stores: str) -> Path:
    (tmp_path / "app" / "kernel").mkdir(parents=True)
    for init in ("app", "app/kernel"):
        (tmp_path / init / "__init__.py").write_text("")
    for i, store in enumerate(stores):
        (tmp_path / "app" / "kernel" / ("state.py" if i == 0 else f"s{i}.py")).write_text(store)
    caller = tmp_path / "app" / "kernel" / "settings.py"
    caller.write_text(STATE_CALLER)
    return caller


def test_a_one_word_store_with_a_method_of_the_projects_own_api_and_a_new_store_object_are_local(tmp_path: Path) -> None:
    # s44: bello's ``self.ports.store.get_bello_config()`` (local JSON) and openthomas's ``GenerationStore(home).active()``
    assert _lines(_state_project(tmp_path, STATE_STORE)) == []


def test_a_one_word_store_whose_method_the_project_also_implements_remotely_stays_remote(tmp_path: Path) -> None:
    assert _lines(_state_project(tmp_path, STATE_STORE, REMOTE_STATE_STORE)) == [8]


# s46 (batch 18, kolega-code's web server): the store handed out by a function of the module named for it
HANDED_CALLER = '''import sdk_agents
from app.adapters.a0 import PosixNotificationStoreAdapter


def _notification_store(workdir):
    return PosixNotificationStoreAdapter(workdir)


def current(workdir):
    try:
        return _notification_store(workdir).snapshot(None)
    except Exception:
        return None


def fetch_store(url):
    return sdk_agents.connect(url)


def remote(url):
    try:
        return fetch_store(url).snapshot(None)
    except Exception:
        return None
'''


def _handed_project(tmp_path: Path, *adapters: str) -> Path:
    caller = _project(tmp_path, *adapters)
    caller.write_text(HANDED_CALLER)
    return caller


def test_a_store_handed_out_by_a_module_function_named_for_it_is_local(tmp_path: Path) -> None:
    # ``fetch_store(url).snapshot()``: one word of the store's name ("store") says too little; it stays reported
    assert _lines(_handed_project(tmp_path, LOCAL_ADAPTER)) == [23]


def test_a_store_handed_out_by_a_module_function_stays_remote_where_the_project_implements_it_remotely(
    tmp_path: Path,
) -> None:
    # s49: ``_notification_store(workdir)`` hands out a class of the project, which the rule does not follow into its
    # module (issue 24: a name is no evidence): silent now, where the project also has a remote implementation
    assert _lines(_handed_project(tmp_path, LOCAL_ADAPTER, REMOTE_ADAPTER)) == [23]
