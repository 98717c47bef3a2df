"""The ``review`` and ``decide`` verbs: the entries waiting for the judge,
and the judge's answers applied (docs/design.md, The judge).

``review`` reads the notes and plans a pass without writing anything; its
queue is the plan's pending entries. ``decide`` runs a promotion pass in
which the judge's readings replace the rules' for the entries it answers,
so valid time, never-store, instruction holds and the loss budget apply as
to every other entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta

from gardener.errors import GardenerError
from gardener.formats.memoryfile import NEW_FILE, parse_memory
from gardener.model.facts import Fact, normalize_key
from gardener.model.marks import pending_id
from gardener.model.validtime import format_instant, is_current
from gardener.neverstore import redact
from gardener.planning.classify import Classified
from gardener.planning.judging import (
    Judgment,
    Waiting,
    apply_judgment,
    nearest_facts,
    nearest_keys,
)
from gardener.planning.promote import PromotionPlan, queue_places
from gardener.store import linememo
from gardener.store.notescan import Scan
from gardener.store.times import read as recorded_times
from gardener.verbs.promote import plan_now, promote, scan_notes, scrubbed
from gardener.verbs.results import PromoteResult
from gardener.verbs.session import Session

TEXT_CHARS = 300  # an entry's text in the queue, at most
BUDGET_CHARS = 8000  # the queue's texts together, at most, unless --limit says more


@dataclass(frozen=True)
class Review:
    """The queue: ``items`` (as ``review --json`` prints them, oldest first),
    ``total`` pending in all, ``oldest`` (valid time of the first, or None),
    ``next_after``: the id to pass as ``after`` for the next page (None on
    the last)."""

    items: tuple[dict[str, object], ...]
    total: int
    oldest: str | None
    next_after: str | None = None

    def as_dict(self) -> dict[str, object]:
        return {
            "pending": list(self.items),
            "total": self.total,
            "shown": len(self.items),
            "oldest": self.oldest,
            "next_after": self.next_after,
            "answer": "gardener decide --json - (see gardener decide --help)",
        }


@dataclass(frozen=True)
class DecideResult:
    """What ``decide`` did: the pass (None when nothing valid was asked),
    the judgments refused, each ``{"id", "reason"}``, and the judge's name
    (``judged_by``; a decision's ``by`` is who wrote the note)."""

    result: PromoteResult | None
    refused: tuple[dict[str, str], ...] = ()
    applied: tuple[str, ...] = field(default=())  # the ids applied
    judged_by: str | None = None

    def as_dict(self) -> dict[str, object]:
        out = self.result.as_dict() if self.result else {"commit": None}
        return {
            **out, "judged_by": self.judged_by, "applied": list(self.applied),
            "refused": list(self.refused),
        }  # fmt: skip


def pending_plan(s: Session, found: Scan | None = None) -> PromotionPlan:
    """The plan a promote would make now (nothing written), for its queue,
    over the notes ``found`` (default: scanned now)."""
    before = s.memory_text()
    memo = linememo.load(s.repo.git_dir)
    memory = parse_memory(
        NEW_FILE if before is None else before, s.config.memory_file, memo
    )
    return plan_now(s, memory, found or scan_notes(s), memo)


def review(s: Session, limit: int = 20, after: str | None = None) -> Review:
    """The oldest ``limit`` pending entries (those after the pending id
    ``after``, if given), each with what a judge needs, texts redacted and
    cut to ``TEXT_CHARS``, the whole kept near ``BUDGET_CHARS``. An ``after``
    answered since goes on from its place in the queue. Raises GardenerError
    for an ``after`` that is no entry's id."""
    found = scan_notes(s)
    plan = pending_plan(s, found)
    pending = list(plan.pending)
    if after:
        at = next((n for n, w in enumerate(pending) if w.id == after), None)
        if at is not None:
            pending = pending[at + 1 :]
        else:  # answered since the page was shown: go on from where it stood
            recorded = recorded_times(s.root, [n.path for n in found.notes])
            places = queue_places(found.notes, s.config.zone, recorded)
            if after not in places:
                raise GardenerError(
                    f"review --after {after}: no entry of the notes has this id"
                )
            pending = [w for w in pending if places[w.id] > places[after]]
    today = format_instant(s.now())
    keys = _current_keys(plan.facts, today)
    now = [f for f in plan.facts if f.id and is_current(f, today)]
    items: list[dict[str, object]] = []
    used = 0
    for w in pending[: max(0, limit)]:
        item = _item(w, keys, now, s)
        used += len(str(item))
        if items and used > BUDGET_CHARS:
            break
        items.append(item)
    oldest = plan.pending[0].since if plan.pending else None
    more = len(items) < len(pending)
    return Review(
        tuple(items), len(plan.pending), oldest, str(items[-1]["id"]) if more else None
    )


def _item(
    w: Waiting, keys: Sequence[str], now: Sequence[Fact], s: Session
) -> dict[str, object]:
    config = s.config
    # the first day prune may delete the entry's note unjudged
    until = w.entry.day + timedelta(
        days=config.note_ttl_days + config.review_grace_days + 1
    )

    def clean(text: str | None, size: int = TEXT_CHARS) -> str | None:
        """``text`` redacted and cut to ``size`` characters."""
        if not text:
            return text
        if len(text) > size:
            text = text[: size - 1] + "…"
        return redact.redact(text, config.never_store, config.allow)[0]

    text = "\n".join([w.entry.text, *w.entry.nested])
    g = w.guess
    current = (
        {
            "key": clean(w.current.key, 120),
            "value": clean(w.current.value),
            "since": w.current.since,
        }
        if w.current is not None
        else None
    )
    return {
        "id": w.id,
        "path": w.entry.path,
        "line": w.entry.line,
        "since": w.since,
        "until": until.isoformat(),
        "text": clean(text),
        "headings": [clean(h, 80) for h in w.entry.headings[-4:]],
        "why": w.why,
        "guess": {
            "kind": g.kind,
            "key": clean(g.key, 120),
            "value": clean(g.value),
            "action": w.action,
        },
        "current": current,
        "nearest_keys": [
            clean(k, 120)
            for k in nearest_keys(
                g.key, w.entry.value[:TEXT_CHARS], keys, config.topics
            )
        ],
        # current entries it may replace, keyed or not: the judge answers
        # {"replaces": id} (docs/design.md, The judge)
        "near": [
            {
                "id": f.id,
                "key": clean(f.key, 120),
                "value": clean(f.value, 120),
                "since": f.since,
            }
            for f in nearest_facts(w.entry.value[:TEXT_CHARS], now, w.since)
        ],
    }


def _current_keys(facts: Sequence[Fact], today: str) -> list[str]:
    return [f.key for f in facts if f.key and is_current(f, today)]


def _lookup(facts: Sequence[Fact], today: str) -> Mapping[str, Fact]:
    """Each key's latest current fact, by normalized key."""
    latest: dict[str, Fact] = {}
    for f in facts:
        if f.key and is_current(f, today):
            nk = normalize_key(f.key)
            if nk not in latest or (f.since or "") >= (latest[nk].since or ""):
                latest[nk] = f
    return latest


def decide(
    s: Session, judgments: Sequence[Judgment], judge: str, force: bool = False
) -> DecideResult:
    """Apply ``judgments`` by ``judge`` (a name: the agent, "llm:<model>").

    The valid ones are applied in one pass and one commit (``Gardener-Judge``
    trailer; each fact filed carries ``judged-by``); each invalid one (an id
    that is not pending, decided twice, a bad kind, key or value) is refused
    with its reason and changes nothing. Raises GardenerError if ``judge``
    is empty, LossBudgetError as promote does.
    """
    if not judge.strip() or "\n" in judge:
        raise GardenerError("decide needs the judge's name (--by NAME), on one line")
    refused: list[dict[str, str]] = []
    applied: list[str] = []
    where: dict[tuple[str, int], str] = {}  # note:line of each answer applied -> id

    def judging(plan: PromotionPlan) -> tuple[dict[str, Classified], str]:
        refused.clear()
        applied.clear()
        where.clear()
        waiting = {w.id: w for w in plan.pending}
        today = format_instant(s.now())
        latest = _lookup(plan.facts, today)
        by_id = {f.id: f for f in plan.facts if f.id and is_current(f, today)}

        def current(key: str) -> Fact | None:
            return latest.get(normalize_key(key))

        judged: dict[str, Classified] = {}
        for j in judgments:
            w = waiting.get(j.id)
            if w is None or w.mark in judged:
                refused.append({"id": j.id, "reason": _not_pending(j.id, plan, judged)})
                continue
            try:
                judged[w.mark] = apply_judgment(
                    j, w, s.config, judge.strip(), current, by_id.get
                )
            except ValueError as exc:
                refused.append({"id": j.id, "reason": str(exc)})
                continue
            applied.append(j.id)
            where[(w.entry.path, w.entry.line)] = j.id
        return judged, judge.strip()

    result = promote(s, force=force, judging=judging)
    config = s.config

    def clean(text: str) -> str:  # what decide prints never shows a secret
        return redact.redact(text, config.never_store, config.allow)[0]

    # an answer the pass did not file after all: never-store refused it, or it
    # reads like an instruction and waits for a person
    for d in result.plan.decisions:
        ident = where.get((d.path, d.line))
        if ident in applied and d.action in ("refused", "held"):
            why = (
                d.reason if d.action == "refused" else f"held for a person: {d.reason}"
            )
            refused.append({"id": ident, "reason": why})
            applied.remove(ident)
    shown = tuple({"id": clean(r["id"]), "reason": clean(r["reason"])} for r in refused)
    result = replace(result, plan=scrubbed(result.plan, config))
    return DecideResult(result if where else None, shown, tuple(applied), judge.strip())


def _not_pending(ident: str, plan: PromotionPlan, judged: Mapping[str, object]) -> str:
    if any(pending_id(m) == ident for m in judged):
        return "answered twice in one call: the first answer is applied"
    if any(pending_id(m) == ident for m in plan.ledger):
        return "already decided (its note's entry is in the ledger)"
    return "no pending entry has this id (gardener review lists them)"


def ask_model(s: Session, done: PromoteResult, force: bool = False) -> PromoteResult:
    """``judge: llm``: after a promote pass (``done``), send its pending entries
    to the model rules.md names and apply the answers as ``decide`` does.

    Bounded by ``judge_limit``, ``judge_batch`` and ``judge_timeout_s``. Any
    failure (no ``llm``, no model or key, a timeout, a malformed answer, an
    answer ``decide`` refuses) is a warning and leaves its entries pending;
    nothing is guessed. Returns the pass's result, with the judged pass's
    decisions and commit when the model filed anything.
    """
    from gardener.judge.llm import judge_with_llm
    from gardener.planning.judging import read_judgments

    config = s.config
    today = format_instant(s.now())
    keys = _current_keys(done.plan.facts, today)
    now = [f for f in done.plan.facts if f.id and is_current(f, today)]
    items = [_item(w, keys, now, s) for w in done.plan.pending[: config.judge_limit]]
    run = judge_with_llm(
        config.judge_model or None, _instructions(s), items,
        batch=config.judge_batch, limit=config.judge_limit,
        timeout_s=float(config.judge_timeout_s),
    )  # fmt: skip
    for error in run.errors:
        s.warn(error)
    if not run.decisions:
        return replace(done, warnings=tuple(s.warnings))
    judged = decide(
        s,
        read_judgments(list(run.decisions)),
        f"llm:{run.model or config.judge_model}",
        force,
    )
    for r in judged.refused:
        s.warn(f"judge: {r['id']} stays pending: {r['reason']}")
    if judged.result is None:
        return replace(done, warnings=tuple(s.warnings))
    plan = replace(
        judged.result.plan, decisions=done.plan.decisions + judged.result.plan.decisions
    )
    return replace(
        judged.result, plan=plan, commit=judged.result.commit or done.commit,
        warnings=tuple(s.warnings),
    )  # fmt: skip


def _instructions(s: Session) -> str:
    """rules.md's body (what agents read), "" without one."""
    from gardener.formats.blocks import split_front_matter

    try:
        text = (s.root / "rules.md").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    skip = split_front_matter(text)[1]
    return "\n".join(text.lstrip("\ufeff").split("\n")[skip:]).strip()
