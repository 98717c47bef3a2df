"""Build benchmark workspaces: write the notes, adopt them in one commit, promote once."""

from __future__ import annotations

import shutil
import subprocess
import time
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from .generate import Spec, new_day_note, write_notes

# a fixed identity, and no hooks: the baseline is git's own cost (init installs a
# pre-commit hook that runs the gardener)
GIT_ID = [
    "-c",
    "user.name=bench",
    "-c",
    "user.email=bench@example.invalid",
    "-c",
    "core.hooksPath=/dev/null",
]


@dataclass(frozen=True)
class Built:
    """A workspace ready to measure: its folder, spec and what setting it up took."""

    root: Path
    spec: Spec
    notes: int  # note files in memory/ after setup
    seconds: float  # generate + init + promote

    def live_notes(self) -> list[Path]:
        """The note files recall reads: dated within the TTL of the last day."""
        cutoff = self.spec.end - timedelta(days=self.spec.ttl_days)
        return [p for p in ws_notes(self.root) if _day(p) >= cutoff]

    def all_notes(self) -> list[Path]:
        return ws_notes(self.root)


def _day(path: Path) -> date:
    return date.fromisoformat(path.name[:10])


def build(spec: Spec, root: Path, promote: bool = True) -> Built:
    """Generate ``spec``'s notes in ``root``, ``Workspace.init`` them, promote once.

    With ``spec.promoted_days``, the entries of older notes are first entered in
    the ledger as processed, so the one promote files only the recent ones: the
    state of a long-lived workspace whose MEMORY.md was kept small by prune
    (superseded entries go after 90 days) but whose notes were all kept. A
    single promote over ten years of entries would take the setup too long.
    Without ``spec.keep_all`` the notes older than the TTL are then deleted in one
    commit, as ``gardener prune`` would leave them (without its per-note git log).
    Last, the objects are packed, as git's automatic maintenance would have.
    """
    from gardener import Workspace

    started = time.perf_counter()
    write_notes(spec, root)
    ws, _ = Workspace.init(root, now_override=spec.now)
    if spec.promoted_days is not None:
        cutoff = spec.end - timedelta(days=spec.promoted_days)
        mark_processed(root, [p for p in ws_notes(root) if _day(p) < cutoff])
    if promote:
        ws.promote(force=True)
    if not spec.keep_all:
        cutoff = spec.end - timedelta(days=spec.ttl_days)
        old = [p for p in (root / "memory").glob("*.md") if _day(p) < cutoff]
        for path in old:
            path.unlink()
        if old:
            git(root, "add", "-A", "memory")
            git(root, "commit", "-q", "-m", "bench: notes past their TTL")
    # Pack the objects, as git's automatic maintenance (run after each promote and
    # prune) does once 6,700 loose ones pile up: at about 4 objects a commit, a
    # lived-in workspace is packed but for its last months. A setup that wrote
    # everything in a minute would leave every object loose, and each commit
    # would then stat thousands of object files a lived-in workspace never has.
    git(root, "gc", "--quiet")
    notes = len(list((root / "memory").glob("*.md")))
    return Built(root, spec, notes, time.perf_counter() - started)


def ws_notes(root: Path) -> list[Path]:
    return sorted((root / "memory").glob("*.md"))


def mark_processed(root: Path, paths: list[Path]) -> None:
    """Enter every entry of ``paths`` in the ledger, as a promote pass would have."""
    from gardener.formats.dailynote import parse_note
    from gardener.model.marks import fingerprints
    from gardener.store.ledger import read_all

    book = read_all(root)
    marks = set(book.marks())
    for path in paths:
        rel = path.relative_to(root).as_posix()
        note = parse_note(rel, _day(path), path.read_text(encoding="utf-8"))
        marks.update(fingerprints(note).values())
    for rel, text in book.files(marks).items():
        target = root / rel
        if text is None:
            target.unlink(missing_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")


def git(root: Path, *args: str) -> None:
    """Run git in ``root`` with a fixed identity; raise if it fails."""
    subprocess.run(["git", *GIT_ID, *args], cwd=root, check=True, capture_output=True)


def copy(built: Built, target: Path, warm: bool = False) -> Built:
    """A copy of the workspace (git folder included) to change without touching it.

    ``warm``: also fill the gardener's stat cache, as the last pass of a lived-in
    workspace leaves it.
    """
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(built.root, target, symlinks=True)
    # a copy has new inodes and times: without this, git's first status in
    # the timed run would re-read every file, which a lived-in workspace never does
    subprocess.run(
        ["git", "-C", str(target), "update-index", "-q", "--refresh"], check=False
    )
    if warm:  # a dry run stats every note and ledger month and caches that
        from gardener import Workspace

        Workspace(target, now_override=built.spec.now).promote(dry_run=True)
    return Built(target, built.spec, built.notes, 0.0)


def add_next_day(built: Built) -> str:
    """Write the note of the day after the workspace's last; return its GARDENER_NOW."""
    day = built.spec.end + timedelta(days=1)
    path = built.root / "memory" / f"{day.isoformat()}.md"
    path.write_text(new_day_note(built.spec, day), encoding="utf-8")
    return f"{day.isoformat()}T20:00"
