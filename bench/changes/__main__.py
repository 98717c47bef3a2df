"""``python -m bench.changes``: changes of fact written as agents write them.

Each case is two days of notes (``bench/changes/data/*.toml``, the shape is in
``run.py``); the figure is how many reach their type's outcome: a change
supersedes, a removal ends, a keep leaves the fact alone. ``a.toml`` is the
half tuned on; ``b.toml`` is held out: its misses are never listed, so it
measures what the rules do on phrasings nobody tuned them for. A benchmark:
it exits 0 whatever it measures.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import tomllib
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bench.changes.run import Outcome, run_case

DATA = Path(__file__).parent / "data"
HELD_OUT = frozenset({"b"})
_TEMPLATE: Path | None = None


def load(half: str) -> list[dict[str, Any]]:
    path = DATA / f"{half}.toml"
    if not path.exists():
        return []
    return list(tomllib.loads(path.read_text(encoding="utf-8")).get("case", []))


def _one(args: tuple[dict[str, Any], str, bool]) -> Outcome:
    global _TEMPLATE
    case, scratch, oracle = args
    from gardener import Workspace

    if _TEMPLATE is None:
        _TEMPLATE = Path(tempfile.mkdtemp(dir=scratch)) / "ws"
        Workspace.init(_TEMPLATE, now_override="2026-05-01T09:00")
    root = Path(tempfile.mkdtemp(dir=scratch)) / "ws"
    try:
        return run_case(case, root, _TEMPLATE, oracle)
    except Exception as exc:  # a benchmark reports, it does not stop
        return Outcome(
            str(case["id"]),
            str(case["type"]),
            str(case.get("lang")),
            False,
            False,
            False,
            f"{type(exc).__name__}: {exc}",
        )


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.0f}%)" if d else "-"


def table(half: str, outs: list[Outcome]) -> list[str]:
    rows = []
    for kind in ("change", "removal", "keep"):
        of = [o for o in outs if o.type == kind]
        rows.append(
            f"| {half} | {kind} | {len(of)} | {_pct(sum(o.filed for o in of), len(of))} "
            f"| {_pct(sum(o.right for o in of), len(of))} "
            f"| {_pct(sum(o.top for o in of), len(of))} |"
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.changes")
    parser.add_argument(
        "--half",
        action="append",
        choices=("a", "b"),
        help="a half (repeatable; default both)",
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="list the misses of half a (b is held out)",
    )
    parser.add_argument("--lang", action="append", help="only these languages")
    parser.add_argument(
        "--judge",
        choices=("none", "oracle"),
        default="none",
        help="none: the rules alone; oracle: each day's review queue answered "
        "from the case, as a perfect judge would",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    halves = args.half or ["a", "b"]
    print("| half | type | cases | old filed on day 1 | right | recall's first hit |")
    print("|---|---|---|---|---|---|")
    misses: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="gardener-changes-") as scratch:
        for half in halves:
            cases = [
                c for c in load(half) if not args.lang or c.get("lang") in args.lang
            ]
            if not cases:
                print(f"| {half} | - | 0 | no cases in {DATA / (half + '.toml')} | | |")
                continue
            with ProcessPoolExecutor(args.jobs) as pool:
                work = [(c, scratch, args.judge == "oracle") for c in cases]
                outs = list(pool.map(_one, work, chunksize=4))
            print("\n".join(table(half, outs)))
            langs = Counter(o.lang for o in outs if o.right)
            total = Counter(o.lang for o in outs)
            print(
                "|  | by language: "
                + ", ".join(
                    f"{lang} {langs[lang]}/{n}" for lang, n in total.most_common()
                )
                + " | | | | |"
            )
            if half not in HELD_OUT:
                misses += [o for o in outs if not o.right]
    if args.verbose:
        for o in misses:
            print(f"- {o.case} [{o.type}]: {o.why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
