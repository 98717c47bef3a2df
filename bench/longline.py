"""The long-line shape: the never-store check of one line of a megabyte.

A minified JSON file, a log or a page pasted into a note arrives as one line.
The check's rules read a line at a time, so a rule that reads on to the end of
its line from every word it matches costs the line's length per match: on a
line of secrets written one after another that was minutes for a megabyte.
The line here is the benchmark's own cases (``secrets/data/own*.tsv``, secrets
and hard negatives alike, so it is dense with credential words), copies of
them numbered and joined by spaces to 1 MB; the baseline is the same
characters with a line break in place of each joining space, one copy a line
(numbered, so no two lines are the same and none is read once for all).
Each is ``redact.find`` in a fresh interpreter, its regexes compiled on a short
text first (outside the timer). The target: the line costs about what its
lines cost, and a line ten times longer about ten times more.

``python -m bench.longline [--repeats N]`` prints the rows alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .table import Row, ms

if TYPE_CHECKING:
    from .figures import Setup

DATA = Path(__file__).parent / "secrets" / "data"
MEGABYTE = 1_000_000
SHORT = 100_000  # a line about ten times shorter (six copies, 117 KB)


def unit() -> str:
    """Every case text of ``own.tsv`` and ``own-c.tsv``, joined by spaces (~24 KB)."""
    texts = []
    for name in ("own.tsv", "own-c.tsv"):
        for row in (DATA / name).read_text(encoding="utf-8").splitlines():
            if row and not row.startswith("#"):
                texts.append(row.split("\t")[-1].replace("\\n", " "))
    return " ".join(texts)


def texts(size: int) -> tuple[str, str]:
    """(the line, the same characters as lines) of about ``size`` characters."""
    base = unit()
    copies = []
    total = 0
    while total < size:
        copies.append(f"{len(copies) + 1}. {base}")
        total += len(copies[-1]) + 1
    return " ".join(copies), "\n".join(copies)


def probe(kind: str, size: int) -> dict[str, float]:
    """Time ``find`` on one shape in this process: {"cpu": s, "wall": s, "found": n}."""
    from gardener.neverstore.redact import find

    line, lines = texts(size)
    find(unit()[:4000])  # compiles the rules' regexes: not what is measured
    text = line if kind == "line" else lines
    wall, cpu = time.perf_counter(), time.process_time()
    found = find(text)
    return {
        "cpu": time.process_time() - cpu,
        "wall": time.perf_counter() - wall,
        "found": len(found),
    }


def _run(kind: str, size: int, timeout: float) -> dict[str, float]:
    probe = ["--probe", kind, "--bytes", str(size)]
    cmd = [sys.executable, "-m", "bench.longline", *probe]
    out = subprocess.run(
        cmd, capture_output=True, text=True, check=True, timeout=timeout,
        cwd=Path(__file__).resolve().parent.parent,
    )  # fmt: skip
    return json.loads(out.stdout)


def rows(repeats: int, timeout: float = 600.0) -> list[Row]:
    """The megabyte line against its lines, and against a line of 100 KB."""
    samples: dict[tuple[str, int], list[dict[str, float]]] = {}
    shapes = (("lines", MEGABYTE), ("line", MEGABYTE), ("line", SHORT))
    for _ in range(repeats):  # taking turns: a busy machine slows them alike
        for shape in shapes:
            samples.setdefault(shape, []).append(_run(*shape, timeout))

    def cpu(shape: tuple[str, int]) -> float:
        return statistics.median(s["cpu"] for s in samples[shape])

    lines, line, short = (cpu(s) for s in shapes)
    size = f"{len(texts(MEGABYTE)[0]) / 1e6:.1f} MB"
    return [
        Row(
            f"never-store check of a {size} line (CPU)",
            f"the same text as {texts(MEGABYTE)[1].count(chr(10)) + 1} lines: {ms(lines)}",
            ms(line), line / lines, "<= 1.5x", line / lines, 1.5,
        ),
        Row(
            "the same, a line ten times longer (CPU)",
            f"a {len(texts(SHORT)[0]) / 1e6:.1f} MB line: {ms(short)}",
            ms(line), line / short, "<= 12x (linear)", line / short, 12.0,
        ),
    ]  # fmt: skip


def long_line(setup: Setup) -> list[Row]:
    """``rows``, three turns (one with ``--quick``): a turn is about a minute."""
    return rows(3 if setup.repeats >= 7 else 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.longline")
    parser.add_argument("--probe", choices=("line", "lines"))
    parser.add_argument("--bytes", type=int, default=MEGABYTE)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    if args.probe:
        print(json.dumps(probe(args.probe, args.bytes)))
        return 0
    from .table import text

    print(text(rows(args.repeats)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
