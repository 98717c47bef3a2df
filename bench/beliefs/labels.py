"""The hand labels of one workspace, read from ``bench/labels/<workspace>.*.tsv``.

Files (tab-separated, a header line first, ``#`` lines and blank lines skipped):

- ``<ws>.tsv``: ``path, line, label``: one row per top-level list item of a
  note the gardener reads, ``line`` as ``parse_note`` reports it (1-based),
  ``label`` one of ``durable``, ``transient``, ``ambiguous``.
- ``<ws>.supersede.tsv``: ``old, new, key hint``: ``old`` is ``path:line`` of
  the item whose value a later item changes; ``new`` is the ``path:line`` of
  that item, alternatives joined by ``|`` (any of them counts).
- ``<ws>.ok.tsv`` (optional): ``old, new, why``: supersessions the gardener
  makes that are judged fine although not a labelled change.
- ``<ws>.questions.tsv``: ``question, answer words``: words joined by ``|``,
  any one found (case-insensitive substring) in a top-3 recall hit answers it.

No note text is kept here beyond the short answer words and key hints.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

LABELS = ("durable", "transient", "ambiguous")
Item = tuple[str, int]  # (workspace-relative path, 1-based line)


@dataclass(frozen=True)
class Pair:
    """A real change of fact: ``old`` is replaced (or ended) by one of ``new``."""

    old: Item
    new: tuple[Item, ...]
    hint: str = ""


@dataclass(frozen=True)
class Question:
    question: str
    answers: tuple[str, ...]  # lower-cased; any one found answers it


@dataclass(frozen=True)
class Labels:
    """Everything labelled for one workspace; empty if it has no label files."""

    items: dict[Item, str] = field(default_factory=dict)
    pairs: tuple[Pair, ...] = ()
    ok: frozenset[tuple[Item, Item]] = frozenset()
    questions: tuple[Question, ...] = ()

    @property
    def files(self) -> frozenset[str]:
        """The note paths with at least one labelled item."""
        return frozenset(path for path, _ in self.items)


def item(text: str) -> Item:
    """``memory/2026-01-02.md:14`` as ``("memory/2026-01-02.md", 14)``; ValueError if malformed."""
    path, sep, line = text.strip().rpartition(":")
    if not sep or not path or not line.isdigit():
        raise ValueError(f"not path:line: {text!r}")
    return path, int(line)


def rows(path: str) -> list[list[str]]:
    """The data rows of a TSV file (header dropped); [] if there is no file."""
    if not os.path.isfile(path):
        return []
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    body = [ln for ln in lines[1:] if ln.strip() and not ln.startswith("#")]
    return [ln.split("\t") for ln in body]


def load(folder: str, workspace: str) -> Labels:
    """The labels of ``workspace`` in ``folder``. Raises ValueError naming the
    file and row for a malformed row or an unknown label."""
    base = os.path.join(folder, workspace)
    items: dict[Item, str] = {}
    for number, row in enumerate(rows(base + ".tsv"), 2):
        if len(row) < 3 or row[2] not in LABELS or not row[1].isdigit():
            raise ValueError(f"{base}.tsv, row {number}: expected path, line, label")
        items[(row[0], int(row[1]))] = row[2]
    pairs = tuple(
        Pair(item(row[0]), tuple(item(n) for n in row[1].split("|")), _get(row, 2))
        for row in rows(base + ".supersede.tsv")
    )
    ok = frozenset(
        (item(row[0]), item(row[1])) for row in rows(base + ".ok.tsv") if len(row) > 1
    )
    questions = tuple(
        Question(
            row[0], tuple(w.strip().casefold() for w in row[1].split("|") if w.strip())
        )
        for row in rows(base + ".questions.tsv")
        if len(row) > 1
    )
    return Labels(items, pairs, ok, questions)


def _get(row: list[str], index: int) -> str:
    return row[index] if len(row) > index else ""
