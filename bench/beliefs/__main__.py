"""``python -m bench.beliefs [--corpus PATH] [--json] [--verbose] [--only WS] [--keep]``.

Runs every workspace of the corpus (default ``<repo>/../shared/corpus/real``,
or env ``GARDENER_CORPUS``) through the gardener and prints the figures against
the labels in bench/labels/. A benchmark, not a test: it exits 0 whatever it
measures, and when the corpus is absent it says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from . import labels as labelfiles
from .report import as_json, text
from .run import Run, run
from .score import Score, score
from .setups import setup_of

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
LABELS = HERE.parent / "labels"


def corpus_path(given: str | None) -> Path:
    """``--corpus``, else env ``GARDENER_CORPUS``, else ``<repo>/../shared/corpus/real``."""
    return Path(
        given
        or os.environ.get("GARDENER_CORPUS")
        or REPO.parent / "shared" / "corpus" / "real"
    )


def measure(
    corpus: Path, folder: Path, scratch: Path, only: list[str], judge: str = "none"
) -> list[tuple[Run, Score | None]]:
    """Each workspace of ``corpus`` run and scored (``only``: those named)."""
    results: list[tuple[Run, Score | None]] = []
    for source in sorted(p for p in corpus.iterdir() if p.is_dir()):
        if only and source.name not in only:
            continue
        setup = setup_of(source.name)
        if setup.skip:
            results.append((Run(source.name, setup), None))
            continue
        print(f"[beliefs] {source.name}", file=sys.stderr, flush=True)
        lab = labelfiles.load(str(folder), source.name)
        done = run(source, scratch, setup, lab, judge)
        answers = {day: [a.answered for a in got] for day, got in done.answers.items()}
        s = score(done.items, done.decisions, done.facts, answers, lab, done.placed)
        results.append((done, s))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.beliefs", description=__doc__.split("\n\n")[1]
    )
    parser.add_argument(
        "--corpus",
        help="the folder of workspaces (default: env GARDENER_CORPUS or ../shared/corpus/real)",
    )
    parser.add_argument(
        "--labels", default=str(LABELS), help="the folder of label files"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--verbose", action="store_true", help="list every miss")
    parser.add_argument(
        "--only", action="append", default=[], help="one workspace (repeatable)"
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the scratch workspaces"
    )
    parser.add_argument(
        "--judge", choices=("none", "oracle"), default="none",
        help="none: the rules alone; oracle: day 1's review queue answered from the labels",
    )  # fmt: skip
    args = parser.parse_args(argv)
    corpus = corpus_path(args.corpus)
    if not corpus.is_dir():
        print(
            f"bench.beliefs: no corpus at {corpus} (set --corpus or GARDENER_CORPUS); nothing measured"
        )
        return 0
    scratch = Path(tempfile.mkdtemp(prefix="gardener-beliefs-"))
    try:
        results = measure(corpus, Path(args.labels), scratch, args.only, args.judge)
    finally:
        if args.keep:
            print(f"[beliefs] workspaces kept in {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    total = Score()
    for _, s in results:
        if s is not None:
            total.add(s)
    if args.json:
        print(json.dumps(as_json(results, total, args.verbose), indent=2))
    else:
        print(text(results, total, args.verbose))
    return 0


if __name__ == "__main__":
    sys.exit(main())
