"""Run commands and time them: the gardener, its baselines, the search tool, probes."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from .workspaces import GIT_ID

PYTHON = sys.executable


def gardener() -> list[str]:
    """The ``gardener`` command of this interpreter's environment."""
    beside = Path(PYTHON).parent / "gardener"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("gardener")
    return [found] if found else [PYTHON, "-m", "gardener"]


def env(now: str) -> dict[str, str]:
    """The environment for a gardener run with the clock fixed at ``now``."""
    return {**os.environ, "GARDENER_NOW": now}


def run(cmd: Sequence[str], now: str = "", cwd: Path | None = None) -> float:
    """Wall-clock seconds ``cmd`` takes, output discarded; a failure raises."""
    started = time.perf_counter()
    done = subprocess.run(
        list(cmd),
        cwd=cwd,
        env=env(now) if now else None,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1) or (done.returncode == 1 and done.stderr):
        raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr.decode()[:300]}")
    return seconds


def python_pass() -> float:
    """Seconds a bare ``python -c pass`` of this interpreter takes."""
    return run([PYTHON, "-c", "pass"])


def shell_commit(root: Path, line: str, name: str = "baseline.md") -> float:
    """Seconds a shell takes to append ``line`` to a file and ``git commit`` it."""
    script = (
        'printf "%s\\n" "$1" >> "$2" && '
        f'git {" ".join(GIT_ID)} add -- "$2" && '
        f'git {" ".join(GIT_ID)} commit -q -m "note: $1" -- "$2"'
    )
    return run(["sh", "-c", script, "sh", line, name], cwd=root)


def git_of_a_pass(root: Path, note: str) -> float:
    """Seconds raw git takes for the commands a promote pass of one new day
    runs: ``status``, then ``add`` and ``commit --only`` of the new note
    (``note``, relative; record's commit), then of MEMORY.md with a line
    appended (promote's). Git's own cost, which grows with the files its
    index holds, measured apart from the gardener's."""
    commit = f"git {' '.join(GIT_ID)} -c maintenance.auto=false commit -q --only"
    script = (
        "git status --porcelain -z -- MEMORY.md memory rules.md >/dev/null && "
        f'git add -- "$1" && {commit} -m record -- "$1" && '
        'printf "%s\\n" "- a line" >> MEMORY.md && '
        f"git add -- MEMORY.md && {commit} -m promote -- MEMORY.md"
    )
    return run(["sh", "-c", script, "sh", note], cwd=root)


def search_tool() -> tuple[str, list[str]]:
    """ripgrep if installed, else ``grep -r``: (name, command prefix before the pattern)."""
    if shutil.which("rg"):
        return "ripgrep", ["rg", "--no-heading", "-i", "-e"]
    return "grep -r", ["grep", "-r", "-i", "-e"]


def search(query: str, files: Sequence[Path]) -> float:
    """Seconds the search tool takes to find ``query`` in ``files``."""
    _, prefix = search_tool()
    return run([*prefix, query, *(str(f) for f in files)])


def interleave(times: int, *runs: Callable[[], float]) -> list[float]:
    """Run each measurement ``times`` times, taking turns; the median of each."""
    samples: list[list[float]] = [[] for _ in runs]
    for _ in range(times):
        for sample, measure in zip(samples, runs, strict=True):
            sample.append(measure())
    return [statistics.median(s) for s in samples]


def probe_promote(
    root: Path, now: str, timeout: float | None = None
) -> dict[str, float] | None:
    """``Workspace.promote()`` on ``root`` timed in a fresh interpreter (see probe).

    Returns None if it did not finish within ``timeout`` seconds (it is stopped).
    """
    try:
        out = subprocess.run(
            [PYTHON, "-m", "bench.probe", "promote", str(root), now],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parent.parent,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None
    data: dict[str, float] = json.loads(out.stdout)
    return data


def probe_phases(root: Path, now: str, timeout: float | None = None) -> str:
    """The phases of one ``Workspace.promote()`` on ``root`` (``bench.phases``),
    as the probe prints them; what went wrong instead, if it failed."""
    try:
        out = subprocess.run(
            [PYTHON, "-m", "bench.probe", "phases", str(root), now],
            capture_output=True,
            text=True,
            check=False,
            cwd=Path(__file__).resolve().parent.parent,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return f"stopped after {timeout:.0f} s"
    return out.stdout.rstrip() if out.returncode == 0 else out.stderr[-500:]


def peak_rss_mb(cmd: Sequence[str], now: str = "") -> float:
    """Peak resident memory of ``cmd`` in MiB, measured by a probe process."""
    out = subprocess.run(
        [PYTHON, "-m", "bench.probe", "rss", *cmd],
        capture_output=True,
        text=True,
        check=True,
        env=env(now) if now else None,
        cwd=Path(__file__).resolve().parent.parent,
    )
    return int(out.stdout) / 1024
