"""The loss budget, and hand edits: committed first, as their author, and kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gardener import Workspace
from gardener.errors import LossBudgetError
from tests.helpers import at, new_workspace, values, write

NOW = "2026-03-01T12:00"


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def eight(tmp_path: Path) -> Workspace:
    """Eight current facts, promoted and committed."""
    ws = new_workspace(tmp_path, NOW)
    (ws.root / "memory" / "2026-02-01.md").write_text(
        "".join(f"- fact: **host {i}**: box{i}\n" for i in range(8))
    )
    ws.promote()
    return ws


def current(ws: Workspace) -> list[str]:
    """The current values of the keys ``host 0`` to ``host 9``."""
    return sorted(h.value for i in range(10) for h in ws.recall(key=f"host {i}"))


# -- loss budget -----------------------------------------------------------------


def test_forget_beyond_the_budget_refuses_and_says_what(eight: Workspace, run_cli):
    ws = eight
    text, head = ws.memory_path.read_text(), git(ws.root, "rev-parse", "HEAD")
    with pytest.raises(LossBudgetError) as info:
        ws.forget("host")
    message = str(info.value)
    assert "would remove 8 of 8 current entries" in message
    assert all(f"host {i}" in message for i in range(8)) and "--force" in message
    assert ws.memory_path.read_text() == text
    assert git(ws.root, "rev-parse", "HEAD") == head
    out = run_cli("-w", str(ws.root), "forget", "host", code=1, now=NOW)
    assert "would remove 8 of 8" in out.output and "host 3" in out.output
    assert ws.forget("host", dry_run=True).commit is None  # a dry run shows it all
    assert len(ws.forget("host", dry_run=True).plan.retired) == 8
    assert ws.forget("box1").commit is not None  # one entry is within the budget
    assert ws.forget("host", force=True).commit is not None
    assert current(ws) == []


def test_forget_matches_whole_words_only(eight: Workspace) -> None:
    # a new user's "forget box-b" would have retired every box: "b" matched
    # inside any word
    assert ws_forgets(eight, "ox3") == []
    assert ws_forgets(eight, "box-3") == []
    assert ws_forgets(eight, "box3") == ["box3"]
    # a word's beginning finds it ("forget Postgres" left "PostgreSQL" current)
    assert ws_forgets(eight, "box") == sorted(f"box{i}" for i in range(8))


def ws_forgets(ws: Workspace, query: str) -> list[str]:
    return sorted(f.value for f in ws.forget(query, dry_run=True).plan.retired)


def test_promote_beyond_the_budget_refuses(eight: Workspace, run_cli):
    # values that had already expired when promoted would retire most of memory
    ws = eight
    (ws.root / "memory" / "2026-02-10.md").write_text(
        "".join(
            f"- fact: **host {i}**: spare{i} (expires: 2026-02-12)\n" for i in range(6)
        )
    )
    head = git(ws.root, "rev-parse", "HEAD").strip()
    with pytest.raises(LossBudgetError, match=r"remove 6 of 8 .*host 0, host 1"):
        ws.promote()
    out = run_cli("-w", str(ws.root), "promote", code=1, now=NOW)
    assert "would remove 6 of 8 current entries" in out.output
    assert git(ws.root, "log", "-1", "--format=%s").startswith("record:")
    assert git(ws.root, "diff", head, "HEAD", "--name-only").split() == [
        ".gardener/times.d/2026-02",  # the recorded times of its untimed lines
        "memory/2026-02-10.md",
    ]  # the note is recorded; MEMORY.md is not touched
    assert current(ws) == sorted(f"box{i}" for i in range(8))
    assert ws.promote(force=True).commit is not None
    assert current(ws) == ["box6", "box7"]


def test_prune_of_many_expired_entries_needs_force(eight: Workspace):
    ws = eight
    (ws.root / "memory" / "2026-02-02.md").write_text(
        "".join(f"- fact: **port {i}**: {i} (expires: 2026-02-20)\n" for i in range(8))
    )
    ws.promote()  # already expired, and filed: promote itself loses nothing
    # expiry counts against max_loss (a clock set ahead would expire everything)
    with pytest.raises(LossBudgetError, match="remove 8 of 16 current entries"):
        ws.prune()
    assert ws.prune(force=True).plan.expired != ()
    assert current(ws) == sorted(f"box{i}" for i in range(8))


def test_a_hand_edit_that_drops_most_entries_is_held_until_accepted(
    eight: Workspace,
):
    ws = eight
    text = ws.memory_path.read_text()
    kept = [
        line
        for line in text.splitlines(keepends=True)
        if "**host" not in line or "**host 7**" in line
    ]
    ws.memory_path.write_text("".join(kept))
    ws.note("box9", kind="fact", key="host 9", time="11:00")
    result = ws.promote()
    assert any("over max_loss" in w for w in result.warnings)
    assert ws.memory_path.read_text().startswith(text.split("<!--")[0])
    assert len(current(ws)) == 9  # every entry put back, and box9 filed
    held = ws.root / ".gardener" / "held"
    assert (held / "MEMORY.md").read_text() == "".join(kept)
    diff = (held / "MEMORY.md.diff").read_text()
    assert diff.startswith("--- a/MEMORY.md\n+++ b/MEMORY.md\n")
    assert any(x.startswith("-- **host 0**") for x in diff.splitlines())
    assert ".gardener/held" not in git(ws.root, "status", "--porcelain")


def test_a_held_rewrite_is_committed_on_accept(eight: Workspace):
    ws = eight
    text = ws.memory_path.read_text()
    kept = "".join(
        line
        for line in text.splitlines(keepends=True)
        if "**host" not in line or "**host 7**" in line
    )
    ws.memory_path.write_text(kept)
    assert ws.record().commit is None  # held: nothing to commit
    assert ws.memory_path.read_text() == text
    result = ws.record(accept=True)
    assert result.commit is not None
    assert ws.memory_path.read_text() == kept
    assert current(ws) == ["box7"]
    body = git(ws.root, "log", "-1", "--format=%B")
    assert "accepted the rewrite of MEMORY.md" in body
    assert not (ws.root / ".gardener" / "held").exists()
    assert ws.promote().commit is None


def test_a_small_hand_edit_is_committed_as_before(eight: Workspace):
    ws = eight
    text = ws.memory_path.read_text()
    lines = text.splitlines(keepends=True)
    ws.memory_path.write_text("".join(x for x in lines if "**host 3**" not in x))
    result = ws.record()
    assert result.commit is not None and not result.warnings
    assert len(current(ws)) == 7


# -- authors of hand edits ---------------------------------------------------------


def test_a_hand_edit_is_authored_by_the_configured_git_user(eight: Workspace):
    ws = eight
    git(ws.root, "config", "user.name", "Pat Doe")
    git(ws.root, "config", "user.email", "pat@example.org")
    ws.memory_path.write_text(ws.memory_path.read_text().replace("box3", "box33"))
    assert ws.record().commit is not None
    assert git(ws.root, "log", "-1", "--format=%an <%ae>|%cn") == (
        "Pat Doe <pat@example.org>|memory-gardener\n"
    )
    assert "box33" in current(ws)


def test_without_git_user_a_note_is_authored_by_its_agent(eight: Workspace):
    ws = eight
    (ws.root / "memory" / "2026-02-27.md").write_text(
        "---\nagent: atlas\n---\n- fact: **db**: SQLite\n"
    )
    ws.record()
    assert git(ws.root, "log", "-1", "--format=%an").strip() == "atlas"
    ws.memory_path.write_text(ws.memory_path.read_text() + "my own line\n")
    ws.record()
    assert git(ws.root, "log", "-1", "--format=%an").strip() == "memory-gardener"
    ws.promote()
    assert ws.memory_path.read_text().endswith("my own line\n")


@pytest.mark.parametrize("fast", [False, True])
def test_a_hand_edit_of_todays_note_is_its_writers_commit_not_the_notes(
    tmp_path: Path, fast: bool
):
    """Regression (new-user trial): ``note`` folded a person's uncommitted edit
    of the day's note into its own commit, authored by the agent."""
    ws = new_workspace(tmp_path, NOW)
    git(ws.root, "config", "user.name", "Pat Doe")
    git(ws.root, "config", "user.email", "pat@example.org")
    ws.note("CI runs on GitHub Actions", by="atlas")
    day = ws.root / "memory" / f"{NOW[:10]}.md"
    day.write_text(day.read_text().replace("GitHub Actions", "Buildkite"))
    if fast:
        env = {"GARDENER_NOW": NOW, "PATH": os.environ["PATH"]}
        subprocess.run([sys.executable, "-m", "gardener", "-w", str(ws.root), "note",
                        "--by", "atlas", "deploys are on Tuesdays"],
                       check=True, capture_output=True, env=env)  # fmt: skip
    else:
        ws.note("deploys are on Tuesdays", by="atlas")
    log = git(ws.root, "log", "-2", "--format=%an|%s").splitlines()
    assert log[0] == "atlas|note: deploys are on Tuesdays"
    assert log[1].startswith("Pat Doe|")
    shown = git(ws.root, "show", "HEAD", "--format=", "--unified=0")
    assert "Buildkite" not in shown and "deploys are on Tuesdays" in shown
    assert git(ws.root, "status", "--porcelain") == ""


