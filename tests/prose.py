"""The prose fixtures (tests/fixtures/prose/): notes written the way agents write
them, and the outcomes promotion must reach on them, whatever the keys are.

A workspace case is a folder holding ``notes/*.md``, an optional ``memory.md``
(an adopted MEMORY.md) and ``expect.toml``; the sentence cases are the
``[[case]]`` tables of ``cases.toml``, each with its notes inline. Both state
the same checks (every item may carry ``what``, the phrasing class it
exercises, and ``xfail = true`` while the classifier does not reach it):

- ``current``: ``{q, a}``: one of the top 3 hits of ``recall q`` (or of
  ``recall --key key`` when ``key`` is given instead of ``q``) has status
  ``current`` (or ``status``) and mentions ``a`` in its key or value;
  ``first = true``: the top hit does. Checked on day 1 and, for a workspace,
  after 35 days and a prune, when only MEMORY.md can answer.
- ``not_current``: ``{q, a}``: no current hit of ``recall q`` or ``recall a``
  answers with ``a``: a hit answers with it when its value mentions it (for
  ``what`` starting "negation": when it is keyed and its value mentions it, or
  its whole value is ``a``, as "decided against Vercel" may well be filed as
  a fact about Vercel). Day 1 and day 35, as ``current``.
- ``superseded``: ``{a}``: a fact in MEMORY.md's Superseded section mentions
  ``a`` in its key or value (day 1); with ``until`` (YYYY-MM-DD), its ``until``
  is on that day (the day of the note that changed or removed it).
- ``not_filed``: ``{a}``: ``a`` appears nowhere in MEMORY.md's managed block
  (day 1).
- ``no_key``: ``{label}``: no fact in the managed block has the key ``label``
  (compared as keys are; a trailing colon dropped) (day 1).
- ``kept``: ``{note}``: after 35 days and a prune the note still exists: it
  holds entries no rule could place (workspace cases only).

Mentions compare NFKC-casefolded text, an ASCII word as a whole word and any
other as a substring. The clocks are ``day1`` (init and
promote) and ``day35`` (prune, then recall) of ``expect.toml``; a sentence
case is promoted at 20:00 on its last note's day.
"""

from __future__ import annotations

import re
import shutil
import tomllib
import unicodedata
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from gardener import Workspace
from gardener.formats.memoryfile import parse_memory
from gardener.model.facts import Fact, normalize_key
from gardener.model.hit import Hit

FIXTURES = Path(__file__).parent / "fixtures" / "prose"
XFAIL = pytest.mark.xfail(strict=False, reason="issue 14: classifier")
CHECKS = ("current", "not_current", "superseded", "not_filed", "no_key", "kept")
BEGIN, END = "<!-- gardener:begin", "<!-- gardener:end"


@dataclass
class Case:
    """One workspace of notes and what promotion must make of it."""

    name: str
    notes: dict[str, str]  # file name -> text
    memory: str | None  # an adopted MEMORY.md, or None
    expect: dict[str, Any]  # the checks, as read from TOML
    day1: str  # YYYY-MM-DDTHH:MM: init and promote
    day35: str | None  # YYYY-MM-DDTHH:MM: prune, then recall; None: not checked

    def items(self, check: str) -> list[dict[str, Any]]:
        return list(self.expect.get(check, []))


@dataclass
class Outcome:
    """What a case's workspace answers after promote (day1) and prune (day35)."""

    memory: dict[str, str] = field(default_factory=dict)  # day -> MEMORY.md text
    hits: dict[tuple[str, str], list[Hit]] = field(default_factory=dict)
    notes_left: set[str] = field(default_factory=set)
    second_commit: str | None = None  # the commit of a second promote (None: none)
    notes_changed: list[str] = field(default_factory=list)  # promote rewrote these


def workspace_cases() -> list[Case]:
    """Every folder of tests/fixtures/prose/ with an expect.toml, by name."""
    cases = []
    for folder in sorted(p for p in FIXTURES.iterdir() if p.is_dir()):
        expect = tomllib.loads((folder / "expect.toml").read_text(encoding="utf-8"))
        notes = {
            p.name: p.read_text(encoding="utf-8")
            for p in sorted((folder / "notes").glob("*.md"))
        }
        memory = folder / "memory.md"
        cases.append(
            Case(
                folder.name,
                notes,
                memory.read_text(encoding="utf-8") if memory.exists() else None,
                expect,
                expect["day1"],
                expect["day35"],
            )
        )
    return cases


