"""Session 53 (issue 23, batch 25's false retry findings): a loop going round on a protocol's next step, an attempt
that replaces the process, a handler that repairs the cause and goes round once, a recursion re-sent once after a
token refresh, a reader whose receive follows an alias. Each silence beside the shape that keeps its finding."""

from __future__ import annotations

import textwrap

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source


def codes(src: str) -> list[str]:
    cfg = Config.default().only("TFH1", "TFH3")
    return sorted(f.code for f in lint_source(textwrap.dedent(src), "mod.py", cfg))


TLS = '''\
import ssl
def handshake(tls, sock, incoming):
    while True:
        try:
            tls.do_handshake()
        except {caught}:
            incoming.write(sock.recv(65536))
        else:
            break
'''


def test_a_tls_want_read_is_a_step_of_the_handshake() -> None:
    assert codes(TLS.format(caught="ssl.SSLWantReadError")) == []
    assert codes(TLS.format(caught="(ssl.SSLWantReadError, ssl.SSLWantWriteError)")) == []


def test_a_handler_catching_a_failure_beside_the_step_is_still_a_retry() -> None:
    assert "TFH302" in codes(TLS.format(caught="(ssl.SSLWantReadError, ConnectionError)"))
    assert "TFH302" in codes(TLS.format(caught="ConnectionError"))


def test_an_in_process_queue_full_is_not_a_failure_resent() -> None:
    src = '''\
    import queue
    from asyncio import QueueFull
    def put_dropping_oldest(q, item):
        while True:
            try:
                q.put_nowait(item)
                return
            except {caught}:
                q.get_nowait()
    '''
    assert codes(src.format(caught="QueueFull")) == []
    assert codes(src.format(caught="queue.Full")) == []
    assert "TFH302" in codes(src.format(caught="OSError"))


EXECV = '''\
import os
def launch(program, argv, restore):
    for attempt in (1, 2):
        try:
            {call}(program, argv)
        except PermissionError:
            if attempt == 1 and restore(program):
                continue
            raise SystemExit(1)
'''


def test_execv_never_returns_and_the_repair_goes_round_once() -> None:
    assert codes(EXECV.format(call="os.execv")) == []


def test_a_call_that_returns_is_still_repeated_on_success() -> None:
    # the same loop around a call that comes back: every successful launch is made twice (TFH304); the repair still
    # answers the PermissionError (no TFH102/TFH303)
    assert codes(EXECV.format(call="os.spawnv")) == ["TFH304"]


def test_a_repair_in_a_loop_of_more_rounds_is_still_reported() -> None:
    # two rounds: the repair runs before the only other attempt (silent); three: the repair may be tried, and the
    # call hammered, again and again
    src = EXECV.format(call="os.execv").replace("if attempt == 1 and restore(program):", "if restore(program):")
    assert codes(src) == []
    assert codes(src.replace("(1, 2)", "(1, 2, 3)")) == ["TFH102", "TFH303"]


TWO_ROUNDS = '''\
import subprocess
class GitError(RuntimeError):
    pass
def drop_branch(root, branch, prune):
    for attempt in range(2):
        try:
            subprocess.run(["git", "-C", root, "branch", "-D", branch], check=True, timeout=30)
            return None
        except subprocess.CalledProcessError as exc:
            if attempt:
                return "the branch stays: " + str(exc)
        {after}
'''


def test_a_repair_after_the_try_on_the_way_round() -> None:
    # batch 21 ao-orchestrator: `git worktree prune` between the two `git branch -D`
    assert codes(TWO_ROUNDS.format(after="prune(root)")) == []
    assert codes(TWO_ROUNDS.format(after='print("again")')) == ["TFH303"]


def test_a_go_round_gated_on_a_repair_that_worked() -> None:
    src = '''\
    class SandboxAsleep(Exception):
        pass
    class Session:
        async def send(self, send):
            attempt = 0
            while True:
                try:
                    return await send()
                except SandboxAsleep:
                    attempt += 1
                    if attempt > 3:
                        raise
                    {gate}
    '''
    assert codes(src.format(gate="if not await self._wake():\n                        raise")) == []
    assert codes(src.format(gate='print("asleep")')) == ["TFH303"]


def test_a_handler_ending_in_a_no_return_helper_does_not_go_round() -> None:
    src = '''\
    from typing import NoReturn
    import os
    def _fail(program) -> {returns}:
        print("cannot run", program)
    def launch(program, argv):
        for attempt in (1, 2):
            try:
                os.execv(program, argv)
            except OSError:
                _fail(program)
    '''
    assert codes(src.format(returns="NoReturn")) == []
    assert "TFH303" in codes(src.format(returns="None"))


TOKEN = '''\
class TokenExpiredError(Exception):
    pass
class Client:
    async def request(self, method, path, *, json=None, retry_count={default}):
        try:
            response = await self._client.request(method, path, json=json)
            return self._handle(response)
        except TokenExpiredError:
            if retry_count > 0:
                {repair}
                return await self.request(method, path, json=json, retry_count=retry_count - 1)
            raise
'''


def test_a_resend_after_a_token_refresh_once_is_not_a_hot_retry() -> None:
    assert codes(TOKEN.format(default=1, repair='self._client.headers["Authorization"] = self.token')) == []
    assert codes(TOKEN.format(default=1, repair="await self._refresh_session()")) == []


def test_a_recursion_without_a_repair_or_repeated_more_than_once_keeps_its_finding() -> None:
    assert codes(TOKEN.format(default=1, repair='print("again")')) == ["TFH303"]
    assert codes(TOKEN.format(default=3, repair='self._client.headers["Authorization"] = self.token')) == ["TFH303"]


def test_a_reader_of_a_local_process_skips_a_line_it_cannot_parse() -> None:
    src = '''\
    import json
    class Reader:
        def loop(self):
            while self._running:
                try:
                    out = self._process.stdout
                    if out is None:
                        break
                    {first}
                    if not raw:
                        break
                    msg = json.loads(raw)
                except Exception:
                    continue
                self._dispatch(msg)
    '''
    assert codes(src.format(first="raw = out.readline()")) == []
    # the attempt starts by sending, not by receiving: a retry of the send
    assert codes(src.format(first="raw = self._session.post(self.url).text")) != []