def test_a_note_killed_after_its_append_is_finished_as_that_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Regression (breaker): a kill between the append and the journal left the
    line to be committed later as the person's hand edit."""
    import gardener.verbs.note

    ws = new_workspace(tmp_path, NOW)
    git(ws.root, "config", "user.name", "Pat Doe")
    git(ws.root, "config", "user.email", "pat@example.org")
    ws.note("first", by="atlas")
    real = gardener.verbs.note.append_entry

    def then_killed(path: Path, line: str, **kwargs: object) -> None:
        real(path, line)
        raise KeyboardInterrupt  # the process dies right after its append

    monkeypatch.setattr(gardener.verbs.note, "append_entry", then_killed)
    with pytest.raises(KeyboardInterrupt):
        ws.note("killed mid-way", by="atlas")
    monkeypatch.undo()
    ws.note("next", by="atlas")
    log = git(ws.root, "log", "--format=%an|%s").splitlines()
    assert log[:2] == ["atlas|note: next", "atlas|note: killed mid-way"]
    assert git(ws.root, "status", "--porcelain") == ""


def test_a_resumed_note_commits_its_journaled_text_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Regression (breaker): finishing a killed note committed the file as git
    read it, so a line appended since (a secret, unscanned) went into history
    under the note's author."""
    import gardener.verbs.note

    ws = new_workspace(tmp_path, NOW)
    ws.note("first", by="atlas")
    real = gardener.verbs.note.append_entry

    def then_killed(path: Path, line: str, **kwargs: object) -> None:
        real(path, line)
        raise KeyboardInterrupt

    monkeypatch.setattr(gardener.verbs.note, "append_entry", then_killed)
    with pytest.raises(KeyboardInterrupt):
        ws.note("killed mid-way", by="atlas")
    monkeypatch.undo()
    day = ws.root / "memory" / f"{NOW[:10]}.md"
    with day.open("a") as file:
        file.write("- vault password: hunter2hunter2\n")
    ws.record()  # finishes the note, then records the hand line
    assert "hunter2hunter2" not in git(ws.root, "log", "-p")
    resumed = git(ws.root, "log", "--format=%an|%s", "--grep=killed mid-way")
    assert resumed.startswith("atlas|note: killed mid-way")
    assert git(ws.root, "status", "--porcelain") == ""


