"""One corpus workspace through the gardener as a new user would run it.

Copy the workspace to a scratch folder, apply its setup (``setups``), ``init``,
then with the clock fixed (``GARDENER_NOW``): ``promote`` on day 1 (the day after
the newest note) and ask every question with ``recall`` (top 3); on day 36
``promote`` and ``prune`` (notes past their 30-day TTL are deleted if prune
allows) and ask again. Everything goes through ``gardener.Workspace``, the API
the CLI uses. A run never raises for what the gardener does: an error is
recorded and the figures that need the rest come out as not measured.
"""

from __future__ import annotations

import importlib
import os
import shutil
import stat
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from gardener import LossBudgetError, Workspace

from .labels import Item, Labels
from .setups import Setup

DAY_HOUR = "09:00"  # the time of day both passes run at (local, the rules' timezone)
LATER_DAYS = 35
DURABLE = (
    "identity",
    "preference",
    "decision",
    "fact",
)  # day 36 is day 1 + 35 days: past the 30-day note TTL


@dataclass(frozen=True)
class Answer:
    question: str
    answered: bool
    hits: tuple[str, ...]  # "status path:line" of the top 3, for --verbose


@dataclass
class Run:
    """What the gardener did with one workspace.

    ``items``: every top-level list item of the notes it reads on day 1, as
    ``(path, line) -> (heading path, text)`` (text only for --verbose, never
    written to a file). ``decisions``: promote's decisions of both passes, as
    ``Decision.as_dict``. ``facts``: the MEMORY.md facts after day 36 by id,
    each ``{"key", "value", "current", "until", "superseded_by"}``.
    ``placed``: the classifier's kind and rule per item (best effort, for
    --verbose). ``answers``: day ("1" or "36") -> one Answer per question.
    """

    workspace: str
    setup: Setup
    day1: date | None = None
    items: dict[Item, tuple[str, str]] = field(default_factory=dict)
    decisions: list[dict[str, object]] = field(default_factory=list)
    facts: dict[str, dict[str, object]] = field(default_factory=dict)
    placed: dict[Item, str] = field(default_factory=dict)
    answers: dict[str, list[Answer]] = field(default_factory=dict)
    pruned: tuple[str, ...] = ()
    kept: tuple[tuple[str, str], ...] = ()  # notes prune kept on day 36, and why
    # the judge's queue after day 1's promote: label ("durable", "transient",
    # "ambiguous", "unlabelled") -> how many pending entries have it
    queue: dict[str, int] = field(default_factory=dict)
    judged: int = 0  # pending entries the oracle judge answered (--judge oracle)
    errors: list[str] = field(default_factory=list)


@contextmanager
def clock(when: str) -> Iterator[None]:
    """``GARDENER_NOW`` set to ``when`` (ISO) inside the block, restored after."""
    old = os.environ.get("GARDENER_NOW")
    os.environ["GARDENER_NOW"] = when
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("GARDENER_NOW", None)
        else:
            os.environ["GARDENER_NOW"] = old


def prepare(source: Path, scratch: Path, setup: Setup) -> Path:
    """A writable copy of ``source`` in ``scratch`` (its ``.git`` left out) with
    ``setup`` applied: renames done, ``notes_dir`` written into rules.md."""
    root = scratch / source.name
    shutil.copytree(source, root, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    for top, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = os.path.join(top, name)
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode | stat.S_IWUSR)
    os.chmod(root, os.stat(root).st_mode | stat.S_IWUSR)
    for old, new in setup.renames:
        if (root / old).exists():
            (root / old).rename(root / new)
    if setup.notes_dir != "memory":
        rules = root / "rules.md"
        line = f"notes_dir: {setup.notes_dir}\n"
        if rules.exists():  # a front matter of its own: add the setting at its top
            text = rules.read_text(encoding="utf-8")
            body = text[4:] if text.startswith("---\n") else "---\n" + text
            rules.write_text("---\n" + line + body, encoding="utf-8")
        else:
            rules.write_text(f"---\n{line}---\n", encoding="utf-8")
    return root


