"""Child-process probes, so that each measurement starts from a fresh interpreter.

``python -m bench.probe promote ROOT NOW`` times ``Workspace.promote()`` alone
(imports and opening the workspace are outside the timer) and prints JSON.
``python -m bench.probe rss CMD...`` runs CMD and prints its peak RSS in KiB: in
this process CMD is the only child, so ``RUSAGE_CHILDREN``'s maximum is its own.
``python -m bench.probe profile VERB ROOT NOW [QUERY]`` prints a cProfile of
``promote`` or ``recall`` (the 25 costliest functions by cumulative time).
``python -m bench.probe phases ROOT NOW [--json]`` times one promote's phases
(``bench.phases``: wall seconds, no profiler).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path


def _verb(name: str, root: str, now: str, query: str) -> Callable[[], object]:
    from gardener import Workspace

    ws = Workspace(Path(root), now_override=now)
    if name == "promote":
        return lambda: ws.promote(force=True)
    if name == "recall":
        return lambda: ws.recall(query)
    raise SystemExit(f"unknown verb {name!r}")


def time_promote(root: str, now: str) -> dict[str, float]:
    """Seconds ``Workspace.promote()`` takes, and this process's peak RSS (MiB)."""
    call = _verb("promote", root, now, "")
    started = time.perf_counter()
    call()
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "rss_mb": _peak_mb()}


def _peak_mb() -> float:
    """This process's peak resident memory (MiB): Linux's ``VmHWM``, which an
    exec starts again, not ``ru_maxrss``, which keeps the peak of the process
    that forked this one (a bench that built a big workspace in-process
    would show its own peak here)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def peak_rss_kib(cmd: list[str]) -> int:
    """Run ``cmd`` (output discarded) and return its peak resident set in KiB."""
    subprocess.run(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
    )
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def profile(verb: str, root: str, now: str, query: str = "database") -> None:
    """Print the costliest functions of one ``promote`` or ``recall`` call."""
    import cProfile
    import pstats

    call = _verb(verb, root, now, query)
    prof = cProfile.Profile()
    prof.runcall(call)
    pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


def main(argv: list[str]) -> None:
    if argv[:1] == ["promote"] and len(argv) == 3:
        print(json.dumps(time_promote(argv[1], argv[2])))
    elif argv[:1] == ["rss"] and len(argv) > 1:
        print(peak_rss_kib(argv[1:]))
    elif argv[:1] == ["phases"] and len(argv) in (3, 4):
        from .phases import phases, report

        total, spent = phases(_verb("promote", argv[1], argv[2], ""))
        as_json = {"seconds": total, "phases": spent}
        print(json.dumps(as_json) if argv[3:] == ["--json"] else report(total, spent))
    elif argv[:1] == ["profile"] and len(argv) in (4, 5):
        profile(*argv[1:])
    else:
        print(__doc__, file=sys.stderr)
        raise SystemExit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
