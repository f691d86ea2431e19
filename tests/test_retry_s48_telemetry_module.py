"""Session 48 (issue 23, batch 21's false TFH101 findings ``telemetry-export``): a module named for telemetry
(andromity ``telemetry.py``, stcode ``core/common/trace.py``) sends records delivered at least once; only the
file's name shows it, so the rule's VALID/INVALID examples cannot."""

from __future__ import annotations

import textwrap

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source

SEND = '''\
import json, time, urllib.request
def _post(endpoint, payload):
    for attempt in range(3):
        try:
            req = urllib.request.Request(endpoint, data=json.dumps(payload).encode(), method="POST")
            with urllib.request.urlopen(req, timeout=3.0):
                return True
        except Exception:
            time.sleep(0.1 * (2 ** attempt))
    return False
'''


def codes(path: str) -> list[str]:
    cfg = Config.default().only("TFH101")
    return [f.code for f in lint_source(textwrap.dedent(SEND), path, cfg)]


def test_a_post_retried_in_a_module_named_for_telemetry_is_not_reported() -> None:
    assert codes("andromity/telemetry.py") == []
    assert codes("stcode/core/common/trace.py") == []
    assert codes("pkg/otel_export.py") == []


def test_the_same_post_elsewhere_stays_reported() -> None:
    assert codes("pkg/orders.py") == ["TFH101"]
    assert codes("pkg/events.py") == ["TFH101"]  # events may be a person's calendar entries or CRM records
    assert codes("pkg/audit_log.py") == ["TFH101"]
