"""The commit messages the verbs write: a subject, a body, the trailers.

Every gardener commit's message is built here, and its ``Gardener-*``
trailers come from ``gardener.git.trailers``. ``gardener note`` builds its
message here, so this module imports no typing or planners at run time.
"""

from __future__ import annotations

from gardener.git import trailers

TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from datetime import datetime

    from gardener.planning.forget import ForgetPlan
    from gardener.planning.promote import PromotionPlan
    from gardener.planning.prune import PrunePlan
    from gardener.planning.reconcile import Decision


def short(text: str, width: int = 60) -> str:
    """One line of at most ``width`` characters, without control characters (git refuses NUL)."""
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else " " for ch in text)
    one = " ".join(text.split())
    return one if len(one) <= width else one[: width - 1] + "…"


def note_message(text: str, rel: str) -> str:
    """A ``note`` commit: the entry's text (cut to one line) and its note ``rel``."""
    action, path = trailers.action("note"), trailers.trailer(trailers.PATH, rel)
    return f"note: {short(text)}\n\n{action}\n{path}\n"


def record_message(
    changed: Iterable[str],
    kept: Iterable[str],
    redacted: Iterable[str],
    accepted: str | None = None,
) -> str:
    """A ``record`` commit of files changed outside the gardener (``changed``),
    the notes rewritten whose committed text was ``kept``, the secrets
    ``redacted`` (each ``Redaction.summary()``), and what a person accepted
    with ``gardener record --accept`` (a held rewrite of MEMORY.md)."""
    lines = [f"- {p}" for p in changed]
    lines += [f"- {accepted} (gardener record --accept)"] if accepted else []
    lines += [
        f"- {p} was rewritten: its committed text is kept, new lines below a marker"
        for p in kept
    ]
    lines += [f"- {summary}" for summary in redacted]
    head = "record: changes made outside the gardener\n\n"
    return head + "\n".join(lines) + f"\n\n{trailers.action('record')}\n"


def review_marks_message() -> str:
    """The ``record`` commit of the ledger's review marks before a purge."""
    return f"record: promote's review marks\n\n{trailers.action('record')}\n"


def moves_message(moved: Mapping[str, str]) -> str:
    """The ``forget`` commit that renames ``moved`` notes (old -> new path) in
    the retired register."""
    names = ", ".join(f"{old} -> {new}" for old, new in sorted(moved.items()))
    return f"forget: follow renamed notes\n\n- {names}\n\n{trailers.action('forget')}\n"


def _with_keys(lines: list[str], verb: str, keys: Sequence[str]) -> str:
    """``lines``, then the trailers: ``verb``'s action and the ``keys``, if any."""
    lines = [*lines, trailers.action(verb)]
    if keys:
        lines.append(trailers.trailer(trailers.KEYS, "; ".join(keys)))
    return "\n".join(lines) + "\n"


def _describe(d: Decision, old_values: dict[str | None, str]) -> str:
    """One commit-body line; a replaced value reads ``key: old -> new``."""
    value = d.value
    if d.replaced in old_values and d.action != "end":  # an end names what it ended
        value = f"{short(old_values[d.replaced], 30)} -> {value}"
    what = f"{d.key}: {value}" if d.key else value
    return f"- {short(what, 90)} ({d.path}:{d.line})"


def ledger_message(plan: PromotionPlan, split: bool = False) -> str:
    """The commit of a pass that filed nothing and only marked entries as read.

    ``split``: the pass also moved the old single-file ledger into month files.
    """
    seen = [d for d in plan.decisions if d.action in ("reject", "held")]
    lines = [
        "promote: nothing to file",
        "",
        "The ledger marks the entries this pass read (chatter, or values MEMORY.md",
        "already holds), so the next pass does not read them again.",
    ]
    if split:
        lines += [
            "",
            "The ledger moves from .gardener/ledger to one file a month in",
            ".gardener/ledger.d/, so that a pass rewrites only the months it reads.",
        ]
    if seen:
        lines += ["", *(_describe(d, {}) for d in seen)]
    return "\n".join([*lines, "", trailers.action("promote"), ""])


PROMOTE_GROUPS = (  # (the body's heading, the decision's action), in order
    ("added", "add"),
    ("back-filled", "history"),
    ("superseded", "supersede"),
    ("updated", "update"),
    ("ended", "end"),
    ("rejected (already known)", "reject"),
    ("held for review", "held"),
)