def test_a_days_note_deleted_by_hand_is_restored_before_the_next_note(tmp_path: Path):
    """Regression (breaker): the note's commit carried the person's deletion;
    then (issue 19) the deletion was committed: only prune deletes a note."""
    ws = new_workspace(tmp_path, NOW)
    ws.note("first", by="atlas")
    note = ws.root / "memory" / f"{NOW[:10]}.md"
    note.unlink()
    result = ws.note("second", by="atlas")
    assert any("deleted outside the gardener" in w for w in result.warnings)
    log = git(ws.root, "log", "-2", "--format=%an|%s").splitlines()
    assert log == ["atlas|note: second", "atlas|note: first"]
    text = note.read_text()
    assert "first" in text and "second" in text
    shown = git(ws.root, "show", "HEAD", "--format=").splitlines()
    assert [x for x in shown if x.startswith(("+- ", "-- "))] == [
        "+- 12:00 second (by: atlas)"
    ]


@pytest.mark.parametrize("how", ["record", "own commit"])
def test_why_shows_the_value_a_hand_edit_replaced(tmp_path: Path, how: str):
    """Regression (new-user trial): after a person changed ``**editor**:
    Neovim`` to ``Helix`` in MEMORY.md, ``why editor`` gave Helix the Neovim
    promote's commit, and Neovim appeared nowhere."""
    ws = new_workspace(tmp_path, "2026-03-03T09:00")
    ws.note("Neovim", kind="preference", key="editor")
    ws.promote()
    memory = ws.root / "MEMORY.md"
    memory.write_text(
        memory.read_text().replace("**editor**: Neovim", "**editor**: Helix")
    )
    person = ["-c", "user.name=Pat Person", "-c", "user.email=pat@example.invalid"]
    if how == "record":
        later = Workspace(ws.root, now_override="2026-03-04T10:00")
        later.record()
    else:  # a person's own commit, the hook on
        env = {**os.environ, "GIT_COMMITTER_DATE": "2026-03-04T10:00:00",
               "GIT_AUTHOR_DATE": "2026-03-04T10:00:00"}  # fmt: skip
        subprocess.run(["git", "-C", str(ws.root), *person, "commit", "-qam", "Helix"],
                       check=True, env=env)  # fmt: skip
    edit = git(ws.root, "rev-parse", "HEAD").strip()
    records = ws.why("editor")
    assert [(r.hit.value, r.hit.status) for r in records] == [
        ("Neovim", "edited"),
        ("Helix", "current"),
    ]
    old, new = records
    assert old.edited_in == edit and old.commit != edit and old.hit.until
    assert old.hit.until.startswith("2026-03-04")
    assert new.commit == edit and new.edited_in is None
    assert old.as_dict()["edited_in"] == edit


