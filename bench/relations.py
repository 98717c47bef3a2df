"""The pattern-keyed shape: many relations, one rules.md pattern each.

The shape of MemoryAgentBench's FactConsolidation context (about 18,000 numbered
sentences over a few dozen Wikidata-style relations, later ones contradicting
earlier ones), written as daily notes: every entry is a plain sentence with no
kind and no ``**key**``, keyed only by the sentence pattern of its relation,
which the workspace's rules.md lists (one per relation, on top of the shipped
ones). Our own relations, names and wording; deterministic for a seed.
"""

from __future__ import annotations

import random
import shutil
from datetime import date, timedelta
from pathlib import Path

# attribute -> template, one per relation (the subject and value are names)
RELATIONS = (
    ("capital", "the capital of {subject} is {value}"),
    ("head of state", "the head of state of {subject} is {value}"),
    ("head of government", "the head of the {subject} government is {value}"),
    ("official language", "the official language of {subject} is {value}"),
    ("currency", "the currency of {subject} is {value}"),
    ("continent", "{subject} is located in the continent of {value}"),
    ("citizenship", "{subject} is a citizen of {value}"),
    ("birthplace", "{subject} was born in the city of {value}"),
    ("deathplace", "{subject} died in the city of {value}"),
    ("author", "the author of {subject} is {value}"),
    ("creator", "{subject} was created by {value}"),
    ("founder", "{subject} was founded by {value}"),
    ("headquarters", "the headquarters of {subject} are in {value}"),
    ("chief executive", "the chief executive officer of {subject} is {value}"),
    ("employer", "{subject} is employed by {value}"),
    ("school", "{subject} was educated at {value}"),
    ("occupation", "{subject} works in the field of {value}"),
    ("native language", "the mother tongue of {subject} is {value}"),
    ("religion", "{subject} is affiliated with the religion of {value}"),
    ("record label", "{subject} is represented by the music label {value}"),
    ("position", "{subject} plays the position of {value}"),
    ("team", "{subject} is a member of the sports team {value}"),
    ("sport", "{subject} is associated with the sport of {value}"),
    ("head coach", "the head coach of {subject} is {value}"),
    ("chairperson", "the chairperson of {subject} is {value}"),
    ("origin", "{subject} was created in the country of {value}"),
    ("formed in", "{subject} was formed in the city of {value}"),
    ("network", "{subject} was originally broadcast on {value}"),
    ("manufacturer", "{subject} is produced by the company {value}"),
    ("country", "{subject} is located in the country of {value}"),
    ("admin area", "{subject} is part of the region of {value}"),
    ("party", "{subject} is a member of the political party {value}"),
    ("genre", "the genre of {subject} is {value}"),
    ("developer", "{subject} was developed by {value}"),
    ("notable work", "the most famous work of {subject} is {value}"),
    ("spouse of", "{subject} is the spouse of {value}"),
    ("child", "the child of {subject} is {value}"),
    ("sibling", "{subject} is the sibling of {value}"),
    ("ambassador", "the ambassador of {subject} is {value}"),
    ("anthem", "the national anthem of {subject} is {value}"),
)
SYLLABLES = (
    "ka", "lo", "ven", "tor", "mi", "sa", "dre", "ul", "bar", "en", "ith", "no",
    "ras", "qu", "el", "dor", "fa", "ny", "gar", "os", "pel", "ti", "mar", "zu",
)  # fmt: skip
NOTES = 15


def _name(rng: random.Random, words: int) -> str:
    return " ".join(
        "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
        for _ in range(words)
    )


def rules_patterns() -> str:
    """The lines to add under rules.md's ``patterns:``, one per relation."""
    return "".join(f'  {attr}: "{template}"\n' for attr, template in RELATIONS)


def write(root: Path, facts: int, end: date, seed: int = 11) -> None:
    """``facts`` relation sentences in ``NOTES`` notes ending on ``end``, and
    rules.md's patterns for them (rules.md must already exist in ``root``).

    About a quarter of the facts give a subject's relation a new value (the
    "consolidation" of the benchmark: the later fact holds).
    """
    rng = random.Random(seed)
    subjects = [_name(rng, rng.randint(1, 2)) for _ in range(max(1, facts // 3))]
    values = [_name(rng, 2) for _ in range(2_000)]
    rules = root / "rules.md"
    text = rules.read_text(encoding="utf-8")
    text = text.replace("\npatterns:\n", "\npatterns:\n" + rules_patterns(), 1)
    rules.write_text(text, encoding="utf-8")
    seen: list[tuple[str, str]] = []
    folder = root / "memory"
    folder.mkdir(parents=True, exist_ok=True)
    per_note = facts // NOTES
    for n in range(NOTES):
        day = end - timedelta(days=NOTES - 1 - n)
        lines = [f"# {day.isoformat()}", "", "## Facts"]
        for i in range(per_note):
            if seen and rng.random() < 0.25:
                subject, template = rng.choice(seen)  # a later, conflicting value
            else:
                subject = rng.choice(subjects)
                template = rng.choice(RELATIONS)[1]
                seen.append((subject, template))
            minute = 8 * 60 + i * 12 * 60 // per_note
            sentence = template.format(subject=subject, value=rng.choice(values))
            lines.append(
                f"- {minute // 60:02d}:{minute % 60:02d} {sentence[0].upper()}{sentence[1:]}."
            )
        path = folder / f"{day.isoformat()}.md"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def build(root: Path, facts: int, end: date) -> None:
    """A workspace adopted with ``facts`` relation sentences, committed, not promoted."""
    from gardener import Workspace

    from .workspaces import git

    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    now = f"{end.isoformat()}T20:00"
    Workspace.init(root, now_override=now)
    write(root, facts, end)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "bench: relation sentences and their patterns")
    git(root, "gc", "--quiet")
