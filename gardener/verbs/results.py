"""What the verbs return: frozen values, each with the JSON object ``--json`` prints."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: importing the planners costs ~40 ms
    from gardener.planning.forget import ForgetPlan
    from gardener.planning.promote import PromotionPlan
    from gardener.planning.prune import PrunePlan
    from gardener.recall.rank import Hit
    from gardener.verbs.guard import Redaction


@dataclass(frozen=True)
class RecordResult:
    commit: str | None
    redacted: tuple[Redaction, ...]
    warnings: tuple[str, ...] = ()  # a rewritten note restored, a stale lock...
    partial: tuple[str, ...] = ()  # notes committed without an unfinished last line

    def as_dict(self) -> dict[str, object]:
        return {
            "commit": self.commit,
            "redacted": [r.__dict__ for r in self.redacted],
            "warnings": list(self.warnings),
            "partial": list(self.partial),
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
            "ended": p.keys("end"),
            "rejected": p.keys("reject"),
            "held": p.keys("held"),
            "refused": [
                f"{d.path}:{d.line}" for d in p.decisions if d.action == "refused"
            ],
            "history": p.keys("history"),
            "decisions": [d.as_dict() for d in p.decisions],
            # entries of the pass no rule placed, left in their notes
            "undecided": p.undecided,
            # entries waiting for the judge (gardener review), the oldest's valid time
            "pending": len(p.pending),
            "pending_oldest": p.pending[0].since if p.pending else None,
            # with --dry-run: every entry of the pass, what became of it and
            # why (``gardener.planning.promote.Outcome``); [] otherwise
            "entries": [e.as_dict() for e in p.entries],
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
            # each note past its TTL that was kept: path, reason (a sentence),
            # why ("never committed", "date", "durable", "undecided"), until, lines
            "kept_notes": [k.as_dict() for k in p.notes_kept],
            "undecided_removed": dict(p.undecided_removed),
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
    ended_by: str | None = None  # "note:line" of the removal that ended it

    def as_dict(self) -> dict[str, object]:
        return {
            **self.hit.as_dict(),
            "commit": self.commit,
            "commit_time": self.commit_time,
            "removed_in": self.removed_in,
            "edited_in": self.edited_in,
            "ended_by": self.ended_by,
        }
