"""Rewrites of MEMORY.md survive kill -9, hand edits made meanwhile, and stale locks."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gardener import Workspace
from gardener.errors import GardenerError
from gardener.files.atomic import replace_if_unchanged
from gardener.files.lock import workspace_lock
from gardener.formats.memoryfile import END, parse_memory
from gardener.planning.promote import plan_promotion
from gardener.store.journal import JOURNAL, RESUMED, begin
from gardener.store.ledger import Ledger
from tests.helpers import new_workspace

NOW = "2026-03-01T12:00"
KEYS = [f"service {i} / host" for i in range(80)]


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def gardener(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gardener", "-w", str(root), *args],
        env={**os.environ, "GARDENER_NOW": NOW},
        capture_output=True,
        text=True,
        check=False,
    )


def _entries(rng: random.Random, count: int, hour: int) -> list[str]:
    return [
        f"- {hour:02d}:{(n * 7) % 60:02d} fact: **{rng.choice(KEYS)}**: box{rng.randrange(10**6)}"
        for n in range(count)
    ]


@pytest.fixture
def big(tmp_path: Path) -> Workspace:
    """28 days of notes, 30 keyed entries each: a promote takes about half a second."""
    ws = new_workspace(tmp_path, NOW)
    rng = random.Random(7)
    for day in range(1, 29):
        lines = [f"# 2026-02-{day:02d}", "", *_entries(rng, 30, 9)]
        (ws.root / "memory" / f"2026-02-{day:02d}.md").write_text(
            "\n".join(lines) + "\n"
        )
    ws.record()
    return ws


def _git_running_in(root: Path) -> bool:
    top = os.path.realpath(root)
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            cwd = os.path.realpath(proc / "cwd")
            if (cwd == top or cwd.startswith(top + os.sep)) and (
                proc / "comm"
            ).read_text().startswith("git"):
                return True
        except OSError:
            continue
    return False


def _settle(root: Path) -> None:
    """Wait for the git commands a killed gardener left running (they finish alone)."""
    deadline = time.monotonic() + 30
    while _git_running_in(root) and time.monotonic() < deadline:
        time.sleep(0.01)


def _pending_text(ws: Workspace) -> str | None:
    path = ws.root / ".git" / JOURNAL
    if not path.exists():
        return None
    return json.loads(path.read_bytes())["files"].get("MEMORY.md")


def _current_values(ws: Workspace) -> dict[str, list[str]]:
    return {key: sorted(h.value for h in ws.recall(key=key)) for key in KEYS}


def test_kill_9_at_random_points_of_promote(big: Workspace, tmp_path: Path):
    ws = big
    memory = ws.root / "MEMORY.md"
    rng = random.Random(2026)
    setup_head = git(ws.root, "rev-parse", "HEAD").strip()
    started = time.monotonic()
    assert gardener(ws.root, "promote").returncode == 0
    duration = time.monotonic() - started  # a pass with less to do is as long
    kills = rounds = 0
    outcomes = dict.fromkeys(("old", "pending", "new"), 0)
    locks_left = 0  # index.lock files a killed git left behind
    note = ws.root / "memory" / "2026-03-01.md"
    note.write_text("# 2026-03-01\n\n")
    while kills < 24 and rounds < 80:
        rounds += 1
        with open(note, "a") as f:  # new work for every round
            f.write("\n".join(_entries(rng, 12, rounds % 12)) + "\n")
        ws.record()
        before = memory.read_text()
        proc = subprocess.Popen(
            [sys.executable, "-m", "gardener", "-w", str(ws.root), "promote"],
            env={**os.environ, "GARDENER_NOW": NOW},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        if rounds % 2:
            time.sleep(rng.uniform(0.1, duration))
        else:  # aim at the write-to-commit window: from the journal's appearance on
            journal = ws.root / ".git" / JOURNAL
            while not journal.exists() and proc.poll() is None:
                time.sleep(0.001)
            time.sleep(rng.uniform(0, 0.08))
        if rounds % 3:
            proc.send_signal(signal.SIGKILL)  # its git commands run on
        else:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # and git with it
        if proc.wait() == -signal.SIGKILL:
            kills += 1
        _settle(ws.root)
        locks_left += (ws.root / ".git" / "index.lock").exists()
        after = memory.read_text()
        head = git(ws.root, "show", "HEAD:MEMORY.md")
        pending = _pending_text(ws)
        assert after in (before, head, pending)  # old or new, never a mix
        outcomes[
            "pending" if after == pending else "old" if after == before else "new"
        ] += 1
        assert after.endswith(END + "\n")
        parse_memory(after)
    assert kills >= 20
    out = gardener(ws.root, "check", "--json")
    problems = json.loads(out.stdout)["problems"]
    assert [p for p in problems if p["kind"] in ("conflict", "parse")] == []
    assert gardener(ws.root, "promote").returncode == 0
    head = git(ws.root, "rev-parse", "HEAD")
    assert gardener(ws.root, "promote").returncode == 0
    assert git(ws.root, "rev-parse", "HEAD") == head  # the work is done
    assert git(ws.root, "status", "--porcelain") == ""
    assert not (ws.root / ".git" / JOURNAL).exists()
    # every MEMORY.md change is the gardener's own promote, none a "record:"
    subjects = git(ws.root, "log", "--format=%s", f"{setup_head}..", "--", "MEMORY.md")
    assert subjects and all(s.startswith("promote:") for s in subjects.splitlines())
    # and the memory is the one an uninterrupted pass makes from the same notes
    fresh, _ = Workspace.init(tmp_path / "fresh", now_override=NOW)
    shutil.rmtree(fresh.root / "memory")
    shutil.copytree(ws.root / "memory", fresh.root / "memory")
    fresh.promote()
    assert _current_values(ws) == _current_values(fresh)
    print(
        f"\nkill -9 survived: {kills} of {rounds} rounds; MEMORY.md {outcomes}; {locks_left} index.lock left and cleared"
    )


def test_a_kill_between_write_and_commit_is_committed_as_promote(big: Workspace):
    ws = big
    plan = plan_promotion(
        ws.read_notes()[0], ws.read_memory(), ws.config, ws.now(), ws.read_ledger()
    )
    months = Ledger(ws.root).files(plan.ledger)  # the ledger's month files
    message = "promote: 9 added\n\nGardener-Action: promote\n"
    # what apply() does: journal, MEMORY.md written, then the process dies
    begin(ws.root / ".git", {"MEMORY.md": plan.text, **months}, message, None)
    (ws.root / "MEMORY.md").write_text(plan.text)
    result = ws.record()
    assert result.commit is None and "interrupted" in result.warnings[0]
    subject, body = git(ws.root, "log", "-1", "--format=%s%n%b").split("\n", 1)
    assert subject == "promote: 9 added" and RESUMED in body
    for rel, text in months.items():  # finished, not re-planned
        assert (ws.root / rel).read_text() == text
    assert ws.promote().commit is None
    assert git(ws.root, "status", "--porcelain") == ""
    subjects = git(ws.root, "log", "--format=%s", "--", "MEMORY.md").splitlines()
    assert subjects[0] == "promote: 9 added"


def test_a_kill_before_the_write_leaves_nothing_to_resume(big: Workspace):
    ws = big
    head = git(ws.root, "rev-parse", "HEAD")
    begin(ws.root / ".git", {"MEMORY.md": "never written\n"}, "promote: x\n", None)
    assert ws.record().commit is None
    assert git(ws.root, "rev-parse", "HEAD") == head
    assert not (ws.root / ".git" / JOURNAL).exists()


# -- a hand edit made while the plan was made --------------------------------


def test_replace_if_unchanged_never_clobbers(tmp_path: Path):
    (tmp_path / ".git").mkdir()
    path = tmp_path / "MEMORY.md"
    path.write_text("planned from this\n")
    assert replace_if_unchanged(path, "new\n", "planned from this\n")
    assert path.read_text() == "new\n"
    path.write_text("a hand edit\n")
    assert not replace_if_unchanged(path, "newer\n", "new\n")
    assert path.read_text() == "a hand edit\n"
    assert not replace_if_unchanged(path, None, "new\n")  # nor deletes it
    assert path.read_text() == "a hand edit\n"
    assert not replace_if_unchanged(path, "x\n", None)  # it was planned as missing
    assert replace_if_unchanged(path, None, "a hand edit\n")
    assert not path.exists()


def _edit_memory(path: str, count: int, stop: object) -> None:
    for i in range(count):
        with open(path, "a") as f:  # an editor that writes in place, no lock
            f.write(f"hand line {i}\n")
        time.sleep(0.03)
    stop.set()  # type: ignore[attr-defined]


def test_hand_edits_during_promote_are_never_clobbered(big: Workspace):
    ws = big
    ws.promote()
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    editor = ctx.Process(target=_edit_memory, args=(str(ws.memory_path), 60, stop))
    editor.start()
    rng = random.Random(3)
    note = ws.root / "memory" / "2026-03-01.md"
    hour = 0
    while not stop.is_set():
        hour += 1
        with open(note, "a") as f:
            f.write("\n".join(_entries(rng, 3, hour % 12)) + "\n")
        try:
            ws.promote()
        except GardenerError as exc:
            assert "kept changing" in str(exc)
    editor.join(timeout=60)
    ws.promote()
    text = ws.memory_path.read_text()
    assert [f"hand line {i}" for i in range(60)] == [
        line for line in text.splitlines() if line.startswith("hand line")
    ]
    assert git(ws.root, "status", "--porcelain") == ""


# -- locks --------------------------------------------------------------------


def _hold_lock_and_die(root: str) -> None:
    with workspace_lock(Path(root)):
        (Path(root) / ".git" / "index.lock").touch()  # as its killed git would
        os.kill(os.getpid(), signal.SIGKILL)


def test_a_stale_workspace_lock_is_reported_and_cleared(ws: Workspace):
    ctx = multiprocessing.get_context("spawn")
    child = ctx.Process(target=_hold_lock_and_die, args=(str(ws.root),))
    child.start()
    child.join(timeout=60)
    lock = ws.root / ".git" / "gardener.lock"
    assert lock.read_text() == f"{child.pid}\n"
    result = ws.record()
    assert any(f"process {child.pid} ended" in w for w in result.warnings)
    assert any("removed" in w and "index.lock" in w for w in result.warnings)
    assert not (ws.root / ".git" / "index.lock").exists()
    assert lock.read_text() == ""
    assert ws.record().warnings == ()


def test_a_live_git_process_index_lock_is_waited_for(ws: Workspace):
    other = ws.root / "other.txt"
    other.write_text("a person's file\n")
    git(ws.root, "add", "other.txt")
    editor = 'f() { sleep 1.5; echo "a person commits" > "$1"; }; f'
    person = subprocess.Popen(
        ["git", "-C", str(ws.root), "-c", "user.name=P", "-c", "user.email=p@x",
         "-c", f"core.editor={editor}", "commit", "--quiet", "--", "other.txt"],
    )  # fmt: skip
    lock = ws.root / ".git" / "index.lock"
    deadline = time.monotonic() + 10
    while not lock.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert lock.exists()
    started = time.monotonic()
    result = ws.note("noted while a person commits")  # waits for the lock
    assert result.commit is not None
    assert person.wait(timeout=30) == 0 and time.monotonic() - started >= 1.0
    subjects = git(ws.root, "log", "--format=%s").splitlines()
    assert subjects[:2] == ["note: noted while a person commits", "a person commits"]
    assert git(ws.root, "show", "HEAD:other.txt") == "a person's file\n"
