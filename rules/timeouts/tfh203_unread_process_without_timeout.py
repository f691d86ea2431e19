"""TFH203 unread-process-without-timeout (s52: TFH201 split by the evidence a finding rests on)."""

from __future__ import annotations

from typing import Any

import libcst as cst

from ...linter.api import RawFix
from .tfh201_call_without_timeout import CallWithoutTimeout


class UnreadProcessWithoutTimeout(CallWithoutTimeout):
    code = "TFH203"
    name = "unread-process-without-timeout"
    summary = "A process whose command the linter cannot read runs without a timeout (off by default)."
    message = "{call} has no {keyword} and runs a command the linter cannot read; {fix}"
    unread_only = True
    unread_note = " and waits on a process whose command the linter cannot read"
    #: s53 (issue 23): when TFH201 runs on the file too, its one traversal makes this rule's findings (``ride``)
    shares_pass_of = "TFH201"

    def report(self, node: cst.CSTNode, message: str | None = None, *, autofix: RawFix | None = None,
               **fields: Any) -> None:
        """TFH201's report, its advice naming this code (``# noqa: TFH203``, not TFH201)."""
        if message is not None:
            message = message.replace("TFH201", self.code)
        fields = {k: v.replace("TFH201", self.code) if isinstance(v, str) else v for k, v in fields.items()}
        super().report(node, message, autofix=autofix, **fields)

    docs = """\
## What it does
Finds the process calls TFH201 would report but whose command gives the
linter no reason to think it may not end: `subprocess.run(cmd)`,
`check_output([self._binary, "status"])`, `Popen(argv).communicate()`, a
`proc.wait()` on a process started elsewhere, where no literal word of the
command (read through local and module names, the class's attributes, the
helpers and the literal commands every caller hands in) names a program or
sub-command that reaches another machine (`git push`, `ssh`, `curl`, `gh`,
`kubectl`), runs long (`pip install`, `pytest`, `docker build`) or may wait
at a prompt (`sudo`). Off by default: turn it on with
`extend-select = ["TFH203"]` (or flake8's `--extend-select TFH203`).

TFH201 keeps the processes whose command says one of those things, and every
process a tool runs (a function a framework registers as a tool: the model
chose the command, so a hang stalls the agent).

## Why is this bad?
A process without a timeout can hang the caller forever. But a program the
linter cannot read is as often a local instant command (`git rev-parse`
through a helper, `systemctl`, `rm`), an editor waiting for a person or an
install the person started, and no timeout fits those. Measured on the
real-code survey (1,047 labelled TFH201 findings over 24 batches), findings
that rest on such a command were right 29-53% of the time, against 88-100%
for HTTP, SDK and network-program findings; so they are a separate rule you
opt into when you want the wider net (a code-running agent, a job runner).

## Example
```python
import subprocess

def run_step(step):
    return subprocess.run(step.argv, capture_output=True)
```

## Use instead
```python
import subprocess

def run_step(step):
    return subprocess.run(step.argv, capture_output=True, timeout=step.seconds)
```

## Fix
`--fix` does what TFH201's fix does where TFH201 would offer one, on purpose
rarely: a command the linter cannot read gives no run time to guess, so most
findings come with no fix and say why ("the command is built at run time").
Where one is offered (`subprocess.run([...], timeout=30)`, the configured
`default-timeout-seconds` for processes), it changes behaviour at run time: a
run longer than the bound raises `subprocess.TimeoutExpired`.

## How to suppress
Leave the rule off (the default), or, where it is on, suppress a line whose
command waits for a person or finishes at once with `# noqa: TFH203`, or a
whole directory with `per-file-ignores` (`"scripts/*" = ["TFH203"]`). When a
process this rule reports does reach another machine or run long, a literal
word of its command saying so (`[self._git, "fetch", url]`) moves it to TFH201,
as does (s53) a caller handing a captured helper a remote command
(`_run(["git", "push"])`).
"""
    VALID = [
        # what TFH201 reports (a network program; a tool's command) is not TFH203's
        """\
import subprocess
def push(remote):
    subprocess.run(["git", "push", remote])
""",
        """\
import subprocess
from langchain_core.tools import tool
@tool
def shell(command: str) -> str:
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout
""",
        # a literal local program is silent for both rules
        """\
import subprocess
def head():
    return subprocess.check_output(["git", "rev-parse", "HEAD"])
""",
        """\
import requests
def fetch(url):
    return requests.get(url)
""",
    ]
    # and every example of TFH201 with a line marked `# error: TFH203` (the lines TFH201 reported before the split)
    INVALID = [
        *(src for src in CallWithoutTimeout.INVALID if "# error: TFH203" in src),
        """\
import subprocess
def run_step(step):
    return subprocess.run(step.argv, capture_output=True)  # error: TFH203 "cannot read"
""",
        """\
import subprocess
def run(cmd):
    subprocess.run(cmd, check=True)  # error: TFH203
""",
        """\
import subprocess
def drain(argv):
    p = subprocess.Popen(argv, stdout=subprocess.PIPE)
    return p.communicate()  # error: TFH203
""",
        """\
import asyncio
async def finish(cmd):
    proc = await asyncio.create_subprocess_shell(cmd)
    await proc.wait()  # error: TFH203 "waits on a process whose command the linter cannot read"
""",
    ]
