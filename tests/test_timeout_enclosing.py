"""TFH201 where the surrounding code already bounds the wait or owns the child (batch 5's held-out
false findings, generalised): a closure run only under its caller's deadline, and a child whose exit
code becomes the program's through the functions that return it."""

from __future__ import annotations

import textwrap

from smullyan.linter.engine import lint_source
from split_support import BOTH, SPLIT  # s52: TFH201 and TFH203 together (see split_support)



def tfh201(src: str) -> list[int]:
    return [f.line for f in lint_source(textwrap.dedent(src), "m.py", BOTH) if f.code in SPLIT]


def test_a_closure_awaited_only_under_the_callers_deadline_is_bounded() -> None:
    src = """\
        import asyncio
        async def spawn(argv, t):
            proc = await asyncio.create_subprocess_exec(*argv)
            async def _reap():
                await proc.wait()
            async def _both():
                await _reap()           # awaited in a closure that is itself bounded
            await asyncio.wait_for(_both(), timeout=t)
            async with asyncio.timeout(t):
                await _reap()
        """
    assert tfh201(src) == []


def test_a_closure_with_one_use_outside_a_deadline_stays_reported() -> None:
    for escape in (
        "asyncio.create_task(_reap())",   # a task outlives the deadline
        "await _reap()",                  # awaited with no deadline
        "return _reap",                   # handed out: run later, anywhere
        "coro = _reap()",                 # not awaited where it is made
    ):
        src = f"""\
            import asyncio
            async def spawn(argv, t):
                proc = await asyncio.create_subprocess_exec(*argv)
                async def _reap():
                    await proc.wait()
                await asyncio.wait_for(_reap(), timeout=t)
                {escape}
            """
        assert tfh201(src) == [5], escape


def test_a_closure_never_used_or_defined_under_a_deadline_is_reported() -> None:
    src = """\
        import asyncio
        async def spawn(argv):
            proc = await asyncio.create_subprocess_exec(*argv)
            async def _reap():
                await proc.wait()
        async def other(argv):
            proc = await asyncio.create_subprocess_exec(*argv)
            async def _reap():
                await proc.wait()
            await asyncio.wait_for(asyncio.shield(_reap()), 5)
        """
    # the shield's argument is not the wrapper's own: only a call handed straight to wait_for counts
    assert tfh201(src) == [5, 9]


def test_a_wrapper_of_another_library_with_the_same_name_is_no_deadline() -> None:
    src = """\
        import asyncio
        from mylib import wait_for
        async def spawn(argv, t):
            proc = await asyncio.create_subprocess_exec(*argv)
            async def _reap():
                await proc.wait()
            await wait_for(_reap(), t)
        """
    assert tfh201(src) == [6]


def test_a_worker_returning_its_childs_exit_code_to_the_program_is_silent() -> None:
    src = """\
        import asyncio, subprocess, sys
        def _leg(argv):
            return subprocess.call(argv)
        def _status(argv):
            return subprocess.run(argv).returncode
        async def _async_leg(argv):
            child = await asyncio.create_subprocess_exec(*argv)
            return await child.wait()
        def main():
            if sys.argv[1] == "a":
                return _leg(sys.argv[2:])
            if sys.argv[1] == "b":
                return asyncio.run(_async_leg(sys.argv[2:]))
            return _status(sys.argv[2:])
        def cli():
            sys.exit(main())
        """
    assert tfh201(src) == []


def test_a_child_whose_status_goes_anywhere_else_is_reported() -> None:
    src = """\
        import asyncio, subprocess, sys
        async def _run(argv):
            child = await asyncio.create_subprocess_exec(*argv)
            return await child.wait()
        def _leg(argv):
            return subprocess.call(argv)
        def main():
            print(asyncio.run(_run(sys.argv[1:])))   # printed, not the exit code
            return 0
        def report(argv):
            return _leg(argv)                       # a caller that keeps the status
        if __name__ == "__main__":
            raise SystemExit(main())
        """
    assert tfh201(src) == [4, 6]


def test_a_print_flag_alone_is_an_instant_query_but_not_with_more_words() -> None:
    from smullyan.linter.knowledge import interactive_process

    assert interactive_process(["lean", "--print-prefix"]) is not None
    assert interactive_process(["lean", "--print"]) is None            # the bare word is no query
    assert interactive_process(["lean", "--print-prefix", "x.lean"]) is None
    assert interactive_process(["lake", "build"]) is None


def test_each_command_of_a_literal_loop_is_read() -> None:
    src = """\
        import subprocess
        from pathlib import Path
        def prefix(root):
            commands = [["lean", "--print-prefix"]]
            commands.append([str(Path("~/.elan/bin/lean").expanduser()), "--print-prefix"])
            for command in commands:
                subprocess.run(command, capture_output=True, cwd=root)
        def versions(tools):
            for command in (["node", "--version"], ["npm", "install"]):
                subprocess.run(command, capture_output=True)
        def grown(extra):
            commands = [["node", "--version"]]
            commands.append(extra)
            for command in commands:
                subprocess.run(command)
        def rebound(argv):
            for command in (["node", "--version"],):
                subprocess.run(command)
            command = argv
            subprocess.run(command)
        """
    assert tfh201(src) == [10, 15, 18, 20]
