"""gardener watch: the pure decisions, then real watchdog events in real workspaces."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

import pytest

from gardener import Workspace
from gardener.watch import watcher as watch_module
from gardener.watch.events import event_paths, is_dropping, relevant
from gardener.watch.schedule import Debouncer, Schedule
from gardener.watch.watcher import Options, Watcher

NOTE = "memory/2026-01-05.md"
FIRST = "---\nagent: atlas\n---\n# 2026-01-05\n\n- 09:00 deployed v0.3 to staging\n"
SECOND = FIRST + "- 09:10 the flaky test is back\n"
FAST = Options(debounce=0.1, idle=0, rescan=600, retry=0.5, poll_interval=0.1)


# -- pure decisions --------------------------------------------------------------
@pytest.mark.parametrize(
    ("rel", "expected"),
    [
        ("MEMORY.md", True),
        ("rules.md", True),
        ("memory/2026-01-05.md", True),
        ("memory/2026-01-05-standup.md", True),
        ("memory/2026-01-05_standup.md", True),
        ("memory/archive/2026-01-05.md", False),
        ("memory/state.json", False),
        ("memory/.#2026-01-05.md", False),  # emacs lock (a dangling symlink)
        ("memory/#2026-01-05.md#", False),  # emacs auto-save
        ("memory/2026-01-05.md~", False),  # vim and emacs backup
        ("memory/.2026-01-05.md.swp", False),  # vim swap
        ("memory/4913", False),  # vim's can-I-write probe
        ("memory/.goutputstream-Q1W2E3", False),  # GNOME (GIO) save
        ("memory/.2026-01-05.md.1a2b3c.tmp", False),  # the gardener's own temp file
        (".git/index.lock", False),
        ("README.md", False),
        ("memory", False),
    ],
)
def test_relevant(rel: str, expected: bool) -> None:
    assert relevant(rel) is expected


def test_droppings_and_moves() -> None:
    assert is_dropping("4913") and is_dropping(".#MEMORY.md")
    assert not is_dropping("2026-01-05.md")
    assert event_paths("moved", "a~", "b") == ["b", "a~"]  # destination first
    assert event_paths("created", "a", None) == ["a"]
    assert event_paths("closed", "a", None) == []


def test_debouncer_waits_for_quiet_per_path() -> None:
    d = Debouncer(delay=1.0, max_wait=5.0)
    d.add("a", 0.0)
    d.add("b", 0.5)
    assert d.due(0.9) == [] and d.deadline() == 1.0
    assert d.due(1.0) == ["a"]
    assert d.due(1.5) == ["b"] and not d
    for t in range(6):  # written without pause: due after max_wait anyway
        d.add("busy", t * 0.9)
    assert d.due(4.9) == [] and d.due(5.0) == ["busy"]


def test_schedule_promotes_once_per_quiet_spell_prunes_daily() -> None:
    day, next_day = date(2026, 1, 5), date(2026, 1, 6)
    s = Schedule(idle=10.0, rescan=100.0, now=0.0)
    assert s.due(0.0, day) == ["prune"]
    s.done("prune", 0.0, day)
    assert s.due(9.0, day) == [] and s.deadline(9.0, to_midnight=1000.0) == 10.0
    assert s.due(10.0, day) == ["promote"]
    s.done("promote", 10.0, day)
    assert s.due(50.0, day) == []  # nothing written since: no second promote
    s.wrote(60.0)
    assert s.due(65.0, day) == [] and s.due(70.0, next_day) == ["promote", "prune"]
    assert s.due(100.0, day) == ["promote", "rescan"]


# -- real events -------------------------------------------------------------------
def git(ws: Workspace, *args: str) -> str:
    run = subprocess.run(
        ["git", "-C", str(ws.root), *args], capture_output=True, text=True
    )
    return run.stdout


def at_head(ws: Workspace, rel: str) -> str | None:
    run = subprocess.run(
        ["git", "-C", str(ws.root), "show", f"HEAD:{rel}"],
        capture_output=True,
        text=True,
    )
    return run.stdout if run.returncode == 0 else None


def wait_for(condition: Callable[[], object], what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.01)


class Running:
    def __init__(self, ws: Workspace, options: Options) -> None:
        self.lines: list[str] = []
        self.watcher = Watcher(ws, options, log=self.lines.append)
        self.thread = threading.Thread(target=self.watcher.run, daemon=True)
        self.thread.start()
        wait_for(
            lambda: self.watcher.ready.is_set() or not self.thread.is_alive(), "start"
        )
        assert self.watcher.ready.is_set(), self.lines

    def logged(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    def stop(self) -> None:
        self.watcher.stop()
        self.thread.join(10)
        assert not self.thread.is_alive()
        assert not self.logged("error"), self.lines


@pytest.fixture
def start(ws: Workspace) -> Iterator[Callable[..., Running]]:
    """Start a watcher on ``ws`` in a thread (FAST options unless given); stopped after the test."""
    running: list[Running] = []

    def run(options: Options = FAST) -> Running:
        running.append(Running(ws, options))
        return running[-1]

    yield run
    for r in running:
        r.stop()


def append_in_place(path: Path, text: str) -> None:
    with path.open("a") as f:
        f.write(text[len(path.read_text()) :])


def temp_and_rename(path: Path, text: str) -> None:
    temp = path.with_name(f".{path.name}.k3j4.tmp")
    temp.write_text(text)
    os.replace(temp, path)


def temp_outside_then_rename(path: Path, text: str) -> None:
    temp = path.parents[2] / "scratch.md"  # outside the workspace: seen only as created
    temp.write_text(text)
    os.rename(temp, path)


def vim(path: Path, text: str) -> None:
    swap = path.with_name(f".{path.name}.swp")
    swap.write_bytes(b"b0VIM 9.1")
    probe = path.with_name("4913")  # vim's can-I-create-files probe
    probe.write_text("")
    probe.unlink()
    backup = path.with_name(path.name + "~")
    os.rename(path, backup)  # backupcopy=no: the old file becomes the backup
    path.write_text(text)
    backup.unlink()
    swap.unlink()


def gnome(path: Path, text: str) -> None:
    temp = path.with_name(".goutputstream-Q1W2E3")
    temp.write_text(text)
    os.replace(temp, path)


def emacs(path: Path, text: str) -> None:
    lock = path.with_name(".#" + path.name)
    os.symlink("sam@laptop.4242:1767600000", lock)  # dangling, by design
    shutil.copyfile(path, path.with_name(path.name + "~"))
    path.with_name(f"#{path.name}#").write_text(text)
    path.write_text(text)
    lock.unlink()


def delete(path: Path, text: str) -> None:
    path.unlink()


def move_away(path: Path, text: str) -> None:
    (path.parent / "archive").mkdir()
    os.rename(path, path.parent / "archive" / path.name)


@pytest.mark.parametrize(
    ("save", "rel"),
    [
        (append_in_place, NOTE),
        (temp_and_rename, NOTE),
        (temp_outside_then_rename, NOTE),
        (temp_outside_then_rename, "memory/2026-01-06.md"),
        (vim, NOTE),
        (gnome, NOTE),
        (emacs, NOTE),
        (temp_and_rename, "MEMORY.md"),
        (move_away, NOTE),
    ],
    ids=lambda v: v if isinstance(v, str) else v.__name__,
)
def test_editor_save_is_committed(
    ws: Workspace, start: Callable[..., Running], save: Callable[..., None], rel: str
) -> None:
    (ws.root / NOTE).write_text(FIRST)
    run = start()  # the rescan at start records what is already there
    assert at_head(ws, NOTE) == FIRST
    path = ws.root / rel
    text = (path.read_text() if path.exists() else FIRST) + "- 09:10 written by hand\n"
    save(path, text)
    expected = None if save is move_away else text
    wait_for(lambda: run.logged(f"record {rel}"), f"{rel} recorded")
    assert at_head(ws, rel) == expected
    if expected is not None and rel.startswith("memory/"):
        assert git(ws, "log", "-1", "--format=%an") == "atlas\n"  # the writer
    tracked = git(ws, "ls-files").split()
    assert not [
        p for p in tracked if p.startswith("memory/") and is_dropping(Path(p).name)
    ]


def test_a_deleted_note_is_restored_and_the_watcher_says_so(
    ws: Workspace, start: Callable[..., Running]
) -> None:
    (ws.root / NOTE).write_text(FIRST)
    run = start()
    assert at_head(ws, NOTE) == FIRST
    delete(ws.root / NOTE, "")
    wait_for(lambda: run.logged("deleted outside the gardener"), "the warning")
    assert (ws.root / NOTE).read_text() == FIRST and at_head(ws, NOTE) == FIRST
    assert run.logged(f"warning: {NOTE} was deleted outside the gardener")


def test_secret_never_reaches_history(
    ws: Workspace, start: Callable[..., Running]
) -> None:
    run = start()
    with (ws.root / NOTE).open("w") as f:  # an agent writing the file itself
        f.write(FIRST + "- the staging db password is hunter2hunter2\n")
    wait_for(lambda: run.logged(f"record {NOTE}"), "the note recorded")
    assert "[REDACTED:password]" in (ws.root / NOTE).read_text()
    assert "hunter2hunter2" not in git(ws, "log", "-p", "--all")
    assert run.logged(f"redacted password in {NOTE}:7")


def test_a_value_redacted_once_never_reaches_history_again(
    ws: Workspace, start: Callable[..., Running]
) -> None:
    """The copies of a found value, and the value when it comes back bare in
    a later write, are redacted too (one decision for note and direct writes)."""
    run = start()
    with (ws.root / NOTE).open("w") as f:
        f.write(FIRST + "- the NAS password: Zq4vT9wLmX\n- Zq4vT9wLmX opens the NAS\n")
    wait_for(lambda: run.logged(f"record {NOTE}"), "the note recorded")
    run.lines.clear()
    with (ws.root / NOTE).open("a") as f:
        f.write("- later: Zq4vT9wLmX still works\n")
    wait_for(lambda: run.logged(f"record {NOTE}"), "the addition recorded")
    assert "Zq4vT9wLmX" not in (ws.root / NOTE).read_text()
    assert "Zq4vT9wLmX" not in git(ws, "log", "-p", "--all")


def test_idle_promotes_once(ws: Workspace, start: Callable[..., Running]) -> None:
    run = start(Options(debounce=0.1, idle=0.3, rescan=600))
    (ws.root / NOTE).write_text(FIRST + "- 09:20 decision: **database**: SQLite\n")
    wait_for(lambda: run.logged("promote 1 added"), "the idle promotion")
    subjects = git(ws, "log", "--format=%s").splitlines()
    assert subjects[:2] == [
        "promote: 1 added",
        "record: changes made outside the gardener",
    ]
    assert "**database**: SQLite" in (at_head(ws, "MEMORY.md") or "")


def test_no_commit_loop(ws: Workspace, start: Callable[..., Running]) -> None:
    run = start(Options(debounce=0.05, idle=0.1, rescan=600))
    # the gardener writes back both files: a redaction and a promotion
    (ws.root / NOTE).write_text(
        FIRST + "- 09:20 decision: **database**: SQLite\n- password=hunter2hunter2\n"
    )
    wait_for(lambda: run.logged("promote 1 added"), "the idle promotion")
    head, calls = git(ws, "rev-parse", "HEAD"), dict(run.watcher.calls)
    quiet_until = time.monotonic() + 20 * 0.05  # twenty debounce periods
    while time.monotonic() < quiet_until:
        assert git(ws, "rev-parse", "HEAD") == head, run.lines
    assert run.watcher.calls == calls  # its own writes did not even wake record()


def test_polling_fallback_at_the_inotify_limit(
    ws: Workspace, start: Callable[..., Running], monkeypatch: pytest.MonkeyPatch
) -> None:
    def limit() -> None:
        raise OSError(errno.ENOSPC, "inotify watch limit reached")

    monkeypatch.setattr(watch_module, "_native_observer", limit)
    run = start()
    warnings = [line for line in run.lines if "warning" in line]
    assert len(warnings) == 1 and "sysctl fs.inotify.max_user_watches=" in warnings[0]
    (ws.root / NOTE).write_text(FIRST)
    wait_for(lambda: at_head(ws, NOTE) == FIRST, "a commit found by polling")


def gardener(ws: Workspace, *args: str, **kwargs: object) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "gardener", "-w", str(ws.root), "watch", *args]
    return subprocess.Popen(command, text=True, **kwargs)  # type: ignore[call-overload]


def test_second_watcher_refused(ws: Workspace, start: Callable[..., Running]) -> None:
    start()
    second = gardener(ws, stderr=subprocess.PIPE)
    _, err = second.communicate(timeout=20)
    assert second.returncode == 1
    assert f"another gardener watch (pid {os.getpid()}) is already watching" in err


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_signal_commits_pending_write_and_exits_0(
    ws: Workspace, tmp_path: Path, sig: signal.Signals
) -> None:
    log = tmp_path / "watch.log"
    with log.open("w") as err:
        proc = gardener(ws, "--debounce", "30", "--idle", "0", stderr=err)
    try:
        started = lambda: "watching" in log.read_text() or proc.poll() is not None  # noqa: E731
        wait_for(started, "the watcher to start", 20)
        assert proc.poll() is None, log.read_text()
        (ws.root / NOTE).write_text(FIRST)  # still waiting out its 30 s debounce...
        proc.send_signal(sig)  # ...when the watcher is told to stop
        assert proc.wait(timeout=20) == 0, log.read_text()
    finally:
        proc.kill()
    assert at_head(ws, NOTE) == FIRST
    assert f"gardener watch: stopped ({sig.name})" in log.read_text()


def test_a_token_flushed_in_pieces_never_reaches_history(
    ws: Workspace, start: Callable[..., Running]
) -> None:
    """An agent flushes a line in 2-8 character chunks with pauses (issue 19):
    the watcher commits whole lines only, so no prefix of the token, which
    the scan would not know for one, is ever committed."""
    import random

    token = "ghp_" + "".join(
        random.Random(7).choices("abcdefghijkmnpqrstuvwxyzABCDEF23456789", k=36)
    )
    line = f"- 09:20 the deploy token is {token}\n"
    (ws.root / NOTE).write_text(FIRST)
    run = start(Options(debounce=0.05, idle=0, rescan=600, retry=0.5, grace=2.0))
    pick = random.Random(11)
    with (ws.root / NOTE).open("a") as f:
        at = 0
        while at < len(line):
            size = pick.randint(2, 8)
            f.write(line[at : at + size])
            f.flush()
            at += size
            time.sleep(pick.uniform(0.05, 0.3))
    wait_for(lambda: "REDACTED" in (at_head(ws, NOTE) or ""), "the line recorded")
    history = git(ws, "log", "-p", "--all")
    body = token[4:]
    assert not [
        body[i : i + 4] for i in range(len(body) - 3) if body[i : i + 4] in history
    ], history
    assert run.watcher.calls["record"] >= 3  # it looked at the note as the line grew


def test_a_last_line_without_newline_is_committed_after_the_grace(
    ws: Workspace, start: Callable[..., Running]
) -> None:
    (ws.root / NOTE).write_text(FIRST)
    run = start(Options(debounce=0.05, idle=0, rescan=600, retry=0.5, grace=1.0))
    with (ws.root / NOTE).open("a") as f:
        f.write("- 09:30 no newline at the end")
    started = time.monotonic()
    wait_for(lambda: "no newline" in (at_head(ws, NOTE) or ""), "the line recorded")
    assert time.monotonic() - started >= 0.9
    assert at_head(ws, NOTE) == FIRST + "- 09:30 no newline at the end"
    wait_for(lambda: run.logged(f"record {NOTE}"), "the log line")