def sentence_cases() -> list[Case]:
    """The ``[[case]]`` tables of tests/fixtures/prose/cases.toml, in file order."""
    table = tomllib.loads((FIXTURES / "cases.toml").read_text(encoding="utf-8"))
    cases = []
    for raw in table["case"]:
        notes = {f"{day}.md": text for day, text in raw["notes"].items()}
        last = max(raw["notes"])
        cases.append(
            Case(raw["id"], notes, raw.get("memory"), raw, f"{last}T20:00", None)
        )
    return cases


def later(when: str, days: int) -> str:
    """``when`` (YYYY-MM-DDTHH:MM) plus ``days``."""
    day, clock = when.split("T")
    return f"{date.fromisoformat(day) + timedelta(days=days)}T{clock}"


# -- building ----------------------------------------------------------------
def build(case: Case, root: Path, template: Path | None = None) -> Outcome:
    """Run ``case`` in a workspace at ``root``: init (or a copy of ``template``,
    an empty workspace, for speed) with the notes, promote twice, recall; then
    at day35, prune and recall again."""
    out = Outcome()
    if template is not None and case.memory is None:
        shutil.copytree(template, root, symlinks=True)
        ws = Workspace(root, now_override=case.day1)
        _write_notes(root, case)
    else:
        _write_notes(root, case)
        ws, _ = Workspace.init(root, now_override=case.day1)
    before = {n: (root / "memory" / n).read_bytes() for n in case.notes}
    ws.promote()
    out.second_commit = ws.promote().commit
    out.notes_changed = [
        n for n, text in before.items() if (root / "memory" / n).read_bytes() != text
    ]
    _answers(ws, case, "day1", out)
    if case.day35 is not None:
        ws.now_override = case.day35
        ws.prune()
        out.notes_left = {p.name for p in (root / "memory").glob("*.md")}
        _answers(ws, case, "day35", out)
    return out


def _write_notes(root: Path, case: Case) -> None:
    (root / "memory").mkdir(parents=True, exist_ok=True)
    for name, text in case.notes.items():
        (root / "memory" / name).write_text(text, encoding="utf-8")
    if case.memory is not None:
        (root / "MEMORY.md").write_text(case.memory, encoding="utf-8")


def _answers(ws: Workspace, case: Case, day: str, out: Outcome) -> None:
    out.memory[day] = ws.memory_path.read_text(encoding="utf-8")
    queries: set[str] = set()
    for item in case.items("current"):
        queries.add(item["q"] if "q" in item else "key:" + item["key"])
    for item in case.items("not_current"):
        queries.update([item["q"], item["a"]])
    for query in sorted(queries):
        if query.startswith("key:"):
            hits = ws.recall(key=query.removeprefix("key:"))
        else:
            hits = ws.recall(query, limit=10)
        out.hits[day, query] = hits


class Builder:
    """Each case's outcome, built once, in workspaces copied from one empty
    workspace (``init`` is most of a case's cost). Built on first use, inside
    a test, so that git runs under the test's environment (tests/conftest.py)."""

    def __init__(self, tmp: pytest.TempPathFactory) -> None:
        self.tmp = tmp
        self.template: Path | None = None
        self.done: dict[str, Outcome] = {}

    def __call__(self, case: Case) -> Outcome:
        if case.name not in self.done:
            if self.template is None:
                self.template = self.tmp.mktemp("prose-template") / "ws"
                Workspace.init(self.template, now_override="2026-01-01T09:00")
            root = self.tmp.mktemp(f"prose-{case.name}") / "ws"
            self.done[case.name] = build(case, root, self.template)
        return self.done[case.name]


# -- checking ----------------------------------------------------------------
def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def mentions(text: str | None, word: str) -> bool:
    """``word`` is in ``text``: as a whole word when it is ASCII ("npm" is not
    in "pnpm", "stg-1" not in "stg-10"), else as a substring."""
    word, text = fold(word), fold(text or "")
    if not word.isascii():
        return word in text
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def managed(memory_text: str) -> str:
    """The managed block of a MEMORY.md text (empty if there is none)."""
    start = memory_text.find(BEGIN)
    end = memory_text.find(END, start)
    return memory_text[start:end] if start >= 0 and end >= 0 else ""