def run(
    source: Path, scratch: Path, setup: Setup, labels: Labels, judge: str = "none"
) -> Run:
    """Run the workspace at ``source`` (a corpus folder) in ``scratch``;
    ``judge``: "none" (the rules alone) or "oracle" (day 1's queue answered
    from the labels, as a perfect agent would: the ceiling of the loop)."""
    out = Run(source.name, setup)
    try:
        _run(prepare(source, scratch, setup), labels, out, judge)
    except Exception as exc:  # a benchmark reports, it does not stop
        out.errors.append(f"{type(exc).__name__}: {exc}")
        out.errors.append(traceback.format_exc(limit=3))
    return out


def _run(root: Path, labels: Labels, out: Run, judge: str = "none") -> None:
    from gardener.files.layout import dated_notes

    notes = dated_notes(root, out.setup.notes_dir)
    if not notes:
        out.errors.append(f"no daily notes under {out.setup.notes_dir}/")
        return
    out.day1 = max(day for day, _ in notes) + timedelta(days=1)
    later = out.day1 + timedelta(days=LATER_DAYS)
    first, second = f"{out.day1}T{DAY_HOUR}", f"{later}T{DAY_HOUR}"
    with clock(first):
        ws, _ = Workspace.init(root, first)
        _read_items(ws, out)
        out.decisions += _promote(ws, out)
        out.decisions += _judge(ws, labels, out, judge == "oracle")
        out.answers["1"] = ask(ws, labels)
    with clock(second):
        ws = Workspace(root, second)
        out.decisions += _promote(ws, out)
        try:
            pruned = ws.prune()
        except LossBudgetError as exc:
            out.errors.append(f"day 36 prune: {exc}; ran with --force")
            pruned = ws.prune(force=True)
        removed = tuple(pruned.plan.notes_removed)
        if any(k.why == "budget" for k in pruned.plan.notes_kept):
            # more notes due than one pass deletes: the figure is about a
            # memory whose notes are gone, so the rest go too
            pruned = ws.prune(force=True)
            removed += tuple(pruned.plan.notes_removed)
        out.pruned = removed
        out.kept = tuple(pruned.plan.notes_kept)
        out.answers["36"] = ask(ws, labels)
        out.facts = _facts(ws)


def _promote(ws: Workspace, out: Run) -> list[dict[str, object]]:
    """One promote pass's decisions; past the loss budget it is run again with
    ``force`` (and the error recorded), as a user told by the error would."""
    try:
        result = ws.promote()
    except LossBudgetError as exc:
        out.errors.append(f"promote: {exc}; ran with --force")
        result = ws.promote(force=True)
    return [d.as_dict() for d in result.plan.decisions]


def _judge(
    ws: Workspace, labels: Labels, out: Run, answer: bool
) -> list[dict[str, object]]:
    """Count the judge's queue by label; with ``answer``, answer it from the
    labels, round after round as an agent would (review shows ~8 KB at a
    time), and return decide's decisions: durable: the rules' guess, kind
    fact if none, and the key of the labelled change it is part of, if any
    (the new side of a labelled change is durable whatever its own label);
    transient: transient; ambiguous or unlabelled: left pending. The new side
    of a change whose old side is filed (by the rules or an earlier answer)
    under another key or none is answered with ``replaces``: that fact's id,
    as an agent reading review's near entries would."""
    for label in _labels_of(ws, labels):
        out.queue[label] = out.queue.get(label, 0) + 1
    if not answer:
        return []
    hinted = {
        item: pair.hint.split(":", 1)[0].strip()
        for pair in labels.pairs
        if pair.hint
        for item in (pair.old, *pair.new)
    }
    olds: dict[Item, list[Item]] = {}
    for pair in labels.pairs:
        for n in pair.new:
            olds.setdefault(n, []).append(pair.old)
    decisions: list[dict[str, object]] = []
    for _ in range(50):  # each round answers what the queue shows
        filed = {
            (str(d["path"]), int(str(d["line"]))): str(d["fact"])
            for d in [*out.decisions, *decisions]
            if d.get("fact") and d["action"] in ("add", "supersede", "history")
        }
        answers = []
        queue = list(_pages(ws))
        waiting = {_where(item) for item in queue}
        for item in queue:
            said = _answer(item, labels, hinted, olds, filed, waiting)
            if said is not None:
                answers.append(said)
        if not answers:
            break
        decisions += _decide(ws, answers, out)
    return decisions


def _pages(ws: Workspace) -> Iterator[dict[str, object]]:
    """Every pending item, page by page as ``review --after`` shows them."""
    page = ws.review(100000)
    yield from page.items
    while page.next_after:
        page = ws.review(100000, page.next_after)
        yield from page.items


