"""The benchmark's corpus: the outside cases (``data/*.jsonl``, built once by
``bench.secrets.build``) and our own (``data/own.tsv``, halves a and b by a CRC
of the text; ``data/own-c.tsv``, half c, written later, held out until the third
pass and tuned on since; ``data/own-d.tsv``, half d, written by someone who
never saw the rules' misses, held out until the fourth pass and tuned on since;
``data/own-e.tsv``, half e, written apart like half d, measured once blind,
then split: two thirds tuned on, a third (``check``) measured only at the end;
``data/own-f.tsv``, half f, written apart, held out for the fifth pass and
tuned on since; ``data/own-g.tsv``, half g, held out, optional: written
before the sixth pass changed any code), as ``Case`` rows; and the direct-write corpus made from them
(``direct_lines``)."""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

from gardener.neverstore.redact import find

DATA = Path(__file__).parent / "data"
OUTSIDE = ("gitleaks", "detect-secrets")
# Secret cases of the outside suites left out of the figures, listed so the
# figure says what it leaves out: dummy values of x's that a memory should let
# through as the placeholders they are (never-store skips them:
# ``tokens.placeholder``), a URL whose password is the word "password", and
# two format strings detect-secrets fills in at test time (``"{secret}"``),
# which are no cases as written.
_DUMMIES = """AP6xxxxxxxxxx AP2xxxxxxxxxx AP3xxxxxxxxxx AP5xxxxxxxxxx APAxxxxxxxxxx
    APBxxxxxxxxxx AKCxxxxxxxxxx =AP6xxxxxxxxxx =AKCxxxxxxxxxx "AP6xxxxxxxxxx"
    "AKCxxxxxxxxxx" artif-key:AP6xxxxxxxxxx artif-key:AKCxxxxxxxxxx
    artifactoryx:_password=AKCxxxxxxxxxx artifactoryx:_password=AP6xxxxxxxxxx
    //registry.npmjs.org/:_authToken=npm_xxxxxxxxxxx
    SKxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"""
EXCLUDED: frozenset[str] = frozenset(
    [
        *_DUMMIES.split(),
        " AP6xxxxxxxxxx",
        " AKCxxxxxxxxxx",
        "X-JFrog-Art-Api: AKCxxxxxxxxxx",
        "X-JFrog-Art-Api: AP6xxxxxxxxxx",
        "https://username:password@yelp.com",
        '"{secret}"',
        "'{secret}'",
    ]
)


@dataclass(frozen=True)
class Case:
    source: str  # gitleaks, detect-secrets, own
    where: str  # upstream path@commit, or own:<language>
    text: str
    secret: bool
    value: str | None  # the secret itself, when known (for the leak count)
    guess: str | None = None  # a token that may be it (see bench.secrets.build)
    half: str | None = None  # "c" ... "g" (own-c.tsv ... own-g.tsv); else by CRC


# Our own files, each with its half (None: by CRC). A file that is absent is
# skipped: the held-out half is written apart and may not be there.
OWN = (
    ("own.tsv", None),
    ("own-c.tsv", "c"),
    ("own-d.tsv", "d"),
    ("own-e.tsv", "e"),
    ("own-f.tsv", "f"),
    ("own-g.tsv", "g"),
)
# Halves whose misses the bench never lists, so nobody tunes on them: g, and
# the third of e split off before e was tuned on (``part``).
HELD_OUT = frozenset({"g", "e-check"})
# The salt of the CRC that splits e: fixed, so the check third never moves.
_CHECK_SALT = b"own-e check third, 2026-12-03"


def part(case: Case) -> str | None:
    """The part of its file a case is in: for half e, "e" (tuned on) or
    "e-check" (a third, fixed by a salted CRC of its text, measured only at the
    end); else its file's half (None for own.tsv and the outside cases)."""
    if case.half != "e":
        return case.half
    crc = zlib.crc32(_CHECK_SALT + case.text.encode("utf-8"))
    return "e-check" if crc % 3 == 0 else "e"


def load() -> list[Case]:
    """Every case, outside ones first, in file order."""
    cases: list[Case] = []
    for name in OUTSIDE:
        path = DATA / f"{name}.jsonl"
        if not path.exists():
            continue
        for raw in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(raw)
            if row["secret"] and row["text"] in EXCLUDED:
                continue
            cases.append(
                Case(
                    row["source"],
                    row["where"],
                    row["text"],
                    row["secret"],
                    row["value"],
                    row.get("guess"),
                )  # fmt: skip
            )
    for name, part in OWN:
        path = DATA / name
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            secret, lang, value, text = line.split("\t", 3)
            cases.append(
                Case(
                    "own", f"own:{lang}", text, secret == "1", value or None, None, part
                )
            )
    return cases


_AROUND = re.compile(r"[A-Za-z0-9_+/=@:.~!$%&*?^|#-]+")


def secret_value(case: Case) -> str | None:
    """The value a secret case holds, as a whole token of its text: the known
    value, else the guess where a never-store finding covers it; None else."""
    value = case.value
    if value is None and case.guess:
        at = case.text.find(case.guess)
        spans = [(f.start, f.end) for f in find(case.text)]
        if any(s < at + len(case.guess) and at < e for s, e in spans):
            value = case.guess
    if not value or value not in case.text:
        return None
    at = case.text.find(value)
    for m in _AROUND.finditer(case.text):
        if m.start() <= at and at + len(value) <= m.end():
            return m.group() if " " not in value else value
    return value


def direct_lines(cases: list[Case], size: int) -> list[tuple[str, str]]:
    """At least ``size`` entries an agent might write straight into its notes,
    each with the value it holds: every secret case with a value
    (``secret_value``), as an entry (a multi-line text with its later lines
    indented under it); after it, in turn, nothing, its value again bare on a
    later line, its value under a dangling label (``password:``, the value on
    the next line), or wrapped across two lines; the cases again until
    ``size`` entries."""
    base = [(c, v) for c in cases if c.secret and (v := secret_value(c))]
    out: list[tuple[str, str]] = []
    turn = 0
    while len(out) < size and base:
        for i, (case, value) in enumerate(base):
            out.append(("- " + case.text.replace("\n", "\n  "), value))
            kind = (i + turn) % 4
            if " " in value or "\n" in value:
                continue
            if kind == 1:
                out.append((f"- {value} is the one to use", value))
            elif kind == 2:
                out.append((f"- config:\n  password:\n    {value}", value))
            elif kind == 3 and len(value) >= 16:
                half = len(value) // 2
                out.append(
                    (f"- the token {value[:half]}\n  {value[half:]} (wrapped)", value)
                )
        turn += 1
    return out
