"""``gardener demo``: replay the example agent's notes day by day in a scratch workspace.

Each replay day: the day's notes arrive (lines a never-store rule refuses are
dropped, as ``gardener note`` would refuse them), then promote, then prune,
all with the clock set to that day. The example notes ship with the package:
some days in the gardener's syntax, others as an agent writes without it
(prose, ``**Label:** value`` bullets, a day in German). Each day's line is
followed by the values it replaced, corrected or ended. The entries no rule
places wait for the judge: the example agent answers them the same evening
(``gardener review`` / ``gardener decide``, its answers in ``AGENT_ANSWERS``).
The replay ends with a few recalls on the finished workspace.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import click

from gardener.cli.common import json_option
from gardener.cli.output import emit, print_hits
from gardener.errors import GardenerError
from gardener.files.atomic import atomic_write
from gardener.files.layout import note_date
from gardener.files.read import read_text
from gardener.formats.dailynote import load_front_matter, split_front_matter
from gardener.model.facts import Fact
from gardener.neverstore import redact
from gardener.planning.promote import PromotionPlan
from gardener.store.settings import packaged
from gardener.workspace import Workspace

DAY_END = "T21:00:00"  # the replayed day's promote and prune run in its evening


@dataclass(frozen=True)
class DayReport:
    """What one replayed day did (counts)."""

    day: date
    notes: int
    refused: int
    promoted: int
    superseded: int
    updated: int
    rejected: int
    held: int
    pruned: int
    ended: int = 0
    judged: int = 0  # pending entries the example agent answered that evening
    # "database: Postgres -> SQLite", "cache: Redis ended", one per change
    changes: tuple[str, ...] = ()

    def line(self) -> str:
        parts = [
            f"{self.notes} note(s)",
            f"promoted {self.promoted}",
            f"superseded {self.superseded}",
        ]
        if self.updated:
            parts.append(f"corrected {self.updated}")
        if self.ended:
            parts.append(f"ended {self.ended}")
        parts.append(f"rejected {self.rejected}")
        if self.held:
            parts.append(f"held {self.held}")
        if self.judged:
            parts.append(f"judged by the agent {self.judged}")
        parts.append(f"pruned {self.pruned}")
        if self.refused:
            parts.append(f"refused {self.refused} line(s) (never-store)")
        head = f"{self.day}  " + ", ".join(parts)
        return "\n".join([head, *(f"            {c}" for c in self.changes)])


# the example agent's answers to `gardener review`, by the start of the entry's
# text: what it would send to `gardener decide --json -`
AGENT_ANSWERS = {
    "staging gets a Caddy reverse proxy": {
        "verdict": "durable", "kind": "fact", "key": "staging / reverse proxy",
        "value": "Caddy reverse proxy with Let's Encrypt certificates",
    },
    "nightly SQLite `.backup` to the NAS": {
        "verdict": "durable", "kind": "decision", "key": "backups",
        "value": "nightly SQLite `.backup` to the NAS in Mira's office, 7 copies kept",
    },
}  # fmt: skip

# what the last lines of the demo ask the finished workspace
QUESTIONS = ("database", "cache", "theme", "timeout")


def changes(plan: PromotionPlan) -> tuple[str, ...]:
    """One line per value the pass replaced, corrected or ended:
    ``key: old -> new``, ``key: old -> new (corrected)``, ``key: old ended``."""
    by_id: dict[str, Fact] = {f.id: f for f in plan.facts if f.id}
    lines = []
    for d in plan.decisions:
        if d.action == "end":
            lines.append(f"{d.key}: {d.value} ended (from {d.path}:{d.line})")
        elif d.action in ("supersede", "update") and d.replaced in by_id:
            old = by_id[d.replaced].value
            how = " (corrected)" if d.action == "update" else ""
            lines.append(f"{d.key}: {old} -> {d.value}{how}")
    return tuple(lines)


def example_notes() -> list[tuple[date, Path]]:
    """(replay day, file) for each example note: front matter ``recorded`` or its own date."""
    folder = Path(packaged("memory"))
    plan = []
    for path in sorted(folder.glob("*.md")):
        day = note_date(path.name)
        if day is None:
            continue
        yaml_text, _ = split_front_matter(read_text(path))
        front = load_front_matter(yaml_text) if yaml_text else None
        recorded = front.get("recorded") if front else None
        try:
            when = date.fromisoformat(recorded) if isinstance(recorded, str) else day
        except ValueError:
            when = day
        plan.append((when, path))
    return sorted(plan)


def _without_secrets(ws: Workspace, text: str) -> tuple[str, int]:
    """The note's text minus the lines a never-store rule refuses, and how many."""
    kept = []
    refused = 0
    for line in text.split("\n"):
        if redact.find(line, ws.config.never_store, ws.config.allow):
            refused += 1
        else:
            kept.append(line)
    return "\n".join(kept), refused