def _labels_of(ws: Workspace, labels: Labels) -> list[str]:
    """The label of every pending entry (the whole queue, not one page)."""
    from gardener.verbs.judge import pending_plan

    with ws._session() as s:  # noqa: SLF001 - the bench counts the whole queue
        plan = pending_plan(s)
    return [
        labels.items.get((w.entry.path, w.entry.line), "unlabelled")
        for w in plan.pending
    ]


def _where(item: dict[str, object]) -> Item:
    return (str(item["path"]), int(str(item["line"])))


def _answer(
    item: dict[str, object],
    labels: Labels,
    hinted: dict[Item, str],
    olds: dict[Item, list[Item]],
    filed: dict[Item, str],
    waiting: set[Item],
) -> dict[str, object] | None:
    """The oracle's answer to one queue item (None: left pending). ``olds``:
    the old side of the change each new side is part of; ``filed``: the fact
    id each item was filed as; ``waiting``: the items pending now."""
    where = _where(item)
    label = labels.items.get(where, "unlabelled")
    guess = item["guess"]
    assert isinstance(guess, dict)
    said: dict[str, object] = {"id": item["id"]}
    old = next((o for o in olds.get(where, ()) if o in filed), None)
    if old is not None:
        said["replaces"] = filed[old]  # the key is the replaced fact's
    elif where in olds and (where not in hinted or waiting & set(olds[where])):
        return None  # answered once its old side is filed
    if label == "durable" or where in hinted or old is not None:
        kind = guess["kind"] if guess["kind"] in DURABLE else "fact"
        said.update(verdict="durable", kind=kind)
        if where in hinted and old is None:  # the change it is part of names the key
            said["key"] = hinted[where]
        return said
    if label == "transient":
        return {"id": item["id"], "verdict": "transient"}
    return None


def _decide(
    ws: Workspace, answers: list[dict[str, object]], out: Run
) -> list[dict[str, object]]:
    if not answers:
        return []
    try:
        done = ws.decide(answers, by="oracle")
    except LossBudgetError:
        done = ws.decide(answers, by="oracle", force=True)
    out.judged += len(done.applied)
    if done.refused:
        out.errors.append(
            f"oracle judge: {len(done.refused)} answers refused: {done.refused[0]}"
        )
    return [d.as_dict() for d in done.result.plan.decisions] if done.result else []


def _read_items(ws: Workspace, out: Run) -> None:
    """Every item of the notes the gardener reads, and how the classifier places it."""
    notes, _ = ws.read_notes()
    config = ws.config
    try:  # if the classifier moves, --verbose shows less and nothing else changes
        classify = importlib.import_module("gardener.planning.classify").classify
    except (ImportError, AttributeError):
        classify = None
    for note in notes:
        for entry in note.entries:
            where = (entry.path, entry.line)
            out.items[where] = (" > ".join(entry.headings), entry.text)
            if classify is None:
                continue
            try:
                c = classify(entry, config)
            except Exception as exc:  # best effort: only --verbose reads it
                out.placed[where] = f"classify failed: {type(exc).__name__}"
                continue
            rule = getattr(c, "rule", "") or "no rule"
            kind = getattr(c, "kind", None) or "no kind"
            out.placed[where] = f"{kind} ({rule})"


def ask(ws: Workspace, labels: Labels) -> list[Answer]:
    """Each question through ``recall`` (top 3): answered if an answer word is a
    substring (case-insensitive) of a hit's key, value or text."""
    answers = []
    for q in labels.questions:
        hits = ws.recall(q.question, limit=3)
        blob = " ".join(f"{h.key or ''} {h.value} {h.text}" for h in hits).casefold()
        found = any(word in blob for word in q.answers)
        shown = tuple(f"{h.status} {h.path}:{h.line}" for h in hits)
        answers.append(Answer(q.question, found, shown))
    return answers


def _facts(ws: Workspace) -> dict[str, dict[str, object]]:
    memory = ws.read_memory()
    facts: dict[str, dict[str, object]] = {}
    for fact in memory.facts:
        if fact.id is None:
            continue
        facts[fact.id] = {
            "key": fact.key,
            "value": fact.value,
            "current": not fact.struck and fact.section != "Superseded",
            "until": fact.until,
            "superseded_by": fact.attrs.get("superseded-by"),
        }
    return facts