def test_why_after_successive_hand_edits_gives_each_value_its_own_span(
    tmp_path: Path,
):
    """Regression (breaker): after Berlin -> Munich -> Hamburg by hand, every
    value showed the entry's first since, so their spans overlapped."""
    ws = new_workspace(tmp_path, "2026-03-03T08:00")
    ws.note("Berlin", kind="fact", key="city")
    ws.promote()
    memory = ws.root / "MEMORY.md"
    for hour, (old, new) in zip(
        ("09", "10"), (("Berlin", "Munich"), ("Munich", "Hamburg")), strict=True
    ):
        memory.write_text(
            memory.read_text().replace(f"**city**: {old}", f"**city**: {new}")
        )
        Workspace(ws.root, now_override=f"2026-03-03T{hour}:00").record()
    spans = [
        (r.hit.value, r.hit.status, r.hit.since, r.hit.until) for r in ws.why("city")
    ]
    assert spans == [
        ("Berlin", "edited", "2026-03-03T08:00", "2026-03-03T09:00"),
        ("Munich", "edited", "2026-03-03T09:00", "2026-03-03T10:00"),
        ("Hamburg", "current", "2026-03-03T08:00", None),
    ]


def test_why_gives_an_uncommitted_edit_no_commit(tmp_path: Path, run_cli):
    """Regression (new-user trial): before any gardener command recorded a
    hand edit of MEMORY.md, ``why`` gave the new value the commit that holds
    the old one."""
    ws = new_workspace(tmp_path, "2026-03-03T09:00")
    ws.note("Priya Nair", kind="fact", key="Dana / manager")
    ws.promote()
    memory = ws.root / "MEMORY.md"
    memory.write_text(memory.read_text().replace("Priya Nair", "Priya Natarajan"))
    [record] = ws.why("Dana / manager")
    assert (record.hit.value, record.commit) == ("Priya Natarajan", None)
    out = run_cli("-w", str(ws.root), "why", "Dana / manager")
    assert "not committed yet" in out.output


