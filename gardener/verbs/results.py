"""What the verbs return, and the commit messages they write (pure rendering)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gardener.verbs.note import short

if TYPE_CHECKING:  # annotations only: importing the planners costs ~40 ms
    from gardener.git.repo import Identity
    from gardener.planning.forget import ForgetPlan
    from gardener.planning.promote import Decision, PromotionPlan
    from gardener.planning.prune import PrunePlan
    from gardener.recall.rank import Hit
    from gardener.verbs.guard import Redaction


@dataclass(frozen=True)
class RecordResult:
    commit: str | None
    redacted: tuple[Redaction, ...]
    warnings: tuple[str, ...] = ()  # a rewritten note restored, a stale lock...

    def as_dict(self) -> dict[str, object]:
        return {
            "commit": self.commit,
            "redacted": [r.__dict__ for r in self.redacted],
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class ForgetResult:
    plan: ForgetPlan
    commit: str | None
    dry_run: bool
    warnings: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        retired = [
            {"key": f.key, "value": f.value, "id": f.id, "since": f.since}
            for f in self.plan.retired
        ]
        return {
            "retired": retired,
            # daily-note entries retired (see gardener.store.retired)
            "notes": [
                {"path": h.path, "line": h.line, "text": h.text}
                for h in self.plan.notes
            ],
            "commit": self.commit,
            "dry_run": self.dry_run,
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class PromoteResult:
    plan: PromotionPlan
    commit: str | None
    dry_run: bool
    redacted: tuple[Redaction, ...] = ()
    warnings: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        p = self.plan
        return {
            "added": p.keys("add") + p.keys("history"),
            "superseded": p.keys("supersede"),
            "updated": p.keys("update"),
            "rejected": p.keys("reject"),
            "held": p.keys("held"),
            "refused": [
                f"{d.path}:{d.line}" for d in p.decisions if d.action == "refused"
            ],
            "history": p.keys("history"),
            "decisions": [d.as_dict() for d in p.decisions],
            "over_budget": p.over_budget,
            "redacted": [r.__dict__ for r in self.redacted],
            "warnings": list(self.warnings),
            "dry_run": self.dry_run,
            "commit": self.commit,
        }


@dataclass(frozen=True)
class PruneResult:
    plan: PrunePlan
    commit: str | None
    dry_run: bool
    warnings: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        p = self.plan
        return {
            "superseded_removed": len(p.superseded_removed),
            "expired_removed": len(p.expired),
            "notes_removed": len(p.notes_removed),
            "removed_notes": list(p.notes_removed),
            "kept_notes": [{"path": path, "reason": why} for path, why in p.notes_kept],
            "warnings": list(self.warnings),
            "dry_run": self.dry_run,
            "commit": self.commit,
        }


@dataclass(frozen=True)
class InitResult:
    root: str
    adopted: bool  # the folder already held memory files
    created: tuple[str, ...]
    redacted: tuple[Redaction, ...]
    commit: str | None

    def as_dict(self) -> dict[str, object]:
        return {**self.__dict__, "redacted": [r.__dict__ for r in self.redacted]}


@dataclass(frozen=True)
class WhyRecord:
    hit: Hit
    commit: str | None  # the commit that wrote this value into MEMORY.md
    commit_time: str | None
    removed_in: str | None = None  # the prune commit that deleted it (status "pruned")
    edited_in: str | None = None  # the commit whose hand edit replaced this value

    def as_dict(self) -> dict[str, object]:
        return {
            **self.hit.as_dict(),
            "commit": self.commit,
            "commit_time": self.commit_time,
            "removed_in": self.removed_in,
            "edited_in": self.edited_in,
        }


def _describe(d: Decision, old_values: dict[str | None, str]) -> str:
    """One commit-body line; a replaced value reads ``key: old -> new``."""
    value = d.value
    if d.replaced in old_values:
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
    return "\n".join([*lines, "", "Gardener-Action: promote", ""])


def promote_message(plan: PromotionPlan) -> str:
    groups = [
        ("added", "add"),
        ("back-filled", "history"),
        ("superseded", "supersede"),
        ("updated", "update"),
        ("rejected (already known)", "reject"),
        ("held for review", "held"),
    ]
    old_values: dict[str | None, str] = {f.id: f.value for f in plan.facts if f.id}
    by_action: dict[str, list[Decision]] = {}
    for d in plan.decisions:
        by_action.setdefault(d.action, []).append(d)
    counts = ", ".join(
        f"{len(by_action[a])} {label.split(' (')[0].split(' for')[0]}"
        for label, a in groups
        if by_action.get(a)
    )
    lines = [f"promote: {counts or 'no change'}", ""]
    for label, action in groups:
        chosen = by_action.get(action)
        if chosen:
            lines.append(f"{label[0].upper()}{label[1:]}:")
            lines += [_describe(d, old_values) for d in chosen]
            lines.append("")
    keys = sorted(
        {
            d.key
            for d in plan.decisions
            if d.key and d.action in ("add", "history", "supersede", "update")
        }
    )
    lines.append("Gardener-Action: promote")
    if keys:
        lines.append("Gardener-Keys: " + "; ".join(keys))
    return "\n".join(lines) + "\n"


def promote_author(plan: PromotionPlan) -> Identity | None:
    """The promoted content's writer when there is one, else None (the gardener)."""
    from gardener.git.repo import identity_for

    writers = {
        d.by
        for d in plan.decisions
        if d.action in ("add", "history", "supersede", "update")
    }
    return (
        identity_for(writers.pop())
        if len(writers) == 1 and None not in writers
        else None
    )


def prune_message(plan: PrunePlan) -> str:
    lines = [
        f"prune: {plan.summary()}",
        "",
        *plan.lines(),
        "",
        "Gardener-Action: prune",
    ]
    return "\n".join(lines) + "\n"
