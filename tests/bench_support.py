"""Load a script of ``bench/`` as a module for the tests (the scripts are not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_bench(stem: str) -> ModuleType:
    """``bench/<stem>.py``, imported once as ``smullyan_bench_<stem>`` (kept in ``sys.modules``)."""
    name = f"smullyan_bench_{stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{stem}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
