"""One case of ``bench.changes``: two days of notes in a fresh workspace, and
what MEMORY.md and recall make of them.

A case (TOML ``[[case]]``): ``id``, ``lang``, ``type`` ("change", "removal"
or "keep"), ``q`` (the word a user recalls with), ``old`` and ``new`` (the
value before and after, verbatim from the notes), ``day1`` and ``day2`` (the
two notes' text). Day 1 is promoted at 20:00 on DAY1, day 2 the day after.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from gardener import Workspace
from gardener.formats.memoryfile import parse_memory
from gardener.model.facts import Fact

DAY1 = date(2026, 5, 4)


@dataclass(frozen=True)
class Outcome:
    """What one case came to: ``filed`` (day 1 filed a current fact naming
    ``old``), ``right`` (the case's type reached: see ``judge``), ``top``
    (recall ``q``'s first hit names the value that holds), ``why`` (a line
    for --verbose)."""

    case: str
    type: str
    lang: str
    filed: bool
    right: bool
    top: bool
    why: str


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def mentions(text: str | None, word: str) -> bool:
    """``word`` in ``text``, as a whole word when it is ASCII."""
    word, text = fold(word).strip(), fold(text or "")
    if not word:
        return False
    if not word.isascii():
        return word in text
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def _names(fact: Fact, word: str) -> bool:
    return mentions(f"{fact.key or ''} {fact.value}", word)


def run_case(
    case: dict[str, Any], root: Path, template: Path, oracle: bool = False
) -> Outcome:
    """Run ``case`` in ``root`` (a copy of the empty workspace ``template``);
    with ``oracle``, each day's review queue is answered as a perfect judge
    would (``_oracle``): the ceiling of the judge's loop."""
    shutil.copytree(template, root, symlinks=True)
    day2 = DAY1 + timedelta(days=1)
    notes = root / "memory"
    notes.mkdir(exist_ok=True)
    (notes / f"{DAY1}.md").write_text(case["day1"], encoding="utf-8")
    ws = Workspace(root, now_override=f"{DAY1}T20:00")
    ws.promote(force=True)
    if oracle:
        _oracle(ws, case)
    first = list(parse_memory(ws.memory_path.read_text(encoding="utf-8")).facts)
    old = str(case["old"])
    filed = any(_names(f, old) and not f.superseded for f in first)
    (notes / f"{day2}.md").write_text(case["day2"], encoding="utf-8")
    ws.now_override = f"{day2}T20:00"
    ws.promote(force=True)
    if oracle:
        _oracle(ws, case)
    after = list(parse_memory(ws.memory_path.read_text(encoding="utf-8")).facts)
    hits = ws.recall(str(case["q"]), limit=3)
    return judge(case, filed, after, hits)


def _oracle(ws: Workspace, case: dict[str, Any]) -> None:
    """Answer the queue from the case: an entry naming ``new`` (a change) or
    ``old`` (a removal, on day 2) replaces or ends the current fact naming
    ``old``; one naming ``old`` on day 1 is durable; the rest are transient."""
    kind, old, new = str(case["type"]), str(case["old"]), str(case.get("new", ""))
    facts = parse_memory(ws.memory_path.read_text(encoding="utf-8")).facts
    held = next((f.id for f in facts if not f.superseded and _names(f, old)), None)
    answers: list[dict[str, object]] = []
    for item in ws.review(1000).items:
        text = str(item["text"])
        said: dict[str, object] = {"id": item["id"], "verdict": "transient"}
        guess = item["guess"]
        durable = guess["kind"] if guess["kind"] in DURABLE else "fact"  # type: ignore[index]
        if kind == "change" and held and mentions(text, new):
            said = {"id": item["id"], "verdict": "durable", "kind": durable,
                    "replaces": held}  # fmt: skip
        elif kind == "removal" and held and mentions(text, old):
            said = {"id": item["id"], "verdict": "ends", "replaces": held}
        elif mentions(text, old) or (new and mentions(text, new)):
            said = {"id": item["id"], "verdict": "durable", "kind": durable}
        answers.append(said)
    if answers:
        ws.decide(answers, by="oracle", force=True)


DURABLE = ("identity", "preference", "decision", "fact")


def judge(case: dict[str, Any], filed: bool, after: list[Fact], hits: list) -> Outcome:
    """Right, by type: a *change* leaves no current fact naming ``old`` (unless
    it names ``new`` too) and a current fact naming ``new``; a *removal*
    leaves no current fact naming ``old``; a *keep* leaves a current fact
    naming ``old`` and supersedes none that does. Each needs ``filed``: a
    change of a fact never filed is no supersession."""
    kind, old, new = str(case["type"]), str(case["old"]), str(case.get("new", ""))
    current = [f for f in after if not f.superseded]
    stale = [f for f in current if _names(f, old) and not (new and _names(f, new))]
    if kind == "keep":
        gone = [f for f in after if f.superseded and _names(f, old)]
        right = filed and bool([f for f in current if _names(f, old)]) and not gone
        holds = old
    elif kind == "removal":
        right = filed and not stale
        holds = ""
    else:
        right = filed and not stale and any(_names(f, new) for f in current)
        holds = new
    top = (
        bool(hits)
        and hits[0].status == "current"
        and (
            mentions(f"{hits[0].key or ''} {hits[0].value}", holds) if holds else False
        )
    )
    if kind == "removal":
        top = not any(
            h.status == "current" and mentions(f"{h.key or ''} {h.value}", old)
            for h in hits
        )
    shown = "; ".join(
        f"{'~' if f.superseded else ''}{f.key or '-'}: {f.value[:60]}" for f in after
    )
    why = ("" if filed else "old never filed; ") + f"MEMORY: {shown or '(empty)'}"
    return Outcome(
        str(case["id"]), kind, str(case.get("lang", "?")), filed, right, top, why
    )
