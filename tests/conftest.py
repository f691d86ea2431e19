import sys
from pathlib import Path

# Make tests/strategies.py importable as `strategies`.
sys.path.insert(0, str(Path(__file__).parent))


# ---------------------------------------------------------------- PostgreSQL for the ledger tests

import os  # noqa: E402
import subprocess  # noqa: E402

import pytest  # noqa: E402

_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def pg_dsn():
    """A PostgreSQL DSN: $SMULLYAN_PG_DSN, else a server started by .ci/postgres (stopped after).

    Skips, with the reason, only when no server can be started here; under CI
    (CI=true) that is a failure instead: the PostgreSQL tests never vanish from CI.
    """
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")
    dsn = os.environ.get("SMULLYAN_PG_DSN")
    started = False
    if not dsn:
        proc = subprocess.run(
            ["bash", str(_ROOT / ".ci" / "postgres")], capture_output=True, text=True, timeout=600
        )
        if proc.returncode != 0 or not proc.stdout.strip():
            reason = f"no PostgreSQL server could be started locally: {proc.stderr.strip()[-500:]}"
            if os.environ.get("CI") == "true":
                pytest.fail(reason)
            pytest.skip(reason)
        dsn = proc.stdout.strip()
        started = "reusing" not in proc.stderr
    yield dsn
    if started:
        subprocess.run(["bash", str(_ROOT / ".ci" / "postgres"), "stop"], capture_output=True, timeout=120)
