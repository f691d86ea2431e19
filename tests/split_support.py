"""TFH201 and the code split from it (s52): TFH203, off by default, reports the processes whose command the linter
cannot read. Tests about which calls are reported at all (TFH201's shapes before the split) count either code."""

from __future__ import annotations

from smullyan.linter.config import Config

#: the default configuration with TFH203 selected beside TFH201
BOTH = Config().with_overrides(extend_select=["TFH203"])
#: the codes a call without a timeout is reported under
SPLIT = ("TFH201", "TFH203")
