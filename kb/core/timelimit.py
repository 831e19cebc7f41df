"""A time limit on a pack's own code: a worked example's run, a game's ``mechanics.py`` import.

Pack code may loop; no command may hang on it. :func:`time_limit` interrupts the running Python code after
so many seconds with :class:`TimeLimit` (``example-timeout`` for an example, ``mechanics-import`` for a module).
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

__all__ = ["SECONDS", "TimeLimit", "time_limit"]

SECONDS = 5.0
"""The time one worked example, or the import of one game's mechanics module, may take by default."""


class TimeLimit(BaseException):
    """Raised inside pack code that ran past its time limit (not an ``Exception``: ``except Exception`` in a
    resolver cannot swallow it)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`TimeLimit` in the running code after ``seconds``.

    In the main thread a real-time timer (``SIGALRM``) interrupts any Python code; elsewhere a trace
    function checks the clock. Neither can stop a single long call into C (one huge power, say).
    """
    if seconds <= 0:
        yield
        return
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        def alarm(_signum: int, _frame: Any) -> None:
            raise TimeLimit()

        previous = signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        return
    deadline = time.monotonic() + seconds

    def trace(frame: Any, event: str, arg: Any) -> Any:
        if time.monotonic() > deadline:
            raise TimeLimit()
        return trace

    old = sys.gettrace()
    sys.settrace(trace)
    try:
        yield
    finally:
        sys.settrace(old)
