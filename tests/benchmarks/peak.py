"""Run a Python module as ``__main__`` and record this process's own peak resident memory.

    python peak.py MODULE [ARGS...]        (with $PEAK_FILE set: the peak in KiB is written there at exit)

The peak is ``VmHWM`` of ``/proc/self/status``: the high-water mark of this process's own address
space, which starts afresh at ``exec``. ``ru_maxrss`` of a child (``wait4``, or even
``getrusage(RUSAGE_SELF)`` inside it) also counts the pages it shared with its parent between fork
and exec, so a child ``python -c pass`` under a 300 MiB benchmark reads 311 MiB. Where ``/proc`` is
missing, ``getrusage(RUSAGE_SELF)`` is the fallback.
"""

from __future__ import annotations

import atexit
import os
import resource
import runpy
import sys


def peak_kib() -> int:
    """This process's own peak resident memory, in KiB."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _record() -> None:
    path = os.environ.get("PEAK_FILE")
    if path:
        with open(path, "w", encoding="ascii") as fh:
            fh.write(str(peak_kib()))


if __name__ == "__main__":
    atexit.register(_record)
    module, sys.argv = sys.argv[1], sys.argv[1:]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
