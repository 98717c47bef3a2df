"""Guardrails for a memory other agents write too (issue 19), end to end:
real processes killed with SIGKILL, zombies, outside deletions and rewrites."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from gardener import Workspace
from gardener.files.lock import process_ended
from tests.helpers import at, cli, git, new_workspace

NOW = "2026-01-05T09:00"


def _killed_gardener(root: Path) -> subprocess.Popen[bytes]:
    """A gardener run killed with SIGKILL while it held the workspace lock and
    its git held index.lock; not reaped, so it stays a zombie."""
    code = (
        "import os, sys, time\n"
        "from gardener.files.lock import workspace_lock\n"
        "with workspace_lock(sys.argv[1]):\n"
        "    os.open(os.path.join(sys.argv[1], '.git', 'index.lock'),"
        " os.O_CREAT | os.O_EXCL | os.O_WRONLY)\n"
        "    print('ok', flush=True)\n"
        "    time.sleep(60)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code, str(root)], stdout=subprocess.PIPE
    )
    assert child.stdout is not None and child.stdout.readline() == b"ok\n"
    os.kill(child.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while not process_ended(child.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    return child


def test_a_zombie_gardener_does_not_wedge_the_workspace(ws: Workspace):
    ws.note("before the kill", time="08:00")
    child = _killed_gardener(ws.root)
    try:
        assert (
            Path(f"/proc/{child.pid}/stat").read_bytes().rsplit(b")", 1)[1][1:2] == b"Z"
        )
        started = time.monotonic()
        done = cli(ws.root, NOW, "note", "after the kill")
        assert time.monotonic() - started < 8  # not the 10 s wait for index.lock
        assert (
            f"process {child.pid} ended while holding the workspace lock" in done.stderr
        )
        assert "index.lock" in done.stderr and "removed" in done.stderr
        assert not (ws.root / ".git" / "index.lock").exists()
        assert "after the kill" in git(ws.root, "show", "HEAD")
    finally:
        child.wait()


ODD = b"2026-01-04-caf\xe9.md"  # Latin-1, not UTF-8


def test_a_note_name_that_is_not_utf8_is_skipped_with_a_warning(ws: Workspace, run_cli):
    folder = os.fsencode(ws.root / "memory")
    with open(folder + b"/" + ODD, "wb") as file:
        file.write(b"- fact: **city**: Paris\n")
    ws.note("the build runs on Fridays", time="08:00")
    promoted = ws.promote()
    assert any(
        "2026-01-04-caf\\xe9.md" in w and "not valid UTF-8" in w
        for w in promoted.warnings
    )
    assert ws.recall("Fridays")
    assert not ws.recall("Paris")
    tracked = subprocess.run(
        ["git", "-C", str(ws.root), "ls-files", "-z"], capture_output=True, check=True
    ).stdout
    assert ODD not in tracked
    os.chdir(ws.root)
    out = run_cli("check", code=4).output
    assert "memory/2026-01-04-caf\\xe9.md" in out and "not valid UTF-8" in out


def test_recall_warns_about_a_note_name_that_is_not_utf8_on_every_call(
    ws: Workspace,
):
    folder = os.fsencode(ws.root / "memory")
    ws.note("the build runs on Fridays", time="08:00")
    args = [sys.executable, "-m", "gardener", "-w", str(ws.root), "recall", "Fridays"]
    env = dict(os.environ, GARDENER_NOW="2026-01-05T09:00")
    subprocess.run(args, env=env, check=True, capture_output=True)  # a warm index
    with open(folder + b"/" + ODD, "wb") as file:
        file.write(b"- fact: **city**: Paris\n")
    for _ in range(2):  # the second from the index the first refreshed
        done = subprocess.run(args, env=env, capture_output=True, text=True)
        assert done.returncode == 0 and "Fridays" in done.stdout
        assert done.stderr.splitlines() == [
            "warning: memory/2026-01-04-caf\\xe9.md: its name is not valid UTF-8;"
            " the note is skipped (not read, not committed) until it is renamed"
        ]
    warnings: list[str] = []
    assert ws.recall("Fridays", warnings=warnings)
    assert len(warnings) == 1 and "caf\\xe9" in warnings[0]
    os.rename(folder + b"/" + ODD, folder + b"/2026-01-04-cafe.md")
    done = subprocess.run(
        args[:-1] + ["Paris"], env=env, capture_output=True, text=True
    )
    assert "Paris" in done.stdout and done.stderr == ""


def test_a_symlink_under_memory_is_never_committed(ws: Workspace, tmp_path: Path):
    outside = tmp_path / "outside.md"
    outside.write_text("- fact: **vault**: outside the workspace\n")
    (ws.root / "memory" / "2026-01-03.md").symlink_to(outside)
    (ws.root / "memory" / "2026-01-04.md").symlink_to(tmp_path / "missing.md")
    result = ws.record()
    assert result.commit is None
    assert sum("is a symlink" in w for w in result.warnings) == 2
    ws.promote()
    assert not ws.recall("vault")
    tracked = git(ws.root, "ls-files")
    assert "2026-01-03" not in tracked and "2026-01-04" not in tracked


def test_check_reports_a_block_an_agent_flushed_twice(ws: Workspace, run_cli):
    block = (
        "## Session\n- 10:00 deployed v0.3 to staging\n- 10:05 the flaky test is back\n"
    )
    (ws.root / "memory" / "2026-01-05.md").write_text(
        "# 2026-01-05\n\n" + block + block
    )
    os.chdir(ws.root)
    out = run_cli("check", "--json", code=4).output
    assert '"kind": "duplicate"' in out
    assert "lines 6-8 repeat lines 3-5 exactly" in out


def test_a_rogue_agent_loses_nothing_and_leaks_no_token(tmp_path: Path):
    """The issue's scripted rogue agent, against a running watcher: it deletes a
    third of the notes, rewrites MEMORY.md to a fifth, truncates today's note
    and flushes a token in pieces. Every line stays on disk or held aside,
    each act is reported, and no token characters reach history."""
    import random
    import threading

    from gardener.watch.watcher import Options, Watcher

    ws = new_workspace(tmp_path, "2026-01-10T12:00")
    notes = ws.root / "memory"
    for day in range(1, 10):
        (notes / f"2026-01-0{day}.md").write_text(
            "".join(f"- fact: **host {day}{i}**: box{day}{i}\n" for i in range(2))
        )
    (notes / "2026-01-10.md").write_text(
        "# 2026-01-10\n\n- 09:00 standup moved to 10:00\n"
    )
    ws.promote()
    lines_before = {p.name: p.read_text() for p in notes.glob("*.md")}
    memory_before = ws.memory_path.read_text()
    log: list[str] = []
    watcher = Watcher(ws, Options(debounce=0.05, idle=0, rescan=600, retry=0.3, grace=2.0),
                      log=log.append)  # fmt: skip
    thread = threading.Thread(target=watcher.run, daemon=True)
    thread.start()
    assert watcher.ready.wait(30)
    try:
        for day in (1, 2, 3):  # a third of the notes
            (notes / f"2026-01-0{day}.md").unlink()
        kept = [
            x
            for x in memory_before.splitlines(True)
            if "**host" not in x or "**host 1" in x
        ]
        ws.memory_path.write_text("".join(kept))  # a fifth of its entries
        (notes / "2026-01-10.md").write_text("# 2026-01-10\n")  # truncated
        token = "ghp_" + "".join(
            random.Random(3).choices("abcdefghijkmnpqrstuvwxyz23456789", k=36)
        )
        pick = random.Random(5)
        line = f"- 11:00 ci token {token}\n"
        with (notes / "2026-01-10.md").open("a") as f:
            at = 0
            while at < len(line):
                size = pick.randint(2, 8)
                f.write(line[at : at + size])
                f.flush()
                at += size
                time.sleep(pick.uniform(0.05, 0.2))
        deadline = time.monotonic() + 20
        while "REDACTED" not in git(ws.root, "show", "HEAD:memory/2026-01-10.md"):
            assert time.monotonic() < deadline, log
            time.sleep(0.05)
    finally:
        watcher.stop()
        thread.join(10)
    for name, text in lines_before.items():  # every line still on disk
        assert set(text.splitlines()) <= set((notes / name).read_text().splitlines()), (
            name
        )
    assert ws.memory_path.read_text() == memory_before
    held = ws.root / ".gardener" / "held" / "MEMORY.md"
    assert held.read_text() == "".join(kept)
    said = "\n".join(log)
    assert said.count("deleted outside the gardener") == 3
    assert "MEMORY.md was rewritten outside the gardener" in said
    assert "2026-01-10.md was rewritten" in said
    history = git(ws.root, "log", "-p", "--all")
    body = token[4:]
    assert not [
        body[i : i + 4] for i in range(len(body) - 3) if body[i : i + 4] in history
    ]


def _budgeted(tmp_path: Path, budget: int) -> Workspace:
    """A workspace with a budget of ``budget`` characters, and a key whose
    value changed 40 times (39 superseded values of history)."""
    first = new_workspace(tmp_path, "2026-02-20T12:00")
    rules = first.root / "rules.md"
    rules.write_text(
        rules.read_text().replace(
            "memory_budget_chars: 12000", f"memory_budget_chars: {budget}"
        )
    )
    ws = Workspace(first.root, now_override="2026-02-20T12:00")  # rules.md read anew
    lines = "".join(
        f"- {9 + i // 60:02d}:{i % 60:02d} fact: **build host**: runner-{i:02d}.ci.example.org\n"
        for i in range(40)
    )
    (ws.root / "memory" / "2026-02-10.md").write_text(lines)
    (ws.root / "memory" / "2026-02-11.md").write_text("- fact: **city**: Lisbon\n")
    ws.promote()
    return ws


def test_over_budget_superseded_history_leaves_first_and_stays_answerable(
    tmp_path: Path,
):
    ws = _budgeted(tmp_path, 2500)
    assert len(ws.memory_path.read_text()) > 2500
    assert [p for p in ws.check() if p.kind == "budget"] == []  # history alone is over
    result = ws.prune()
    assert result.commit is not None
    text = ws.memory_path.read_text()
    assert len(text) <= 2500
    assert "runner-39" in text and "Lisbon" in text  # current entries stay
    assert "runner-00" not in text and "runner-38" in text  # the oldest left first
    assert [h.value for h in ws.recall(key="build host")] == [
        "runner-39.ci.example.org"
    ]
    values = [r.hit.value for r in ws.why("build host")]
    assert "runner-00.ci.example.org" in values and len(values) == 40


def test_check_fails_only_when_current_entries_alone_exceed_the_budget(tmp_path: Path):
    ws = _budgeted(tmp_path, 60)
    ws.prune()
    assert "runner-39" in ws.memory_path.read_text()  # never evicted for size
    budget = [p for p in ws.check() if p.kind == "budget"]
    assert len(budget) == 1 and "build host" in budget[0].message


def test_a_held_rewrite_names_the_marker_line_that_broke_it(ws: Workspace):
    """Breaker: MEMORY.md with its end marker deleted was held as "removing 2
    of 2 current entries", with no word of the line that made them all lost."""
    ws.note("decision: **cache**: Redis", day="2026-01-04", time="09:00")
    ws.note("decision: **db**: SQLite", day="2026-01-04", time="09:01")
    at(ws, "2026-01-04T12:00").promote()
    text = ws.memory_path.read_text()
    ws.memory_path.write_text(
        "".join(line for line in text.splitlines(True) if "gardener:end" not in line)
    )
    result = at(ws, "2026-01-04T13:00").record()
    (warning,) = [w for w in result.warnings if "rewritten outside" in w]
    assert "MEMORY.md:" in warning and "gardener:end" in warning
    assert ws.memory_path.read_text() == text  # the committed text is back