def promote_message(plan: PromotionPlan) -> str:
    """A ``promote`` commit: counts, then the decisions by action, then the keys."""
    old_values: dict[str | None, str] = {f.id: f.value for f in plan.facts if f.id}
    by_action: dict[str, list[Decision]] = {}
    for d in plan.decisions:
        by_action.setdefault(d.action, []).append(d)
    counts = ", ".join(
        f"{len(by_action[a])} {label.split(' (')[0].split(' for')[0]}"
        for label, a in PROMOTE_GROUPS
        if by_action.get(a)
    )
    if plan.unlinked:  # see planning.promote.without_dangling_links
        dropped = f"{len(plan.unlinked)} dangling link(s) dropped"
        counts = f"{counts}, {dropped}" if counts else dropped
    lines = [f"promote: {counts or 'no change'}", ""]
    if plan.unlinked:
        lines += ["Links naming a deleted entry, dropped:", *plan.unlinked, ""]
    for label, action in PROMOTE_GROUPS:
        chosen = by_action.get(action)
        if chosen:
            lines.append(f"{label[0].upper()}{label[1:]}:")
            lines += [_describe(d, old_values) for d in chosen]
            lines.append("")
    keys = sorted(
        {
            d.key
            for d in plan.decisions
            if d.key and d.action in ("add", "history", "supersede", "update", "end")
        }
    )
    return _with_keys(lines, "promote", keys)


def decide_message(plan: PromotionPlan, judge: str) -> str:
    """A ``decide`` commit: the judge's pass, as ``promote_message`` tells
    it, with the judge named in the subject and in a ``Gardener-Judge``
    trailer (who decided what: ``git log --grep 'Gardener-Judge: NAME'``)."""
    body = promote_message(plan)
    subject, _, rest = body.partition("\n")
    rest = rest.replace(
        trailers.action("promote"),
        f"{trailers.action('decide')}\n{trailers.trailer(trailers.JUDGE, judge)}",
    )
    return f"decide: judged by {judge}; {subject.removeprefix('promote: ')}\n{rest}"


def prune_message(plan: PrunePlan) -> str:
    """A ``prune`` commit: the plan's summary and its lines."""
    lines = [f"prune: {plan.summary()}", "", *plan.lines(), ""]
    return _with_keys(lines, "prune", [])


def forget_message(plan: ForgetPlan) -> str:
    """A ``forget`` commit: the entries retired (no texts) and their keys."""
    from gardener.planning.forget import describe  # a note never forgets

    keys = sorted({f.key for f in plan.retired if f.key})
    n = len(plan.retired) + len(plan.notes)
    lines = [
        f"forget: retired {n} entr{'y' if n == 1 else 'ies'}",
        "",
        *describe(plan.retired, plan.notes, texts=False),
        "",
    ]
    return _with_keys(lines, "forget", keys)


def review_message(approve: bool, held: str) -> str:
    """The person's ``approve`` or ``reject`` commit of the held entry ``held``."""
    verb = "approve" if approve else "reject"
    outcome = "is promoted" if approve else "is never promoted"
    review = trailers.trailer(trailers.REVIEW, held)
    return f"{verb}: held entry {held} {outcome}\n\n{trailers.action(verb)}\n{review}\n"


def init_message(adopted: bool, redacted: Iterable[str]) -> str:
    """The first commit of a workspace: created, or ``adopted`` files, and
    the secrets ``redacted`` in them (each ``Redaction.summary()``)."""
    what = "adopt existing memory files" if adopted else "create a memory workspace"
    body = "\n".join(f"- {summary}" for summary in redacted)
    return f"init: {what}\n\n{body + chr(10) + chr(10) if body else ''}{trailers.action('init')}\n"


def purge_message(
    commits: int, files: int, purge_id: str, who: str, now: datetime, purged: str
) -> str:
    """The tombstone commit a purge leaves: how many ``commits`` and work-tree
    ``files`` it rewrote, never the text; ``purged`` is the hashes' file."""
    one = " ".join("".join(ch if ch.isprintable() else " " for ch in who).split())
    return (
        f"purge: erased 1 text from {commits} commit{'s' if commits != 1 else ''}\n\n"
        f"A text was erased on request from every commit and from {files} "
        f"work-tree file{'s' if files != 1 else ''}, and the old history was "
        f"deleted (reflogs expired, unreachable objects pruned). What it was is "
        f"not recorded; a keyed hash of it in {purged} keeps it from being "
        f"stored again.\n\n"
        f"{trailers.action('purge')}\n"
        f"{trailers.trailer(trailers.PURGE_ID, purge_id)}\n"
        f"{trailers.trailer(trailers.PURGED_BY, one or 'unknown')}\n"
        f"{trailers.trailer(trailers.PURGED_AT, now.isoformat(timespec='seconds'))}\n"
    )


def restore_message(lost: Sequence[tuple[str, str]]) -> str:
    """The commit that files again the entries a merge dropped: (merge commit,
    the entry's ``key: value``) each."""
    merges = sorted({m[:8] for m, _ in lost})
    lines = [f"- {short(label, 90)} (dropped by merge {m[:8]})" for m, label in lost]
    head = f"promote: file again {len(lost)} entr{'y' if len(lost) == 1 else 'ies'}"
    head += f" that merge {', '.join(merges)} dropped"
    return head + "\n\n" + "\n".join(lines) + f"\n\n{trailers.action('promote')}\n"
