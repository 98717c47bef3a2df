"""``python -m bench.secrets``: never-store against test cases nobody here wrote.

Prints, per source (gitleaks, detect-secrets, our own plain-words credentials
in several languages): recall (the share of secret cases ``note`` refuses) and
false refusals (the share of non-secret cases it refuses); then the
direct-write leak count: the corpus's entries written straight into daily
notes (one file, and one file per entry group), a promote pass, and each
value looked for in every object git holds and the reflogs. Nothing is
fetched: the cases are data under bench/secrets/data/ (see bench/README.md).

Options: ``--size N`` entries for the direct-write part (default 1200),
``--skip-direct``, ``--misses N`` to list up to N missed cases per source
(their first 160 characters: these are published test values or our own
invented ones; ``--half a``: only those of one half, a, b, c, d, e or f;
the check third of half e (``e-check``) and half g, ``data/own-g.tsv`` when
it is there, are held out: their figures are printed, their misses never
listed, nor in ``--json``), ``--json``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench.secrets.corpus import HELD_OUT, Case, direct_lines, load, part
from gardener.neverstore.redact import find


def refused(text: str) -> bool:
    """Whether ``note`` refuses ``text`` (read as one entry)."""
    return bool(find(text))


@dataclass
class Score:
    """One source's figures: secrets refused, non-secrets refused."""

    secrets: int = 0
    refused: int = 0
    negatives: int = 0
    false_refusals: int = 0
    missed: list[str] = field(default_factory=list)
    falsely_refused: list[str] = field(default_factory=list)


def half(case: Case) -> str:
    """Which half of its set a case is in: "a" (the rules were tuned on its
    misses) or "b" (held out at first, tuned on since), fixed by a CRC of its
    text; or the half its file names: "c" (``own-c.tsv``, held out for two
    passes, tuned on since), "d" (``own-d.tsv``, held out for one pass, tuned
    on since), "e" or "e-check" (``own-e.tsv``, measured once blind, then
    two thirds tuned on and a third held out: ``corpus.part``), "f"
    (``own-f.tsv``, held out for one pass, tuned on since) or "g"
    (``own-g.tsv``, held out: ``HELD_OUT``)."""
    if case.half:
        return part(case) or case.half
    return "ab"[zlib.crc32(case.text.encode("utf-8")) % 2]


def scores(cases: list[Case]) -> dict[str, Score]:
    """Per source, per half of it (``half``) and per language of our own cases:
    recall and false refusals."""
    out: dict[str, Score] = {}
    for case in cases:
        names = [case.source, f"{case.source}/{half(case)}"]
        names += [case.where] if case.source == "own" else []
        verdict = refused(case.text)
        for name in names:
            s = out.setdefault(name, Score())
            if case.secret:
                s.secrets += 1
                s.refused += verdict
                if not verdict and half(case) not in HELD_OUT:  # never listed
                    s.missed.append(case.text)
            else:
                s.negatives += 1
                s.false_refusals += verdict
                if verdict and half(case) not in HELD_OUT:
                    s.falsely_refused.append(case.text)
    return out


