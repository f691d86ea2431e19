"""Name resolution: imports, aliases, constructors, scopes and shadowing.

Each snippet marks calls with ``# -> qualified.name`` (or ``# -> ?`` for
"not a known name"); the resolver must produce exactly that for the call on
the line.
"""

from __future__ import annotations

import re

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from smullyan.linter.engine import _Dispatch
from smullyan.linter.names import Names


class _Recorder:
    def __init__(self, names: Names) -> None:
        self.names = names
        self.seen: list[tuple[cst.Call, str | None]] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.seen.append((node, self.names.qualname(node.func)))


def resolved(src: str) -> dict[int, str]:
    """line -> qualified name of the outermost call on that line ('?' when unknown)."""
    module = cst.parse_module(src)
    names = Names(module)
    rec = _Recorder(names)
    _Dispatch([("names", names), ("rec", rec)]).walk(module)
    pos = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    out: dict[int, str] = {}
    for node, qn in rec.seen:
        out.setdefault(pos[node].start.line, qn or "?")
    return out


def expected(src: str) -> dict[int, str]:
    return {
        n: m.group(1)
        for n, line in enumerate(src.splitlines(), 1)
        if (m := re.search(r"# -> (\S+)\s*$", line))
    }


CASES = {
    # s54 (issue 23): an `Any` annotation names no class, so `api or self._connect()` is the client the other side
    # builds; a helper's own `from ... import` resolves what it returns
    "any-or-helper-import": """\
from typing import Any
class Runtime:
    def __init__(self, api: Any | None = None, other: Any = None):
        self._api = api or self._connect()
        self._other = other
        self._core = None
    @staticmethod
    def _connect():
        from kubernetes import client
        return client.BatchV1Api()
    @property
    def core(self):
        if self._core is None:
            from kubernetes import client
            self._core = client.CoreV1Api()
        return self._core
    def jobs(self):
        self._api.list_namespaced_job("ns")  # -> kubernetes.client.BatchV1Api.list_namespaced_job
        self._other.list_namespaced_job("ns")  # -> ?
        self.core.list_node()  # -> kubernetes.client.CoreV1Api.list_node
""",
    # s52: a module global whose object falls back to None in an `except` clause keeps the object; a None outside a
    # handler does not
    "module-fallback": """\
import requests
try:
    s = requests.Session()
except Exception:
    s = None
t = requests.Session()
t = None
def f():
    s.get("x")  # -> requests.Session.get
    t.get("x")  # -> ?
""",
    "aliases": """\
import requests as rq
from requests import post as send
from httpx import Client
import urllib.request
from urllib import request
rq.get("x")  # -> requests.get
send("x")  # -> requests.post
Client().get("x")  # -> httpx.Client.get
urllib.request.urlopen("x")  # -> urllib.request.urlopen
request.urlopen("x")  # -> urllib.request.urlopen
""",
    "constructed objects": """\
import requests, httpx, smtplib
s = requests.Session()
s.post("x")  # -> requests.Session.post
async def f():
    async with httpx.AsyncClient() as c:
        await c.post("x")  # -> httpx.AsyncClient.post
with smtplib.SMTP("h") as smtp:  # -> smtplib.SMTP
    smtp.sendmail("a", "b", "c")  # -> smtplib.SMTP.sendmail
with requests.get("x", stream=True) as r:  # -> requests.get
    r.iter_lines()  # -> ?
""",
    "submodule spellings are canonical": """\
from requests.sessions import Session
import requests.api
Session().get("x")  # -> requests.Session.get
requests.api.get("x")  # -> requests.get
requests.session().get("x")  # -> requests.Session.get
""",
    "self attributes in a class": """\
import requests
class C:
    def __init__(self):
        self.http = requests.Session()
        self.other = 3
    def go(self):
        self.http.get("x")  # -> requests.Session.get
        self.post("x")  # -> ?
        def inner():
            return self.http.put("x")  # -> requests.Session.put
        return inner
""",
    "shadowing": """\
import requests
def param(requests):
    requests.get("x")  # -> ?
def assigned():
    requests = object()
    requests.get("x")  # -> ?
def loop(xs):
    for requests in xs:
        requests.get("x")  # -> ?
def handler():
    try:
        pass
    except Exception as requests:
        requests.get("x")  # -> ?
def untouched():
    requests.get("x")  # -> requests.get
class K:
    requests = None
    def m(self):
        requests.get("x")  # -> requests.get
def requests_shadowed_by_def():
    def requests():
        pass
    requests()  # -> ?
""",
    "not the library": """\
import my_module
my_module.get("x")  # -> my_module.get
def f(client):
    client.post("x")  # -> ?
""",
    "module globals, fallbacks and global": """\
try:
    import requests
except ImportError:
    requests = None
def f():
    session.get("x")  # -> requests.Session.get
    requests.get("x")  # -> requests.get
def g():
    global session
    session.get("x")  # -> requests.Session.get
session = requests.Session()
""",
    "rebinding changes meaning in order": """\
import requests
def f():
    s = requests.Session()
    s.get("x")  # -> requests.Session.get
    s = make()  # -> ?
    s.get("x")  # -> ?
""",
    "closures see enclosing locals": """\
import httpx
def outer():
    client = httpx.Client()
    def inner():
        client.get("x")  # -> httpx.Client.get
    lam = lambda client: client.get("x")  # -> ?
""",
    "asyncio subprocess": """\
import asyncio
async def f():
    proc = await asyncio.create_subprocess_exec("ls")
    await proc.communicate()  # -> asyncio.subprocess.Process.communicate
""",
    "imports inside functions": """\
def f():
    import requests as r
    r.get("x")  # -> requests.get
def g():
    r.get("x")  # -> ?
""",
    "declared fields: a default, a factory, the annotation; never the declaration": """\
import dataclasses
from typing import Optional
import httpx, requests
from pydantic import BaseModel, Field, PrivateAttr
class Holder(BaseModel):
    _session: requests.Session = PrivateAttr(default_factory=requests.Session)
    http: httpx.Client = Field(default_factory=lambda: httpx.Client())
    plain: requests.Session = PrivateAttr(default=requests.Session())
    declared: requests.Session = Field(...)
    other: dict = Field(default_factory=dict)
    def run(self):
        self._session.get("x")  # -> requests.Session.get
        self.http.get("x")  # -> httpx.Client.get
        self.plain.get("x")  # -> requests.Session.get
        self.declared.get("x")  # -> requests.Session.get
        self.other.get("x")  # -> ?
@dataclasses.dataclass
class Data:
    s: requests.Session = dataclasses.field(default_factory=requests.session)
    def run(self):
        self.s.get("x")  # -> requests.Session.get
""",
    "through an attribute declared another class of the module, and inherited fields": """\
from typing import Optional
import requests
class Toolset:
    session: requests.Session
class Base:
    toolset: "Toolset"
    maybe: Optional[Toolset] = None
class Tool(Base):
    def run(self):
        self.toolset.session.get("x")  # -> requests.Session.get
        self.maybe.session.get("x")  # -> requests.Session.get
        self.toolset.missing.get("x")  # -> ?
class Unrelated:
    toolset: "Elsewhere"
    def run(self):
        self.toolset.session.get("x")  # -> ?
""",
    "an attribute holds what any method assigns it, a None or an unknown value aside": """\
import httpx
import requests
class Client:
    def __init__(self, client=None):
        self.session = None
        self.mixed = requests.Session()
        self.given = client
    def stop(self):
        self.session = None
        self.mixed = None
    def post(self):
        self.session.post("x")  # -> httpx.AsyncClient.post
        self.mixed.post("x")  # -> ?
        self.given.post("x")  # -> ?
        self.other.post("x")  # -> ?
    def _make(self) -> httpx.AsyncClient:
        return httpx.AsyncClient()
    def start(self):
        self.session = self._make()
        self.mixed = httpx.Client()
        local = requests.Session()
        self.other = local
        def inner():
            self.given = requests.Session()
class Holder:
    client: "Client"
    def run(self):
        self.client.session.post("x")  # -> httpx.AsyncClient.post
""",
    "a tuple a helper is annotated to return binds each name to its position's class": """\
from typing import Tuple
import httpx
import requests
class Writer:
    async def _session(self) -> tuple[httpx.AsyncClient, dict]:
        return httpx.AsyncClient(), {}
    def _pair(self) -> Tuple[requests.Session, httpx.Client]:
        return requests.Session(), httpx.Client()
    def _many(self) -> tuple[httpx.Client, ...]:
        return (httpx.Client(),)
    async def post(self):
        client, account = await self._session()
        client.post("x")  # -> httpx.AsyncClient.post
        account.get("x")  # -> ?
        a, b = self._pair()
        a.get("x")  # -> requests.Session.get
        b.get("x")  # -> httpx.Client.get
        c, = self._many()
        c.get("x")  # -> ?
        d, e, f = self._pair()
        d.get("x")  # -> ?
""",
}


@pytest.mark.parametrize("src", CASES.values(), ids=list(CASES))
def test_resolution(src: str) -> None:
    got = resolved(src)
    want = expected(src)
    assert {line: got.get(line) for line in want} == want


def test_tool_error_names_the_linter_knows_exist_in_the_runtime() -> None:
    import smullyan.runtime as runtime
    from smullyan.linter import knowledge

    assert knowledge.TOOL_ERROR_VARIANTS == runtime.TAGS
    for qualified in knowledge.TOOL_ERROR_CONSTRUCTORS:
        module, _, name = qualified.rpartition(".")
        assert module == "smullyan.runtime" or module.startswith("smullyan.runtime.")
        assert hasattr(runtime, name), qualified
