"""s48 (issue 23, batch 20's portacode ``tunneling/privileged.py``): a module function that other modules of the
project import, handed its whole command, is read through every call of it in the project (other modules included):
silent when each hands a literal list of a local program, reported when one hands anything else."""

from __future__ import annotations

import textwrap
from pathlib import Path

from smullyan.linter.engine import lint_source
from smullyan.linter.project_calls import only_called
from split_support import BOTH, SPLIT  # s52: TFH201 and TFH203 together (see split_support)


HELPER = textwrap.dedent("""\
    import subprocess
    def run_checked(cmd):
        proc = subprocess.run(cmd, text=True, capture_output=True)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr)
        return proc
    def ensure_dir(path):
        run_checked(["mkdir", "-p", str(path)])
    """)


def tfh201(src: str, path: str) -> list[int]:
    found = lint_source(src, path, BOTH)
    assert not [f for f in found if f.code == "TFH002"], [f.message for f in found]
    return [f.line for f in found if f.code in SPLIT]


def project(tmp_path: Path, caller: str) -> str:
    (tmp_path / "app").mkdir()
    (tmp_path / "app/__init__.py").write_text("")
    (tmp_path / "app/privileged.py").write_text(HELPER)
    (tmp_path / "app/service.py").write_text(textwrap.dedent(caller))
    return str(tmp_path / "app/privileged.py")


def test_every_call_in_the_project_hands_a_local_command(tmp_path: Path) -> None:
    path = project(tmp_path, """\
        from .privileged import ensure_dir, run_checked
        def reload():
            run_checked(["systemctl", "daemon-reload"])
            run_checked(["rm", "-f", "/etc/app.conf"])
        """)
    assert tfh201(HELPER, path) == []


def test_one_caller_handing_a_remote_or_unknown_command_keeps_it_reported(tmp_path: Path) -> None:
    path = project(tmp_path, """\
        from .privileged import run_checked
        def install(url, argv):
            run_checked(["curl", "-fsSLo", "/tmp/x", url])
        """)
    assert tfh201(HELPER, path) == [3]
    # a name handed on as a callback, or imported under another name: its calls are not all seen
    for caller in ("from .privileged import run_checked\nhooks = [run_checked]\n",
                   "from .privileged import run_checked as rc\ndef go(argv):\n    rc(argv)\n",
                   "from .privileged import run_checked\ndef go(argv):\n    run_checked(argv)\n",
                   "from .privileged import run_checked\ndef go():\n    run_checked(cmd=['true'])\n"):
        (tmp_path / "app/service.py").write_text(caller)
        assert tfh201(HELPER, path) == [3], caller


def test_only_called() -> None:
    assert only_called(b"from .p import a, run_checked\nrun_checked(['x'])\ndef run_checked (c): pass\n", "run_checked")
    assert not only_called(b"from .p import run_checked as rc\n", "run_checked")
    assert not only_called(b"x = run_checked\n", "run_checked")
    assert not only_called(b"from .p import (\n    run_checked,\n)\n", "run_checked")
