"""TFH403 swallowed-compensation."""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import (
    FileContext,
    Knowledge,
    Screen,
    dotted,
    handler_types,
    last_name,
    lexical_children,
    receiver_name,
    walk_in_scope,
    walk_in_scope_ast,
)
from .model import (
    ErrorRule,
    already_gone,
    broad_names,
    source_of,
    statements,
    swallows_ast,
    swallows_cst,
    words,
)


def _compensation_name(name: str, compensation_words: frozenset[str]) -> bool:
    return bool(words(name) & compensation_words) or "rollback" in name.lower()


def _may_hold_step(node: ast.With | ast.AsyncWith, spans: list[tuple[int, int]], knowledge: Knowledge) -> bool:
    """The ``with`` lies in a compensation-named function, or its body calls something named like a compensation
    (every node of the body: a superset of the calls :meth:`SwallowedCompensation._calls` reads)."""
    if any(a <= node.lineno <= b for a, b in spans):
        return True
    return any(
        isinstance(n, ast.Call) and _compensation_name(last_name(n.func) or "", knowledge.compensation_words)
        for stmt in node.body
        for n in ast.walk(stmt)
    )


class SwallowedCompensation(ErrorRule):
    code = "TFH403"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "swallowed-compensation"
    summary = "A compensation step (rollback, refund, cancel, delete, ...) whose failure is swallowed without a record."
    message = (
        "{call}() undoes earlier work and `{how}` swallows its failure without a record: if it fails, "
        "the half-done work stays and nobody knows; log it (with the exception) or let it raise"
    )
    docs = """\
## What it does
Finds a compensation step inside a `try` whose handler only `pass`es
(or `...`, or `continue`) and records nothing, or inside
`with contextlib.suppress(...)`. A compensation step is a call whose name
has one of the words compensate, rollback, undo, revert, refund, cancel,
release, delete (split on `_` and camelCase: `conn.rollback()`,
`refund_payment(...)`, `bucket.delete_blob(...)`, `s3.deleteObject(...)`,
`client.jobs.cancel(job_id)`), or the first call in such a `try` when the
function itself is named compensate, rollback, undo, revert or refund
(`def rollback(self): ...`). The finding is on the call.

Compensation means undoing an effect that happened because a later step
failed, so the step must run on a failure path: inside an `except` handler
of an enclosing `try` (the saga's `except: refund(); raise`), in a block
that ends by raising (`if start_failed: delete_volumes(); raise ...`), or
in a function that is itself the compensation (named compensate, rollback,
undo, revert or refund). Cleanup ends where the failure path ends: the
same call in the normal flow or in a `finally` (a delete before an insert,
a temporary file removed, a remote handle released, a public `delete_*`
swallowing its own failure) is housekeeping and is not reported.

Not reported:
- in-process cancellation and synchronisation: `task.cancel()`,
  `cancel_scope.cancel()`, `timer.cancel()`, `lock.release()` (a
  `cancel`/`release` with no argument, or on a receiver named like a task,
  future, scope, timer, handle, lock or semaphore);
- cleanup inside `__del__`, `__exit__`, `__aexit__`, `close`, `aclose`,
  `shutdown`, `teardown`, `dispose` (a failure there has nowhere to go);
- `continue` in a `while` loop: the step is tried again (an optimistic
  transaction's retry), not given up;
- `cleanup` calls and functions: on real code they are local teardown
  (`tempdir.cleanup()`) or text cleaning, not the undoing of an outside
  effect;
- the undoing of a local file's partial write: a compensation whose every
  argument is a handle a `with` opened on a filesystem path (`with
  open_entry(out_path) as output:` ... `delete_entry(output)`), the
  write's own error re-raised; a path alone is not enough (`fs.delete(path)`
  may be a remote store's);
- a transaction's rollback on the failure path of a `try` that then closes
  the same connection (in its `finally`, or in the handler: `adapter.rollback()`
  swallowed, `raise`, `finally: adapter.close()`): closing discards the
  uncommitted work whether or not the rollback ran; a rollback whose
  connection stays open (a commit may follow) is reported;
- the undoing of an effect the function itself made best-effort (s45): an
  argument of the step is a local name bound (`None` aside) only inside a
  `try` whose handlers all swallow (`typing_ts = (await
  client.chat_postMessage(...)).get("ts")` under `except Exception: pass`,
  then `chat_delete(ts=typing_ts)` suppressed after the real failure, which
  is logged): the effect was never required to happen, so its undoing is
  cleanup. Cleanup thus ends at effects the code made best-effort, and
  compensation starts where the effect was required (a charge, a created
  resource, a transaction: the examples above);
- a handler that catches only "already gone" errors (`FileNotFoundError`,
  `KeyError`, `NotFound`, `DoesNotExist`, `NoSuchKey`, ...): the thing to
  delete is not there, which is what deleting it wanted;
- a handler that records: a logger call, `warnings.warn`, a metric or a
  trace, a re-raise, or any use of the exception.

## Why is this bad?
A compensation runs because something already went wrong: the charge must
be refunded, the half-created resource deleted, the transaction rolled back.
When the compensation itself fails and the failure is swallowed, the system
stays half-done (a customer charged for nothing, an orphaned VM billing by
the hour) and nothing anywhere says so.

## Example
```python
def book(trip):
    charge = payments.charge(trip.price)
    try:
        airline.reserve(trip)
    except Exception:
        try:
            payments.refund(charge.id)
        except Exception:
            pass
        raise
```

## Use instead
```python
def book(trip):
    charge = payments.charge(trip.price)
    try:
        airline.reserve(trip)
    except Exception:
        try:
            payments.refund(charge.id)
        except Exception:
            log.exception("refund of %s failed; needs a manual refund", charge.id)
        raise
```

## How to suppress
`# noqa: TFH403` on the call's line, saying why a failed compensation is
harmless there, or `ignore`/`per-file-ignores` in the configuration.
"""
    VALID = [
        # s45: undoing an effect the function made best-effort (a status message whose post may fail unnoticed)
        """\
import contextlib
import logging
logger = logging.getLogger(__name__)
async def reply(client, channel, run, text):
    typing_ts = None
    try:
        typing_ts = (await client.chat_postMessage(channel=channel, text="thinking...")).get("ts")
    except Exception:
        pass
    try:
        return await run(text)
    except Exception as exc:
        logger.warning("run failed: %s", exc)
        if typing_ts:
            with contextlib.suppress(Exception):
                await client.chat_delete(channel=channel, ts=typing_ts)
        raise
""",
        # a local file's partial output deleted after a failed write, the write's own error re-raised
        """\
from contextlib import suppress
def write_chunks(out_path, chunks):
    with open_handle(out_path, create=True) as output:
        try:
            write_all(output, chunks)
        except BaseException:
            with suppress(OSError):
                delete_entry(output)
            raise
""",
        # recorded
        """\
import logging
log = logging.getLogger(__name__)
def undo(conn):
    try:
        conn.rollback()
    except Exception:
        log.exception("rollback failed")
""",
        # asyncio cancellation and locks
        """\
import asyncio
async def stop(task, scope, lock):
    try:
        task.cancel()
        scope.cancel()
        lock.release()
    except Exception:
        pass
    try:
        await task
    except asyncio.CancelledError:
        pass
""",
        # cleanup where a failure has nowhere to go
        """\
class Session:
    def __exit__(self, *exc):
        try:
            self.client.delete_session(self.id)
        except Exception:
            pass
    async def aclose(self):
        try:
            await self.client.delete_session(self.id)
        except Exception:
            pass
    def __del__(self):
        try:
            self.cleanup()
        except Exception:
            pass
""",
        # already gone is what deleting wanted
        """\
import os
def drop(bucket, key, path):
    try:
        bucket.delete_object(key)
    except (KeyError, NoSuchKey):
        pass
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
""",
        # the exception is used
        """\
def undo(conn, errors):
    try:
        conn.rollback()
    except Exception as e:
        errors.append(e)
""",
        # a re-raise, and not a compensation
        """\
def f(client, job):
    try:
        client.refund(job)
    except Exception:
        raise
    try:
        client.create(job)
    except Exception:
        pass
""",
        # a compensation step whose own try records, inside an outer one that swallows
        """\
import warnings
def f(client, job):
    try:
        try:
            client.cancel_job(job)
        except Exception as e:
            warnings.warn(f"cancel failed: {e}")
    except BaseException:
        pass
""",
        # optimistic concurrency: the state changed, not deleting is the decision;
        # and a narrow handler around a local parse in a function named revert
        """\
import json
def _revert(client, table, rows):
    try:
        client.delete_item(TableName=table, Key={"id": {"S": "x"}})
    except client.exceptions.ConditionalCheckFailedException:
        pass
    for raw in rows:
        try:
            payload = json.loads(raw)
        except (json.JSONDecodeError, TypeError):
            continue
""",
        # a while loop's continue retries the step
        """\
def purge(pipe, key):
    while True:
        try:
            pipe.watch(key)
            pipe.delete(key)
            pipe.execute()
        except WatchError:
            continue
        return
""",
        # housekeeping in the normal flow or a finally is cleanup, not compensation: a delete before an
        # insert, a temporary file removed, a remote handle released, a public delete's own failure
        """\
import os
from contextlib import suppress
def upsert(col, ids, rows):
    try:
        col.delete(ids)
    except Exception:
        pass
    col.insert(rows)
async def call(client, path, body):
    try:
        return await client.post(path, body)
    finally:
        with suppress(Exception):
            os.unlink(body)
        try:
            await client.release_object(path)
        except Exception:
            pass
def delete_collection(client, name):
    try:
        client.delete_collection(name)
    except Exception:
        pass
""",
        # s40: a rollback whose connection is then closed on the same failure path (the try's finally, or the
        # handler): closing discards the uncommitted work whether or not the rollback ran (memorisdk)
        """\
from contextlib import contextmanager
@contextmanager
def connection_context(factory):
    adapter = factory()
    try:
        yield adapter
        adapter.commit()
    except Exception:
        try:
            adapter.rollback()
        except Exception:
            pass
        raise
    finally:
        try:
            adapter.close()
        except Exception:
            pass
def run(conn, sql):
    try:
        conn.execute(sql)
    except Exception:
        try:
            conn.rollback()
        except Exception:
            pass
        conn.close()
        raise
""",
        # a threading timer and an asyncio handle
        """\
def f(timer, handle):
    for t in (timer, handle):
        try:
            t.cancel()
        except Exception:
            continue
""",
    ]
    INVALID = [
        # s45: the effect undone was required (its post is not best-effort): compensation
        """\
import contextlib
async def reply(client, channel, run, text):
    ts = (await client.chat_postMessage(channel=channel, text=text)).get("ts")
    try:
        return await run(text)
    except Exception:
        with contextlib.suppress(Exception):
            await client.chat_delete(channel=channel, ts=ts)  # error: TFH403
        raise
""",
        # s40: a rollback whose connection stays open (committed later, or another object closed) is reported
        """\
def write_batch(adapter, other, tasks):
    try:
        for t in tasks:
            t(adapter)
    except Exception:
        try:
            adapter.rollback()  # error: TFH403
        except Exception:
            pass
        raise
    finally:
        other.close()
""",
        """\
def undo(conn):
    try:
        conn.rollback()  # error: TFH403 "conn.rollback() undoes earlier work"
    except Exception:
        pass
""",
        # a refund in the compensation path of a saga
        """\
def book(trip, payments, airline):
    charge = payments.charge(trip.price)
    try:
        airline.reserve(trip)
    except Exception:
        try:
            payments.refund(charge.id)  # error: TFH403
        except Exception:
            pass
        raise
""",
        # a remote delete undoing an upload when the next step failed: camelCase, bare except with `...`
        """\
async def upload(s3, key, body):
    await s3.putObject(Bucket="b", Key=key, Body=body)
    try:
        await s3.notify(key)
    except Exception:
        try:
            await s3.deleteObject(Bucket="b", Key=key)  # error: TFH403
        except:
            ...
        raise
""",
        # continue in a loop, on the failure path
        """\
def hold_all(client, ids):
    try:
        client.confirm(ids)
    except Exception:
        for i in ids:
            try:
                client.release_hold(i)  # error: TFH403
            except Exception:
                continue
        raise
""",
        # the function is the compensation
        """\
class Saga:
    def compensate(self):
        try:
            self.api.post("/orders/cancel", json={"id": self.id})  # error: TFH403
        except Exception:
            pass
""",
        # contextlib.suppress under an alias, in a block that ends by raising
        """\
from contextlib import suppress as quietly
def f(client, run_id):
    if not client.runs.wait(run_id):
        with quietly(Exception):
            client.runs.cancel(run_id)  # error: TFH403
        raise TimeoutError(run_id)
""",
        # a tuple of handlers that is not only "already gone"
        """\
def f(vm, disk):
    try:
        disk.attach(vm)
    except Exception:
        try:
            vm.delete()  # error: TFH403
        except (KeyError, ConnectionError):
            pass
        raise
""",
        # a remote cancel by id is not task cancellation
        """\
async def f(client, job_id):
    try:
        await client.jobs.wait(job_id)
    except BaseException:
        try:
            await client.jobs.cancel(job_id)  # error: TFH403
            await client.undo_transfer(job_id)  # error: TFH403
        except BaseException:
            pass
        raise
""",
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self._seen: set[int] = set()
        self._before_raise: set[int] = set()  # ids of statements followed, in their block, by a ``raise``

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        """``if failed: <undo>; raise``: the statements of a block that ends by raising are on a failure path."""
        body = node.body
        if body and isinstance(body[-1], cst.SimpleStatementLine) and any(isinstance(s, cst.Raise) for s in body[-1].body):
            for stmt in body[:-1]:  # nested blocks too: `if failed: if created: <undo>` ... `raise`
                self._before_raise.add(id(stmt))
                self._before_raise.update(
                    id(n) for n in walk_in_scope(stmt) if isinstance(n, (cst.Try, cst.TryStar, cst.With))
                )

    def _failure_path(self, statement: cst.CSTNode) -> bool:
        """The step runs because something failed: inside an ``except`` handler (of an enclosing ``try``), or in a
        block that ends by raising. Housekeeping in the normal flow or a ``finally`` (a delete before an insert, a
        temporary file removed, a handle released) is cleanup, not compensation."""
        return self.names.handler is not None or id(statement) in self._before_raise

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        """``try`` statements with a swallowing handler around a compensation-named call (or in a
        compensation-named function), and ``contextlib.suppress`` calls."""
        swallowing = [
            node
            for node in screen.tries
            if any(
                swallows_ast(h) and not already_gone([dotted(t) for t in handler_types(h)], knowledge)
                for h in node.handlers  # type: ignore[attr-defined]
            )
        ]
        suppressing = screen.calls_of(knowledge.suppressors)
        # functions named like a compensation: any call in their swallowed try is the step
        spans = [
            (d.lineno, d.end_lineno or d.lineno)
            for d in statements(screen.tree)
            if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (words(d.name) & knowledge.compensation_function_words or "rollback" in d.name.lower())
        ] if swallowing or suppressing else []

        def step_inside(node: ast.stmt) -> bool:
            if any(a <= node.lineno <= b for a, b in spans):
                return True
            return any(
                isinstance(n, ast.Call) and _compensation_name(last_name(n.func) or "", knowledge.compensation_words)
                for n in walk_in_scope_ast(node.body)  # type: ignore[attr-defined]
            )

        lines = [node.lineno for node in swallowing if step_inside(node)]
        if suppressing:
            # s51: a ``suppress(...)`` call is a candidate only as an item of a ``with`` whose body may hold the step
            # (the check reads the calls of that body, :meth:`_check`), as a swallowing ``try`` is above
            wanted = {id(c) for c in suppressing}
            lines += [
                item.context_expr.lineno
                for node in statements(screen.tree)
                if isinstance(node, (ast.With, ast.AsyncWith))
                and any(id(item.context_expr) in wanted for item in node.items)
                and _may_hold_step(node, spans, knowledge)
                for item in node.items
                if id(item.context_expr) in wanted
            ]
        return lines

    # ------------------------------------------------------------ the check

    def _local(self, call: cst.Call, called: set[str]) -> bool:
        """``task.cancel()``, ``lock.release()``: in-process, not the undoing of an outside effect."""
        k = self.knowledge
        if not called & k.local_cancel_methods or called & (k.compensation_words - k.local_cancel_methods):
            return False
        if not call.args:
            return True
        receiver = receiver_name(call.func)
        qn = self.names.qualname(call.func) or ""
        return qn.startswith(("asyncio.", "trio.", "anyio.", "threading.", "concurrent.")) or bool(
            receiver and words(receiver) & k.local_cancel_receiver_words
        )

    def _compensation(self, call: cst.Call) -> bool:
        name = last_name(call.func)
        if name is None or not _compensation_name(name, self.knowledge.compensation_words):
            return False
        return not self._local(call, words(name)) and not self._local_file(call)

    def _path_named(self, node: cst.BaseExpression) -> bool:
        """``output_path``, ``self.tmp_file``, ``Path(p)``: a filesystem path (``LOCAL_PATH_ARGUMENT_WORDS``)."""
        if isinstance(node, cst.Call):
            qn = self.names.qualname(node.func)
            return qn is not None and self.knowledge.canonical(qn) in ("pathlib.Path", "pathlib.PurePath")
        last = last_name(node) or ""
        return last.lower().split("_")[-1] in self.knowledge.local_path_argument_words

    def _local_file(self, call: cst.Call) -> bool:
        """``_delete(output)`` where ``with open_entry(path, ...) as output``: every argument is a handle opened on a
        filesystem path, the undoing of a local file's partial write (a path alone is not enough: ``fs.delete(path)``
        may be a remote store's)."""
        function = self.names.function
        if not call.args or not isinstance(function, cst.FunctionDef):
            return False
        opened: set[str] = set()
        for n in walk_in_scope(function.body):
            if isinstance(n, cst.With):
                for item in n.items:
                    opener = item.item
                    if (isinstance(opener, cst.Call) and opener.args and item.asname is not None
                            and isinstance(item.asname.name, cst.Name) and self._path_named(opener.args[0].value)):
                        opened.add(item.asname.name.value)
        return all(isinstance(a.value, cst.Name) and a.value.value in opened for a in call.args)

    def _exempt_function(self) -> tuple[bool, bool]:
        """(cleanup where failures have nowhere to go, the function is itself a compensation)."""
        function = self.names.function
        if not isinstance(function, cst.FunctionDef):
            return False, False
        name = function.name.value
        exempt = self.knowledge.compensation_exempt_functions
        if name in exempt or set(name.lstrip("_").split("_")) & exempt:
            return True, False
        return False, _compensation_name(name, self.knowledge.compensation_function_words)

    def _calls(self, body: cst.BaseSuite) -> list[cst.Call]:
        """Calls in ``body`` in source order, outside nested scopes and nested ``try``/``with`` statements."""
        out: list[cst.Call] = []
        stack: list[cst.CSTNode] = [body]
        while stack:
            n = stack.pop()
            if n is not body and isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Try, cst.TryStar)):
                continue
            if n is not body and isinstance(n, cst.With) and self._suppressing(n) is not None:
                continue
            if isinstance(n, cst.Call):
                out.append(n)
            stack.extend(reversed(lexical_children(n)))
        return out

    def _check(self, statement: cst.CSTNode, body: cst.BaseSuite, how: str, broad: bool) -> None:
        cleanup, is_compensation = self._exempt_function()
        if cleanup or not (is_compensation or self._failure_path(statement)):
            return
        calls = self._calls(body)
        found = [c for c in calls if self._compensation(c)]
        if not found and is_compensation and broad:
            found = [c for c in calls if not self.model.recording_call(c)][:1]
        for call in found:
            if self._discarded(call) or self._best_effort_effect(call):
                continue
            if id(call) not in self._seen:
                self._seen.add(id(call))
                self.report(call, call=dotted(call.func) or last_name(call.func) or "the call", how=how)

    def _best_effort_effect(self, call: cst.Call) -> bool:
        """The step undoes an effect its own function made best-effort (s45): an argument is a local name the
        function binds (``None`` aside) only in the body of a ``try`` whose handlers all swallow (``typing_ts =
        (await client.chat_postMessage(...)).get("ts")`` under ``except Exception: pass``). Whether that effect
        happened never mattered to the function, so neither does its undoing: cleanup, not compensation (dobby's
        "thinking..." message deleted after a failure the outer handler logs and reports)."""
        func = self.names.function
        if not isinstance(func, cst.FunctionDef):
            return False
        args = {a.value.value for a in call.args if isinstance(a.value, cst.Name)}
        if not args:
            return False
        best_effort: set[int] = set()
        for n in walk_in_scope(func.body):
            if isinstance(n, cst.Try) and n.handlers and all(swallows_cst(h) for h in n.handlers):
                best_effort.update(id(a) for a in walk_in_scope(n.body) if isinstance(a, cst.Assign))
        for name in args:
            binds = [n for n in walk_in_scope(func.body) if isinstance(n, cst.Assign)
                     and any(isinstance(t.target, cst.Name) and t.target.value == name for t in n.targets)
                     and not (isinstance(n.value, cst.Name) and n.value.value == "None")]
            if binds and all(id(b) in best_effort for b in binds):
                return True
        return False

    def _discarded(self, call: cst.Call) -> bool:
        """A transaction's rollback in a handler whose ``try`` (or the handler itself) then closes the same
        connection: closing discards the uncommitted work whether or not the rollback ran, so a failed rollback
        leaves nothing half-done (memorisdk's ``except: try: adapter.rollback() except: pass; raise`` ...
        ``finally: adapter.close()``). A rollback followed by a commit, or by nothing, stays reported."""
        func = call.func
        handler = self.names.handler
        if handler is None or not isinstance(func, cst.Attribute) or "rollback" not in func.attr.value.lower():
            return False
        receiver = dotted(func.value)
        if receiver is None:
            return False
        places: list[cst.CSTNode] = [handler.node.body]
        final = getattr(handler.statement, "finalbody", None)
        if final is not None:
            places.append(final.body)
        for place in places:
            for n in walk_in_scope(place):
                if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) \
                        and n.func.attr.value in self.knowledge.transaction_discarding_methods and dotted(n.func.value) == receiver:
                    return True
        return False

    # ------------------------------------------------------------ visitors

    def _handler(self, node: cst.Try | cst.TryStar) -> tuple[str, bool] | None:
        """How the ``try`` swallows (``except Exception: pass``), and whether that handler is broad."""
        for h in node.handlers:
            if not swallows_cst(h):
                continue
            if isinstance(self.names.loop, cst.While) and any(isinstance(n, cst.Continue) for n in walk_in_scope(h.body)):
                continue  # a retry loop: the step is tried again, not given up
            types = self.model.type_names(h)
            if self.model.already_gone(types):
                continue
            caught = "except" if h.type is None else "except " + source_of(h.type)
            return f"{caught}: {source_of(_first(h)).strip()}", broad_names(types)
        return None

    def visit_Try(self, node: cst.Try) -> None:
        how = self._handler(node)
        if how is not None:
            self._check(node, node.body, *how)

    def visit_TryStar(self, node: cst.TryStar) -> None:
        how = self._handler(node)
        if how is not None:
            self._check(node, node.body, *how)

    def _suppressing(self, node: cst.With) -> tuple[str, bool] | None:
        for item in node.items:
            call = item.item
            if isinstance(call, cst.Call) and self.names.qualname(call.func) in self.knowledge.suppressors:
                types = [dotted(a.value) for a in call.args]
                if not self.model.already_gone(types):
                    return source_of(call), broad_names(types) and bool(types)
        return None

    def visit_With(self, node: cst.With) -> None:
        how = self._suppressing(node)
        if how is not None:
            self._check(node, node.body, f"with {how[0]}", how[1])


def _first(handler: cst.ExceptHandler | cst.ExceptStarHandler) -> cst.CSTNode:
    body = handler.body
    first = body.body[0] if isinstance(body, cst.IndentedBlock) and body.body else body
    if isinstance(first, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) and first.body:
        return first.body[0]
    return first