def facts(memory_text: str) -> list[Fact]:
    return list(parse_memory(memory_text).facts)


def show(hits: list[Hit]) -> str:
    return "\n".join(f"  {h.status} {h.key!r}: {h.value!r}" for h in hits) or "  -"


def check_current(item: dict[str, Any], out: Outcome, day: str) -> None:
    query = item["q"] if "q" in item else "key:" + item["key"]
    hits = out.hits[day, query][:3]
    status = item.get("status", "current")

    def good(h: Hit) -> bool:
        return h.status == status and mentions(f"{h.key or ''} {h.value}", item["a"])

    found = good(hits[0]) if item.get("first") and hits else any(map(good, hits))
    where = "the top hit" if item.get("first") else "the top 3"
    assert found, (
        f"{day}: recall {query!r}: {item['a']!r} ({status}) not in {where}:\n"
        + show(hits)
    )


def answers_with(hit: Hit, word: str, negation: bool) -> bool:
    if hit.status != "current":
        return False
    if not negation:
        return mentions(hit.value, word)
    return (bool(hit.key) and mentions(hit.value, word)) or fold(
        hit.value.strip()
    ) == fold(word)


def check_not_current(item: dict[str, Any], out: Outcome, day: str) -> None:
    negation = str(item.get("what", "")).startswith("negation")
    for query in (item["q"], item["a"]):
        hits = out.hits[day, query]
        wrong = [h for h in hits if answers_with(h, item["a"], negation)]
        assert not wrong, (
            f"{day}: recall {query!r} answers with {item['a']!r}:\n" + show(wrong)
        )


def check_superseded(item: dict[str, Any], out: Outcome) -> None:
    old = [f for f in facts(out.memory["day1"]) if f.superseded]
    until = item.get("until", "")
    assert any(
        mentions(f"{f.key or ''} {f.value}", item["a"])
        and (f.get("until") or "").startswith(until)
        for f in old
    ), (
        f"{item['a']!r} is not in Superseded"
        + (f" until {until}" if until else "")
        + (
            ":\n"
            + "\n".join(f"  {f.key!r}: {f.value!r} until={f.get('until')}" for f in old)
        )
    )


def check_not_filed(item: dict[str, Any], out: Outcome) -> None:
    block = managed(out.memory["day1"])
    lines = [line for line in block.splitlines() if mentions(line, item["a"])]
    assert not lines, f"{item['a']!r} was filed:\n" + "\n".join(lines)


def check_no_key(item: dict[str, Any], out: Outcome) -> None:
    label = normalize_key(item["label"].rstrip(":：").strip())
    keyed = [f for f in facts(out.memory["day1"]) if f.key]
    bad = [f for f in keyed if normalize_key(f.key or "") == label]
    assert not bad, f"{item['label']!r} is a key:\n" + "\n".join(
        f"  {f.key!r}: {f.value!r}" for f in bad
    )


def check_kept(item: dict[str, Any], out: Outcome) -> None:
    assert item["note"] in out.notes_left, (
        f"prune deleted {item['note']} (left: {sorted(out.notes_left)})"
    )


def check(case: Case, out: Outcome, kind: str, item: dict[str, Any]) -> None:
    """Assert one item of ``case``'s checks ``kind`` on ``out``."""
    days = ["day1", "day35"] if case.day35 is not None else ["day1"]
    if kind == "current":
        for day in days:
            check_current(item, out, day)
    elif kind == "not_current":
        for day in days:
            check_not_current(item, out, day)
    elif kind == "superseded":
        check_superseded(item, out)
    elif kind == "not_filed":
        check_not_filed(item, out)
    elif kind == "no_key":
        check_no_key(item, out)
    elif kind == "kept":
        check_kept(item, out)
    else:
        raise AssertionError(f"unknown check {kind!r}")


def check_all(case: Case, out: Outcome) -> None:
    """Every check of ``case``, all failures reported together."""
    failures = []
    for kind in CHECKS:
        for item in case.items(kind):
            try:
                check(case, out, kind, item)
            except AssertionError as exc:
                failures.append(f"[{kind}] {exc}")
    assert not failures, "\n".join(failures)
