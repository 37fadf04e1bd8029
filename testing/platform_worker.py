"""``medprobe worker`` for the tests: the real worker, optionally slowed down inside the engine's
rescore (``SLOW_SCORING_S``) so a test can kill it while a job is being scored."""

from __future__ import annotations

import os
import sys
import time

from medprobe.platform import scoring
from medprobe.platform.worker import run_worker

slow = float(os.environ.get("SLOW_SCORING_S") or 0)
if slow:
    real = scoring.rescore

    def slow_rescore(*args, **kwargs):  # type: ignore[no-untyped-def]
        time.sleep(slow)
        return real(*args, **kwargs)

    scoring.rescore = slow_rescore

run_worker(sys.argv[1], "worker-test")