def real_refusals(folder: Path) -> tuple[int, int, int]:
    """(lines refused, of which for an e-mail address alone, non-blank lines)
    of the ``*.md`` files under ``folder``."""
    refused_lines = emails = total = 0
    for path in sorted(folder.rglob("*.md")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.strip():
                total += 1
                rules = {f.rule for f in find(line)}
                refused_lines += bool(rules)
                emails += rules == {"email"}
    return refused_lines, emails, total


def _git_everything(root: Path) -> str:
    """Every object git holds, and the reflogs, as text."""
    # each object's type alone as its header: a size or an object id could
    # hold a short value's digits ("blob 3306")
    objects = subprocess.run(
        [
            "git",
            "-C",
            str(root),
            "cat-file",
            "--batch-all-objects",
            "--batch=%(objecttype)",
        ],  # fmt: skip
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8", "replace")
    reflog = subprocess.run(
        ["git", "-C", str(root), "log", "-g", "-p", "--all"],
        capture_output=True,
        check=False,
    ).stdout.decode("utf-8", "replace")
    log = subprocess.run(
        ["git", "-C", str(root), "log", "-p", "--all"], capture_output=True, check=True
    ).stdout.decode("utf-8", "replace")
    # the commit messages name each redaction by path:line ("memory/x.md:2276")
    return re.sub(r"\.md:\d+", ".md:N", objects + reflog + log)


def direct_write(entries: list[tuple[str, str]], files: int) -> dict[str, object]:
    """Write ``entries`` into ``files`` daily notes (round robin) without the
    gardener, promote, and count the values git holds: those of entries
    ``note`` refuses, and of the others."""
    from gardener import Workspace

    with tempfile.TemporaryDirectory() as tmp:
        ws, _ = Workspace.init(Path(tmp) / "ws", now_override="2026-03-20T18:00")
        texts: dict[str, list[str]] = {}
        for i, (entry, _) in enumerate(entries):
            day = f"2026-03-{1 + i % files:02d}.md"
            texts.setdefault(day, []).append(entry)
        for day, lines in texts.items():
            (ws.root / "memory" / day).write_text(
                f"# {day[:-3]}\n\n" + "\n".join(lines) + "\n", encoding="utf-8"
            )
        started = time.perf_counter()
        ws.promote()
        seconds = time.perf_counter() - started
        everything = _git_everything(ws.root)
        # a value wrapped over two lines is looked for with the break taken out
        joined = re.sub(r"\n[+ ]?[ \t]*", "", everything)
        leaked: Counter[str] = Counter()
        values: dict[bool, set[str]] = {True: set(), False: set()}
        for entry, value in entries:
            values[refused(" ".join(entry[2:].split()))].add(value)
        values[False] -= values[True]
        found: dict[bool, list[str]] = {True: [], False: []}
        for kind, group in values.items():
            for value in sorted(group):
                # as a whole token: a PIN's four digits are no leak inside a
                # commit id that git log prints
                token = re.compile(
                    rf"(?<![0-9A-Za-z]){re.escape(value)}(?![0-9A-Za-z])"
                )
                if token.search(everything) or token.search(joined):
                    leaked["refused" if kind else "not refused"] += 1
                    found[kind].append(value)
        return {
            "files": len(texts),
            "entries": len(entries),
            "values_refused": len(values[True]),
            "values_not_refused": len(values[False]),
            "leaked_refused": leaked["refused"],
            "leaked_not_refused": leaked["not refused"],
            "promote_s": round(seconds, 2),
            "leaked_values": found[True],
        }


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.1%} ({part}/{whole})" if whole else "-"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.secrets")
    parser.add_argument("--size", type=int, default=1200)
    parser.add_argument("--skip-direct", action="store_true")
    parser.add_argument("--misses", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--half",
        choices=("a", "b", "c", "d", "e", "f"),
        help="list misses of this half only (--misses); e-check and g are held out",
    )
    parser.add_argument(
        "--trufflehog",
        metavar="GIT_DIR",
        help="a local copy of trufflehog (AGPL: read in place, never stored):"
        " its detector tests are scored too",
    )
    parser.add_argument(
        "--real",
        type=Path,
        help="a folder of real notes (*.md, read in place): the share of their"
        " lines note refuses",
    )
    args = parser.parse_args(argv)
    cases = load()
    if args.trufflehog:
        from bench.secrets.build import trufflehog

        cases += [
            Case(
                str(r["source"]), str(r["where"]), str(r["text"]), bool(r["secret"]),
                None, None,
            )
            for r in trufflehog(args.trufflehog)
        ]  # fmt: skip
    table = scores(cases)
    direct: list[dict[str, object]] = []
    if not args.skip_direct:
        entries = direct_lines(cases, args.size)
        direct = [direct_write(entries, 1), direct_write(entries, 20)]
    real = real_refusals(args.real) if args.real else None
    if args.json:
        figures = {k: asdict(v) for k, v in table.items()}
        json.dump(
            {"scores": figures, "direct": direct, "real": real}, sys.stdout, indent=1
        )
        return
    print(f"{'source':<16} {'recall':>18} {'false refusals':>18}")
    for name, s in table.items():
        recall = _share(s.refused, s.secrets)
        false = _share(s.false_refusals, s.negatives)
        print(f"{name:<16} {recall:>18} {false:>18}")
        if args.half and not name.endswith("/" + args.half):
            continue
        if any(name.endswith("/" + h) for h in HELD_OUT):
            continue  # held out: its misses are never listed, so never tuned on
        for text in s.missed[: args.misses]:
            print(f"    missed: {text[:160]!r}")
        for text in s.falsely_refused[: args.misses]:
            print(f"    refused: {text[:160]!r}")
    if real is not None:
        lines, emails, total = real
        print(
            f"real notes: {_share(lines - emails, total)} of their non-blank lines"
            f" refused for other than an e-mail address ({emails} lines for one)"
        )
    for d in direct:
        print(
            f"direct writes, {d['entries']} entries in {d['files']} note(s): values"
            f" in git: {d['leaked_refused']} of {d['values_refused']} that note refuses,"
            f" {d['leaked_not_refused']} of {d['values_not_refused']} it does not"
            f" (promote {d['promote_s']} s)"
        )


if __name__ == "__main__":
    main()
