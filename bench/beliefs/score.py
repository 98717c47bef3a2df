"""The figures of one run against its labels, and their totals. Pure: no I/O.

- **filed**: an item a promote decision wrote a fact for (``add``, ``supersede``,
  ``update``, ``history``); a **repeat** (``reject``: the fact was already there)
  counts as kept for durable recall but not as filed.
- **durable recall**: durable items kept / durable items.
- **false promotion**: filed items labelled transient / filed labelled items.
- **supersessions**: the gardener's pairs are (the item that filed the replaced
  fact, the item whose decision replaced it), from the decisions' ``replaced``
  and MEMORY.md's ``superseded-by``. A labelled pair is *right* if the gardener
  made it (with any of its ``new`` items), else *missed*; a gardener pair that
  is no labelled pair and not in ``<ws>.ok.tsv`` is *wrong*.
- Only items in labelled files count; **coverage** is labelled / all items.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .labels import Item, Labels

FILED = frozenset({"add", "supersede", "update", "history"})
REPEAT = "reject"


@dataclass(frozen=True)
class Miss:
    """One thing the gardener got wrong, for ``--verbose``."""

    what: str  # "durable not kept", "transient filed", "pair missed", "wrong pair", ...
    where: str  # path:line (or old -> new)
    label: str
    did: str  # what the gardener did with it


@dataclass
class Score:
    """Counts for one workspace (or the total); ratios are computed from them."""

    items: int = 0  # every item of the notes read
    labelled: int = 0
    stale: int = 0  # label rows naming no item the parser reports
    durable: int = 0
    durable_kept: int = 0
    filed: int = 0  # filed labelled items
    filed_transient: int = 0
    pairs: int = 0
    right: int = 0
    wrong: int = 0
    questions: int = 0
    day1: int = 0
    day36: int = 0
    misses: list[Miss] = field(default_factory=list)

    def add(self, other: Score) -> None:
        for name in self.__dataclass_fields__:
            if name != "misses":
                setattr(self, name, getattr(self, name) + getattr(other, name))
        self.misses += other.misses

    @property
    def missed(self) -> int:
        return self.pairs - self.right


def ratio(part: int, whole: int) -> float | None:
    """``part / whole``; None when ``whole`` is 0 (nothing to measure)."""
    return part / whole if whole else None


def where(item: Item) -> str:
    return f"{item[0]}:{item[1]}"


def by_item(
    decisions: Sequence[Mapping[str, object]],
) -> dict[Item, Mapping[str, object]]:
    """The decision that counts for each item: a filing one over any other,
    else the first (a later pass does not process an item again)."""
    out: dict[Item, Mapping[str, object]] = {}
    for d in decisions:
        key = (str(d["path"]), int(str(d["line"])))
        if key not in out or (d["action"] in FILED and out[key]["action"] not in FILED):
            out[key] = d
    return out


def gardener_pairs(
    decisions: Sequence[Mapping[str, object]], facts: Mapping[str, Mapping[str, object]]
) -> set[tuple[Item | str, Item]]:
    """The supersessions the gardener made, as (old item, new item); an old
    fact that came from no note item is named by its id."""
    origin: dict[str, Item] = {}
    for d in decisions:
        if d["action"] in FILED and isinstance(d.get("fact"), str):
            origin.setdefault(str(d["fact"]), (str(d["path"]), int(str(d["line"]))))
    pairs: set[tuple[Item | str, Item]] = set()
    for d in decisions:
        replaced = d.get("replaced")
        if isinstance(replaced, str):
            pairs.add(
                (origin.get(replaced, replaced), (str(d["path"]), int(str(d["line"]))))
            )
    for ident, fact in facts.items():
        newer = fact.get("superseded_by")
        if isinstance(newer, str) and newer in origin:
            pairs.add((origin.get(ident, ident), origin[newer]))
    return pairs


def score(
    items: Mapping[Item, object],
    decisions: Sequence[Mapping[str, object]],
    facts: Mapping[str, Mapping[str, object]],
    answers: Mapping[str, Iterable[bool]],
    labels: Labels,
    placed: Mapping[Item, str] | None = None,
) -> Score:
    """The Score of one run: ``items`` every item the gardener read (keys are
    enough), ``decisions`` promote's, ``facts`` MEMORY.md's by id (with
    ``superseded_by``), ``answers`` day -> answered flags ("1", "36"),
    ``placed`` the classifier's word per item (only for the misses' text)."""
    placed = placed or {}
    s = Score(items=len(items))
    files = labels.files
    counted = {i: lab for i, lab in labels.items.items() if i in items}
    s.labelled, s.stale = len(counted), len(labels.items) - len(counted)
    done = by_item(decisions)
    for item, label in sorted(counted.items()):
        d = done.get(item)
        action = str(d["action"]) if d else ""
        did = _did(d, placed.get(item))
        if label == "durable":
            s.durable += 1
            if action in FILED or action == REPEAT:
                s.durable_kept += 1
            else:
                s.misses.append(Miss("durable not kept", where(item), label, did))
        if action in FILED:
            s.filed += 1
            if label == "transient":
                s.filed_transient += 1
                s.misses.append(Miss("transient filed", where(item), label, did))
    made = {(o, n) for o, n in gardener_pairs(decisions, facts) if n[0] in files}
    labelled = {(p.old, n) for p in labels.pairs for n in p.new}
    for p in labels.pairs:
        s.pairs += 1
        if any((p.old, n) in made for n in p.new):
            s.right += 1
        else:
            news = " | ".join(where(n) for n in p.new)
            old_did = _did(done.get(p.old), placed.get(p.old))
            s.misses.append(
                Miss(
                    "pair missed",
                    f"{where(p.old)} -> {news}",
                    p.hint,
                    f"old: {old_did}",
                )
            )
    for old, new in sorted(made - labelled - set(labels.ok), key=str):
        s.wrong += 1
        old_text = where(old) if isinstance(old, tuple) else f"fact {old}"
        s.misses.append(
            Miss(
                "wrong pair",
                f"{old_text} -> {where(new)}",
                "",
                _did(done.get(new), None),
            )
        )
    for day, flags in answers.items():
        got = list(flags)
        if day == "1":
            s.questions, s.day1 = len(got), sum(got)
        elif day == "36":
            s.day36 = sum(got)
    return s


def _did(decision: Mapping[str, object] | None, placed: str | None) -> str:
    """What the gardener did with an item, in a few words."""
    if decision is None:
        return "not filed" + (f": {placed}" if placed else "")
    key = decision.get("key")
    return f"{decision['action']} ({decision.get('reason') or 'no reason'})" + (
        f", key {key!r}" if key else ""
    )
