"""``python -m bench [--quick] [--write] [--keep] [--only FIGURE]``: build workspaces, print the table.

Not part of the test run, and it never fails: a figure that cannot be measured
shows up as a row saying why, and the exit code is 0.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from . import timing
from .figures import FIGURES, Setup, span
from .generate import Spec
from .table import Row, markdown, text
from .workspaces import Built, build

HERE = Path(__file__).resolve().parent
# days of "1 y", "5 y", "10 y"; keyed facts; repeats; promote timeout (s)
FULL = {
    "year": 365,
    "five": 1825,
    "ten": 3650,
    "facts": 18_000,
    "repeats": 7,
    "timeout": 90.0,
}
QUICK = {
    "year": 60,
    "five": 120,
    "ten": 240,
    "facts": 1_800,
    "repeats": 3,
    "timeout": 20.0,
}


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def workspaces(scratch: Path, sizes: dict[str, float]) -> dict[str, Built]:
    """The 1-day, 1-year, 5-year and 10-year workspaces, all notes kept.

    Only the last year goes through the setup promote (see ``workspaces.build``).
    """
    out: dict[str, Built] = {}
    for name, days in (("day", 1), ("year", sizes["year"]), ("five", sizes["five"]), ("ten", sizes["ten"])):  # fmt: skip
        spec = Spec(days=int(days), promoted_days=min(int(days), 365))
        out[name] = build(spec, scratch / name)
        log(
            f"built {span(out[name])}: {out[name].notes} notes in {out[name].seconds:.1f} s"
        )
    return out


def compile_bytecode() -> None:
    """Write the gardener's .pyc files first, as ``pip install`` does.

    With PYTHONDONTWRITEBYTECODE set (common in containers and CI) and an
    editable install, every run would otherwise compile each module from
    source, and the figures would measure the compiler, not the gardener.
    """
    import compileall

    import gardener

    compileall.compile_dir(Path(gardener.__file__).parent, quiet=1)


def context(built: dict[str, Built]) -> list[str]:
    """The lines under the table: when, where, what was measured how."""
    head = subprocess.run(
        ["git", "-C", str(HERE.parent), "describe", "--always", "--dirty"],
        capture_output=True, text=True, check=False,
    ).stdout.strip()  # fmt: skip
    tool, _ = timing.search_tool()
    sizes = ", ".join(
        f"{span(b)} = {b.notes} notes (setup {b.seconds:.0f} s)" for b in built.values()
    )
    return [
        f"Run {time.strftime('%Y-%m-%d %H:%M')} on {platform.platform()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, gardener at {head or 'unknown'}; medians.",
        f"Workspaces (about 12 entries a day, all notes kept): {sizes}. Only the last "
        "year went through the setup promote (older entries are in the ledger), so "
        "MEMORY.md holds about a year of facts, as a pruned workspace would.",
        f"Search baseline: {tool}. `note` and `recall` are whole processes; promote "
        "figures time `Workspace.promote()` in a fresh interpreter; peak RSS is "
        "`getrusage(RUSAGE_CHILDREN)` of a probe whose only child is the command.",
    ]


BEGIN, END = "<!-- bench:results:begin -->", "<!-- bench:results:end -->"


def write_results(readme: Path, table: str) -> None:
    """Put ``table`` between the results markers of ``readme``; keep the rest.

    The README explains the method around the table, so only the block
    between the markers is the run's to rewrite.
    """
    text = readme.read_text(encoding="utf-8")
    head, begin, rest = text.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise SystemExit(f"{readme} has no {BEGIN} ... {END} block to write into")
    readme.write_text(f"{head}{BEGIN}\n{table}{END}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "--quick", action="store_true", help="small sizes, under a minute"
    )
    parser.add_argument(
        "--write",
        action="store_true",
        help="also write the table into bench/README.md (between its markers)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the workspaces")
    parser.add_argument("--repeats", type=int, help="runs per figure (median)")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also print where one pass of each promote row spends its time",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=[f.__name__ for f in FIGURES],
        help="run only this figure (repeatable)",
    )
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    compile_bytecode()
    scratch = Path(tempfile.mkdtemp(prefix="gardener-bench-"))
    started = time.perf_counter()
    rows: list[Row] = []
    notes: list[str] = []
    setup: Setup | None = None
    try:
        built = workspaces(scratch, sizes)
        setup = Setup(
            scratch, args.repeats or int(sizes["repeats"]), int(sizes["facts"]),
            sizes["timeout"], built["day"], built["year"], built["five"], built["ten"],
            profile=args.profile,
        )  # fmt: skip
        notes = context(built)
        for figure in FIGURES:
            if args.only and figure.__name__ not in args.only:
                continue
            log(f"{figure.__name__} ...")
            try:
                rows += figure(setup)
            except Exception as exc:  # a benchmark never fails: it reports
                traceback.print_exc()
                rows.append(
                    Row(figure.__name__, "-", "-", None, "-", status=f"error: {exc}")
                )
    except Exception as exc:
        traceback.print_exc()
        notes.append(f"setup failed: {exc}")
    finally:
        if args.keep:
            log(f"workspaces kept in {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    notes.append(
        f"Whole run: {time.perf_counter() - started:.0f} s{' (--quick)' if args.quick else ''}."
    )
    print(text(rows))
    print()
    print("\n".join(notes))
    for figure, report in setup.profiles if setup is not None else ():
        print(f"\nphases of one pass, {figure} (wall and CPU seconds):\n{report}")
    if args.write:
        write_results(HERE / "README.md", markdown(rows, notes))
        log(f"wrote the table into {HERE / 'README.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
