"""No file makes the linter's work grow faster than the file: the work on a generated module with twice
the methods about doubles, and with chains twice as long at most quadruples.

Work is counted, never timed: calls of the resolver's ``Names.qualify`` (every rule and model asks it
what a name or call is). A module shaped like agixt's ``MagicalAuth.py`` (a 7,000-line class whose
methods assign ``self.email = str(email).replace(...)`` 28 calls deep) took minutes before the
resolver resolved a call's callee once: each of the chain's calls resolved its callee twice, 2**28
resolutions for one statement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from smullyan.linter import names as names_module
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source

HEADER = '''\
import time
import requests
from requests import Session


def helper(email):
    return Session()


'''


def _method(i: int, depth: int) -> str:
    chain = "".join(f'\n            .replace("%{j:02X}", "{j}")' for j in range(depth))
    attrs = ".".join(f"a{j}" for j in range(depth))
    either = " or ".join(f"self.o{j}" for j in range(depth))
    return f'''\
    def method_{i}(self, email=None):
        self.email = (
            str(email){chain}
        )
        self.session = helper(email)
        value = self.{attrs}
        other = {either}
        for attempt in range(3):
            try:
                return requests.post(f"https://example.com/{i}", json={{"v": value, "o": other}}).json().get("x").strip()
            except Exception:
                time.sleep(2 ** attempt)
        return self.session.get("https://example.com").json()

'''


def _module(methods: int, depth: int) -> str:
    return HEADER + "class Auth:\n" + "".join(_method(i, depth) for i in range(methods))


def _work(monkeypatch: pytest.MonkeyPatch, source: str) -> int:
    calls = [0]
    qualify: Callable[..., Any] = names_module.Names.qualify

    def counted(self: names_module.Names, node: Any) -> Any:
        calls[0] += 1
        return qualify(self, node)

    with monkeypatch.context() as patch:
        patch.setattr(names_module.Names, "qualify", counted)
        findings = lint_source(source, "auth.py", Config.default())
    assert not [f for f in findings if f.code == "TFH002"]  # the module is linted, not given up on
    return calls[0]


def test_work_grows_with_the_methods_not_faster(monkeypatch: pytest.MonkeyPatch) -> None:
    # no walk of the whole class (or module) per method, per call or per ``self.<attr>``
    small = _work(monkeypatch, _module(methods=8, depth=8))
    large = _work(monkeypatch, _module(methods=16, depth=8))
    assert small > 0
    assert large <= 2.5 * small, (small, large)


def test_work_grows_with_a_chain_at_most_as_its_square(monkeypatch: pytest.MonkeyPatch) -> None:
    # each call of an n-call chain resolves the chain below it once (n**2 / 2): never 2**n
    small = _work(monkeypatch, _module(methods=4, depth=10))
    large = _work(monkeypatch, _module(methods=4, depth=20))
    assert small > 0
    assert large <= 4.5 * small, (small, large)
