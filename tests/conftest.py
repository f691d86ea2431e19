import sys
from pathlib import Path

# Make tests/strategies.py importable as `strategies`.
sys.path.insert(0, str(Path(__file__).parent))


# ---------------------------------------------------------------- PostgreSQL for the ledger tests

import os  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

import pytest  # noqa: E402

_ROOT = Path(__file__).resolve().parent.parent
#: A directory of this run (made by the controlling process, inherited by pytest-xdist's workers):
#: a worker that starts the server leaves a mark there, and the controller stops the server once
#: every worker is done (a worker's own session end would stop it under the others' feet).
_RUN_DIR = "SMULLYAN_TEST_RUN_DIR"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slow group first (longest first, as a scheduler would), so that under pytest-xdist
    no worker picks up a minute-long test just when the others run out of work."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist)
        os.environ[_RUN_DIR] = tempfile.mkdtemp(prefix="smullyan-test-run-")


def pytest_unconfigure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or not os.environ.get(_RUN_DIR):
        return
    run_dir = Path(os.environ.pop(_RUN_DIR))
    if (run_dir / "pg-started").exists():
        subprocess.run(["bash", str(_ROOT / ".ci" / "postgres"), "stop"], capture_output=True, timeout=120)
    shutil.rmtree(run_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_dsn():
    """A PostgreSQL DSN: $SMULLYAN_PG_DSN, else a server started by .ci/postgres (stopped after the run).

    Skips, with the reason, only when no server can be started here; under CI
    (CI=true) that is a failure instead: the PostgreSQL tests never vanish from CI.
    Every xdist worker asks (this is per worker), one at a time under a lock: the first
    starts the server, the others reuse it.
    """
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")
    dsn = os.environ.get("SMULLYAN_PG_DSN")
    if dsn:
        yield dsn
        return
    import fcntl

    run_dir = Path(os.environ[_RUN_DIR])
    with open(run_dir / "pg.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = subprocess.run(
            ["bash", str(_ROOT / ".ci" / "postgres")], capture_output=True, text=True, timeout=600
        )
        if proc.returncode != 0 or not proc.stdout.strip():
            reason = f"no PostgreSQL server could be started locally: {proc.stderr.strip()[-500:]}"
            if os.environ.get("CI") == "true":
                pytest.fail(reason)
            pytest.skip(reason)
        if "reusing" not in proc.stderr:
            (run_dir / "pg-started").touch()
    yield proc.stdout.strip()