def replay(
    target: Path | None = None, on_day: Callable[[DayReport], None] | None = None
) -> tuple[Path, list[DayReport]]:
    """Replay the example notes into ``target`` (default: a new temporary folder).

    Raises GardenerError if ``target`` exists and is not empty.
    """
    if target is None:
        target = Path(tempfile.mkdtemp(prefix="gardener-demo-"))
    elif target.exists() and any(target.iterdir()):
        raise GardenerError(
            f"{target} is not empty; give the demo a new folder: gardener demo NEW_DIR"
        )
    schedule = example_notes()
    if not schedule:
        raise GardenerError(f"no example notes found in {packaged('memory')}")
    first = schedule[0][0].isoformat() + "T08:00:00"
    ws, _ = Workspace.init(target, now_override=first)
    reports = []
    for day, files in _by_day(schedule):
        ws.now_override = day.isoformat() + DAY_END
        refused = 0
        for source in files:
            text, dropped = _without_secrets(ws, read_text(source))
            refused += dropped
            atomic_write(ws.root / ws.config.notes_dir / source.name, text)
        promoted = ws.promote().plan
        judged = _judge(ws)
        pruned = ws.prune().plan
        report = DayReport(
            day,
            len(files),
            refused,
            len(promoted.keys("add")) + len(promoted.keys("history")),
            len(promoted.keys("supersede")),
            len(promoted.keys("update")),
            len(promoted.keys("reject")),
            len(promoted.keys("held")),
            len(pruned.superseded_removed)
            + len(pruned.expired)
            + len(pruned.notes_removed),
            len(promoted.keys("end")),
            sum(1 for j in judged if not j.startswith("not judged")),
            changes(promoted)
            + tuple(j if j.startswith("not") else f"judged: {j}" for j in judged),
        )
        reports.append(report)
        if on_day:
            on_day(report)
    return ws.root, reports


def _judge(ws: Workspace) -> list[str]:
    """The example agent's evening round: read the queue, answer what it
    knows (``AGENT_ANSWERS``) and judge the rest transient; returns
    ``key: value`` of each entry filed."""
    answers = []
    for item in ws.review(50).items:
        text = str(item["text"]).split(" ", 1)[-1]  # after its HH:MM
        known = next(
            (a for start, a in AGENT_ANSWERS.items() if text.startswith(start)), None
        )
        # the rest, it judges passing: a status line, "CI green again"
        answers.append({"id": item["id"], **(known or {"verdict": "transient"})})
    if not answers:
        return []
    done = ws.decide(answers, by="atlas")
    filed = done.result.plan.decisions if done.result else ()
    refused = [f"not judged: {r['id']}: {r['reason']}" for r in done.refused]
    return refused + [
        f"{d.key}: {d.value}" for d in filed if d.action in ("add", "supersede")
    ]


def _by_day(schedule: list[tuple[date, Path]]) -> Iterator[tuple[date, list[Path]]]:
    days: dict[date, list[Path]] = {}
    for day, path in schedule:
        days.setdefault(day, []).append(path)
    yield from sorted(days.items())


__all__ = ["DayReport", "example_notes", "replay"]


@click.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@json_option
def demo(directory: str | None, as_json: bool) -> None:
    """Replay the example agent's six weeks of notes in a scratch workspace."""
    root, reports = replay(
        Path(directory) if directory else None,
        None if as_json else lambda r: click.echo(r.line()),
    )
    if as_json:
        emit({"workspace": str(root), "days": [dict(r.__dict__) for r in reports]})
        return
    # asked on the last replayed day, while its notes are still live
    last = reports[-1].day.isoformat()
    ws = Workspace(root, now_override=last + DAY_END)
    click.echo(f"\nasked on {last}, the last day (GARDENER_NOW={last}{DAY_END}):")
    for query in QUESTIONS:
        click.echo(f"\n$ gardener recall {query}")
        print_hits(ws.recall(query, limit=2), False)
    click.echo("")
    click.echo(f"workspace: {root}")
    click.echo("look next at:")
    click.echo(f"  cat {root}/MEMORY.md")
    click.echo(f"  git -C {root} log -p MEMORY.md")
    click.echo(f"  {_program()} -w {root} why database")


def _program() -> str:
    """How to run this gardener again: its name if on PATH, else its full path."""
    if shutil.which("gardener"):
        return "gardener"
    if Path(sys.argv[0]).name == "gardener":
        return str(Path(sys.argv[0]).resolve())
    return f"{sys.executable} -m gardener"