@pytest.mark.now("2026-03-01T18:00")
def test_a_nested_line_added_later_does_not_undo_a_hand_edit(ws: Workspace):
    write(ws, "2026-03-01.md", "- 10:00 decision: **database**: SQLite\n")
    ws.promote()
    memory = ws.root / "MEMORY.md"
    memory.write_text(
        memory.read_text().replace("**database**: SQLite", "**database**: DuckDB")
    )
    ws.promote()
    with open(ws.root / "memory" / "2026-03-01.md", "a") as f:
        f.write("  - because it is one file\n")
    ws.promote()
    assert values(ws, "database") == ["DuckDB"]


def test_hand_edit_is_committed_first_and_kept(ws: Workspace):
    ws.note("we use SQLite", kind="decision", key="database", time="09:00")
    ws.note("prefers dark mode", kind="preference", key="theme", time="09:01")
    at(ws, "2026-01-05T18:00").promote()
    memory = ws.root / "MEMORY.md"
    lines = [
        line
        for line in memory.read_text().splitlines(keepends=True)
        if "**theme**" not in line
    ]
    memory.write_text(
        "".join(lines).replace("we use SQLite", "we use SQLite (WAL mode)")
    )
    ws.note("tabs", kind="preference", key="indentation", time="19:00")
    at(ws, "2026-01-05T20:00").promote()
    log = git(ws.root, "log", "--format=%s", "-3").splitlines()
    assert log[0].startswith("promote:") and log[1].startswith("record:")
    text = memory.read_text()
    assert "we use SQLite (WAL mode)" in text
    assert "**theme**" not in text  # a fact deleted by hand is not brought back
    assert "**indentation**" in text


def test_a_cut_accepted_leaves_no_link_for_check_to_report_for_ever(tmp_path: Path):
    # the breaker's finding: after `record --accept` of a MEMORY.md cut down to
    # its Superseded history, check exited 4 on every run (superseded-by named
    # the deleted entry) and no command repaired it
    from tests.e2e.test_sync import gardener

    root = tmp_path / "ws"
    gardener(root, "2026-03-02T09:00", "init")
    for now, text in (
        ("2026-03-02T09:01", "decision: **database**: Postgres"),
        ("2026-03-02T09:02", "decision: **editor**: vim"),
        ("2026-03-02T09:03", "fact: **city**: Oslo"),
    ):
        gardener(root, now, "note", text)
    gardener(root, "2026-03-02T09:04", "promote")
    gardener(root, "2026-03-02T10:01", "note", "decision: **database**: SQLite")
    gardener(root, "2026-03-02T10:02", "promote")
    memory = root / "MEMORY.md"
    kept = [
        line
        for line in memory.read_text().splitlines(keepends=True)
        if not any(v in line for v in ("SQLite", "vim", "Oslo"))
    ]
    memory.write_text("".join(kept))
    gardener(root, "2026-03-02T11:00", "record")  # held: over max_loss
    gardener(root, "2026-03-02T11:01", "record", "--accept")
    said = gardener(root, "2026-03-02T11:02", "check", code=4).stdout
    assert "names no entry" in said and "gardener promote" in said
    gardener(root, "2026-03-02T11:03", "promote")
    gardener(root, "2026-03-02T11:04", "check")
    text = memory.read_text()
    assert "Postgres" in text and "until=2026-03-02T10:01" in text
    assert "superseded-by" not in text
    subject = git(root, "log", "-1", "--format=%s")
    assert subject == "promote: 1 dangling link(s) dropped\n"


def test_a_big_note_records_no_times(eight: Workspace):
    """A note of 256 KB or more is never parsed whole per commit: its untimed
    lines keep the inherited time and no times.d line is written (merging
    b18's recorded times with the big-note tail parse cost 0.7 s a commit)."""
    ws = eight
    note = ws.root / "memory" / "2026-02-10.md"
    note.write_text("- 09:00 the log starts\n" + "- a line of the log\n" * 14_000)
    head = git(ws.root, "rev-parse", "HEAD").strip()
    ws.record()
    changed = git(ws.root, "diff", head, "HEAD", "--name-only").split()
    assert changed == ["memory/2026-02-10.md"]
