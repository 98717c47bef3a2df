"""Several machines: ``gardener sync`` and purges that reach every clone.

A real bare remote and clones in tmp_path, the real CLI as a child process
(its hooks run as git runs them). "No trace" is read with plain git: every
object (``cat-file --batch-all-objects``), every ref and every reflog.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import git

NAME = "Solveig Haugland-Brekke"  # the text purged: a made-up name
PERSON = ["-c", "user.name=Pat Person", "-c", "user.email=pat@example.invalid"]


def gardener(
    root: Path, now: str, *args: str, code: int = 0
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GARDENER_NOW=now)
    done = subprocess.run(
        [sys.executable, "-m", "gardener", "-w", str(root), *args],
        capture_output=True, text=True, env=env,
    )  # fmt: skip
    assert done.returncode == code, (
        f"exit {done.returncode}\n{done.stdout}{done.stderr}"
    )
    return done


def run_git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """git as a user types it (hooks on), any exit code."""
    return subprocess.run(
        ["git", "-C", str(root), *PERSON, *args], capture_output=True, text=True
    )


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    """A bare remote holding a workspace, pushed from clone one by ``sync``."""
    bare = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    return bare


def first_clone(tmp_path: Path, remote: Path) -> Path:
    """Clone one, ``tmp_path / "one"``: ``init`` at 09:00, ``remote`` as its
    origin, then ``sync`` at 09:01 (the first push, into the empty ``remote``).

    A copy of the clone and remote made so once per test process (in the
    session's temporary folder), as ``tests.helpers.new_workspace`` copies a
    workspace: the same files, history and refs; only the origin's URL names
    a folder, and it is set to ``remote``."""
    template = tmp_path.parent / "sync-template"
    if not (template / "done").exists():
        shutil.rmtree(template, ignore_errors=True)
        bare = template / "remote.git"
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)  # fmt: skip
        gardener(template / "one", "2026-03-02T09:00", "init")
        git(template / "one", "remote", "add", "origin", str(bare))
        gardener(template / "one", "2026-03-02T09:01", "sync")
        (template / "done").touch()
    assert git(remote, "for-each-ref") == ""  # the fixture's remote, still empty
    shutil.rmtree(remote)
    shutil.copytree(template / "remote.git", remote, symlinks=True)
    one = tmp_path / "one"
    shutil.copytree(template / "one", one, symlinks=True)
    git(one, "remote", "set-url", "origin", str(remote))
    return one


def shared_note(tmp_path: Path, remote: Path) -> Path:
    """Clone one, whose note naming ``NAME`` is on the remote."""
    one = first_clone(tmp_path, remote)
    gardener(one, "2026-03-02T10:00", "note", f"lunch with {NAME} about the offsite")
    gardener(one, "2026-03-02T10:01", "sync")
    return one


def clone(tmp_path: Path, remote: Path, name: str, now: str) -> Path:
    path = tmp_path / name
    git(tmp_path, "clone", "-q", str(remote), str(path))
    gardener(path, now, "init")  # the hooks (a clone gets none)
    return path


def traces(repo: Path, text: str) -> list[str]:
    """Where ``text`` still is in ``repo``: objects, refs, reflogs, git files."""
    found = []
    objects = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch-all-objects", "--batch"],
        capture_output=True, check=True,
    ).stdout  # fmt: skip
    if text.encode() in objects:
        found.append("an object")
    if text in git(repo, "for-each-ref", "--format=%(refname) %(subject)"):
        found.append("a ref")
    reflog = subprocess.run(
        ["git", "-C", str(repo), "log", "-g", "--all", "-p", "--format=%H %s"],
        capture_output=True, text=True, errors="replace",
    ).stdout  # fmt: skip
    if text in reflog:
        found.append("a reflog")
    return found


def test_a_purge_reaches_a_stale_clone_through_sync(tmp_path: Path, remote: Path):
    one = shared_note(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T10:05")
    gardener(two, "2026-03-02T10:10", "note", "clone two keeps its own plan")
    pushed = gardener(
        one, "2026-03-02T11:00", "purge", NAME, "--yes", "--push", "--json"
    )
    assert [p["ok"] for p in json.loads(pushed.stdout)["pushed"]] == [True]
    assert traces(remote, NAME) == []
    assert NAME in (two / "memory" / "2026-03-02.md").read_text()  # stale, so far

    done = gardener(two, "2026-03-02T11:30", "sync", "--json")
    report = json.loads(done.stdout)
    assert report["merge"] == "rewrite" and report["replayed"] == 1
    assert report["pushed"] is True
    for repo in (remote, one, two):
        assert traces(repo, NAME) == [], repo
    note = (two / "memory" / "2026-03-02.md").read_text()
    assert "clone two keeps its own plan" in note and NAME not in note
    assert note.count("[PURGED]") == 1  # the union merge's twin of the line is gone
    assert (
        git(remote, "log", "-1", "--format=%s", "main")
        == "note: clone two keeps its own plan\n"
    )
    # the clone now refuses the text, fast: it met it in its own history
    assert (two / ".gardener" / "purged.local").is_file()
    gardener(two, "2026-03-02T11:40", "note", f"{NAME} called again", code=3)
    gardener(one, "2026-03-02T11:45", "sync")
    assert (
        "clone two keeps its own plan" in (one / "memory" / "2026-03-02.md").read_text()
    )


def test_a_stale_clone_that_pulls_and_pushes_is_refused(tmp_path: Path, remote: Path):
    one = shared_note(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T10:05")
    gardener(two, "2026-03-02T10:10", "note", "clone two keeps its own plan")
    gardener(one, "2026-03-02T11:00", "purge", NAME, "--yes", "--push")
    before = git(remote, "rev-parse", "main")

    pulled = run_git(two, "pull", "--no-rebase", "--no-edit")
    assert pulled.returncode == 0, pulled.stderr
    pushed = run_git(two, "push")
    assert pushed.returncode != 0
    assert "history from before a purge" in pushed.stderr
    assert "gardener sync" in pushed.stderr
    forced = run_git(two, "push", "--force")
    assert forced.returncode != 0 and "gardener sync" in forced.stderr
    assert git(remote, "rev-parse", "main") == before
    assert traces(remote, NAME) == []
    # sync still mends the clone after the merge: its own note is kept
    gardener(two, "2026-03-02T11:30", "sync")
    assert traces(two, NAME) == []
    assert (
        "clone two keeps its own plan" in (two / "memory" / "2026-03-02.md").read_text()
    )


def test_a_force_push_over_unfetched_commits_is_refused(tmp_path: Path, remote: Path):
    one = first_clone(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T09:30")
    gardener(one, "2026-03-02T10:00", "note", "one writes first")
    gardener(one, "2026-03-02T10:01", "sync")
    gardener(two, "2026-03-02T10:05", "note", "two writes later")
    forced = run_git(two, "push", "--force")
    assert forced.returncode != 0 and "not fetched" in forced.stderr


@pytest.mark.parametrize("first", ["one", "two"])
def test_two_clones_sync_in_either_order(tmp_path: Path, remote: Path, first: str):
    one = first_clone(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T09:30")
    gardener(one, "2026-03-02T10:00", "note", "one: lunch at the canteen")
    gardener(two, "2026-03-02T10:05", "note", "two: coffee with the team")
    clones = {"one": one, "two": two}
    order = [clones[first], clones["two" if first == "one" else "one"], clones[first]]
    for n, repo in enumerate(order):
        gardener(repo, f"2026-03-02T11:0{n}", "sync")
    for repo in (one, two):
        note = (repo / "memory" / "2026-03-02.md").read_text()
        assert (
            "one: lunch at the canteen" in note and "two: coffee with the team" in note
        )
        assert git(repo, "rev-parse", "HEAD") == git(remote, "rev-parse", "main")
    gardener(one, "2026-03-02T11:10", "check")


def test_both_clones_promote_then_sync(tmp_path: Path, remote: Path):
    one = first_clone(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T09:30")
    gardener(
        one, "2026-03-02T10:00", "note", "decision: we use Postgres for the database"
    )
    gardener(one, "2026-03-02T10:01", "promote")
    gardener(two, "2026-03-02T10:05", "note", "fact: the office is in Bergen")
    gardener(two, "2026-03-02T10:06", "promote")
    gardener(one, "2026-03-02T11:00", "sync")
    gardener(two, "2026-03-02T11:01", "sync")
    gardener(one, "2026-03-02T11:02", "sync")
    memory = (one / "MEMORY.md").read_text()
    assert "Postgres" in memory and "Bergen" in memory


def test_dry_run_changes_nothing(tmp_path: Path, remote: Path):
    one = shared_note(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T10:05")
    gardener(two, "2026-03-02T10:10", "note", "clone two keeps its own plan")
    gardener(one, "2026-03-02T10:20", "note", "one writes more")
    gardener(one, "2026-03-02T10:21", "sync")

    def state(repo: Path) -> tuple[str, ...]:
        fetch_head = repo / ".git" / "FETCH_HEAD"
        return (
            git(repo, "for-each-ref"), git(repo, "status", "--porcelain", "--ignored"),
            git(repo, "reflog", "--all"), (repo / "memory" / "2026-03-02.md").read_text(),
            fetch_head.read_text() if fetch_head.exists() else "",
        )  # fmt: skip

    before = state(two)
    report = json.loads(
        gardener(two, "2026-03-02T10:30", "sync", "--dry-run", "--json").stdout
    )
    assert report["merge"] == "merge" and report["dry_run"] is True
    assert [c["subject"] for c in report["incoming"]] == ["note: one writes more"]
    assert [c["subject"] for c in report["outgoing"]] == [
        "note: clone two keeps its own plan"
    ]
    assert state(two) == before
    gardener(one, "2026-03-02T11:00", "purge", NAME, "--yes", "--push")
    text = gardener(two, "2026-03-02T11:10", "sync", "--dry-run").stdout
    assert "rewritten by a purge" in text and "would rewrite" in text
    assert state(two) == before


def test_a_fresh_clone_checks_the_committed_register(tmp_path: Path, remote: Path):
    one = first_clone(tmp_path, remote)
    gardener(one, "2026-03-02T10:00", "note", f"call {NAME} on Monday")
    gardener(one, "2026-03-02T11:00", "purge", NAME, "--yes", "--push")
    fresh = clone(tmp_path, remote, "fresh", "2026-03-02T11:05")
    assert not (fresh / ".gardener" / "salt").exists()  # no key travelled
    assert NAME not in (fresh / ".gardener" / "purged").read_text()
    gardener(fresh, "2026-03-02T11:10", "note", f"met {NAME.upper()} again", code=3)
    # written by hand and committed with git: the hook takes it out
    day = fresh / "memory" / "2026-03-02.md"
    day.write_text(day.read_text() + f"- 11:20 {NAME} joined\n")
    run_git(fresh, "add", "-A")
    committed = run_git(fresh, "commit", "-m", "by hand")
    assert committed.returncode != 0, committed.stdout
    done = gardener(fresh, "2026-03-02T11:30", "check", code=4)
    assert "purged" in done.stdout + done.stderr
    run_git(fresh, "reset", "-q")
    gardener(fresh, "2026-03-02T11:40", "sync")  # records it, as [PURGED]
    assert NAME not in day.read_text() and "- 11:20 [PURGED] joined" in day.read_text()
    assert NAME not in git(remote, "log", "-p", "main")
    assert (fresh / ".gardener" / "purged.local").is_file()  # met: fast from now on


def test_a_stale_clone_that_rebases_and_pushes_is_refused(tmp_path: Path, remote: Path):
    one = shared_note(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T10:05")
    gardener(two, "2026-03-02T10:10", "note", f"{NAME} asked for the agenda")
    gardener(one, "2026-03-02T11:00", "purge", NAME, "--yes", "--push")
    before = git(remote, "rev-parse", "main")
    run_git(two, "pull", "--rebase")  # replays the old commits, newly dated
    run_git(two, "rebase", "--abort")  # if it stopped on a conflict
    pushed = run_git(two, "push", "--force")
    assert pushed.returncode != 0 and "gardener sync" in pushed.stderr
    assert git(remote, "rev-parse", "main") == before


def test_sync_in_a_clone_never_set_up_registers_the_merge_drivers(
    tmp_path: Path, remote: Path
):
    """The new user's case: `sync` in a clone without `gardener init .` stopped
    on a conflict in the ledger; it sets the clone up (hooks and drivers) first."""
    one = first_clone(tmp_path, remote)
    two = tmp_path / "two"
    git(tmp_path, "clone", "-q", str(remote), str(two))  # no init
    gardener(
        one, "2026-03-02T10:00", "note", "decision: we use Postgres for the database"
    )
    gardener(one, "2026-03-02T10:01", "promote")
    gardener(two, "2026-03-02T10:05", "note", "fact: the office is in Bergen")
    gardener(two, "2026-03-02T10:06", "promote")
    gardener(one, "2026-03-02T11:00", "sync")
    done = gardener(two, "2026-03-02T11:01", "sync")
    assert "no merge drivers" not in done.stderr
    memory = (two / "MEMORY.md").read_text()
    assert "Postgres" in memory and "Bergen" in memory
    assert "merge=gardener-union" in (two / ".gitattributes").read_text()


def test_record_in_the_middle_of_a_merge_says_what_to_do(tmp_path: Path, remote: Path):
    one = first_clone(tmp_path, remote)
    head = git(one, "rev-parse", "HEAD").strip()
    (one / ".git" / "MERGE_HEAD").write_text(head + "\n")  # what a stopped merge leaves
    (one / "memory" / "2026-03-02.md").write_text("- we met Ana\n")
    done = gardener(one, "2026-03-02T10:00", "record", code=1)
    assert (
        "a git merge is in progress" in done.stderr
        and "git merge --abort" in done.stderr
    )


def test_old_history_pushed_past_the_hook_never_comes_in(tmp_path: Path, remote: Path):
    """The breaker's case: a stale clone pulls and pushes with --no-verify; the
    purging clone's next sync fast-forwarded onto it and the text was back."""
    one = shared_note(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T10:05")
    gardener(one, "2026-03-02T11:00", "purge", NAME, "--yes", "--push")
    assert run_git(two, "pull", "--no-rebase", "--no-edit").returncode == 0
    assert run_git(two, "push", "--no-verify").returncode == 0  # past the hook
    done = gardener(one, "2026-03-02T11:30", "sync", code=1)
    assert "holds a text purged from this workspace again" in done.stderr
    assert NAME not in (one / "memory" / "2026-03-02.md").read_text()
    assert NAME not in (one / "MEMORY.md").read_text()
    assert git(one, "log", "-1", "--format=%s").startswith("purge")


def test_a_note_during_an_unresolved_merge_leaves_the_conflict_alone(
    tmp_path: Path, remote: Path
):
    """The breaker's case: `note` (and promote) during `git pull`'s conflict
    staged the conflicted file, markers and all, as if resolved."""
    one = first_clone(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T09:30")
    for root, word in ((one, "Oslo"), (two, "Bergen")):
        rules = root / "rules.md"
        rules.write_text(rules.read_text() + f"\nOur office: {word}\n")
        assert run_git(root, "commit", "-qam", f"rules: {word}").returncode == 0
    assert run_git(one, "push", "-q").returncode == 0
    assert run_git(two, "pull", "--no-rebase", "--no-edit").returncode != 0  # conflict
    for args in (["note", "we use Postgres for billing"], ["promote"]):
        done = gardener(two, "2026-03-02T10:00", *args, code=1)
        assert "a git merge is in progress" in done.stderr
    assert git(two, "ls-files", "-u", "rules.md").strip()  # still unmerged
    assert not (two / "memory" / "2026-03-02.md").exists()


def test_a_purge_push_the_remote_refuses_is_an_error(tmp_path: Path, remote: Path):
    """The new user's case: a refused force-push printed "NOT pushed" and exited 0."""
    one = shared_note(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T10:05")
    gardener(two, "2026-03-02T10:10", "note", "clone two keeps its own plan")
    gardener(two, "2026-03-02T10:11", "sync")  # one has not fetched it
    done = gardener(one, "2026-03-02T11:00", "purge", NAME, "--yes", "--push", code=1)
    assert "push was refused" in done.stderr


def test_a_purge_push_from_a_clone_that_missed_a_purge_is_refused(
    tmp_path: Path, remote: Path
):
    """The breaker's case: clone two purged another text and force-pushed its
    history, which had never followed clone one's purge: the text was back."""
    one = shared_note(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T10:05")
    gardener(two, "2026-03-02T10:10", "note", "the Quibbly Marmoset plan")
    gardener(one, "2026-03-02T11:00", "purge", NAME, "--yes", "--push")
    git(two, "fetch", "-q")  # its lease is then the rewritten branch
    done = gardener(
        two, "2026-03-02T11:10", "purge", "Quibbly Marmoset", "--yes", "--push", code=1
    )
    assert "has not followed" in done.stdout + done.stderr
    assert traces(remote, NAME) == []


def test_a_note_on_a_detached_head_is_refused(tmp_path: Path, remote: Path):
    """The breaker's case: after a sync killed in its replay, HEAD was on no
    branch and notes committed there were lost when the branch came back."""
    one = first_clone(tmp_path, remote)
    git(one, "checkout", "-q", "--detach")
    done = gardener(one, "2026-03-02T10:00", "note", "we use Postgres", code=1)
    assert "HEAD is on no branch" in done.stderr
    assert not (one / "memory" / "2026-03-02.md").exists()


@pytest.mark.parametrize("dry", [[], ["--dry-run"]])
def test_a_failed_fetch_says_what_git_said(
    tmp_path: Path, remote: Path, dry: list[str]
):
    # the breaker's finding: it said only "git fetch origin failed (exit 128)";
    # a dry run said "new branch"
    one = first_clone(tmp_path, remote)
    git(one, "remote", "set-url", "origin", str(tmp_path / "nowhere.git"))
    done = gardener(one, "2026-03-02T10:00", "sync", *dry, code=1)
    assert "does not appear to be a git repository" in done.stderr
    assert "exit 128" not in done.stderr


def test_following_a_rewrite_reports_what_came_in(tmp_path: Path, remote: Path):
    one = shared_note(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T10:05")
    gardener(one, "2026-03-02T11:00", "purge", NAME, "--yes", "--push")
    done = gardener(two, "2026-03-02T11:30", "sync")
    assert "in: 0 commit(s)" not in done.stdout
    assert "purge: erased 1 text" in done.stdout


def test_a_fact_filed_by_a_clock_ahead_is_reported_on_every_clone(
    tmp_path: Path, remote: Path
):
    # the breaker's finding: two's clock runs eight hours ahead, so it files a
    # value since 20:00 that outranks any value one files before then; check
    # flagged a note named for a future day only, never the fact
    one = first_clone(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T09:05")
    gardener(two, "2026-03-02T20:00", "note", "decision: **database**: MySQL")
    gardener(two, "2026-03-02T20:01", "sync")
    gardener(one, "2026-03-02T12:00", "sync")
    assert "MySQL" in (one / "MEMORY.md").read_text()
    done = gardener(one, "2026-03-02T12:01", "check", "--json", code=4)
    problems = json.loads(done.stdout)["problems"]
    assert [(p["kind"], p["path"]) for p in problems] == [("future", "MEMORY.md")]
    assert "since=2026-03-02T20:00 is in the future" in problems[0]["message"]
    gardener(one, "2026-03-02T20:30", "check")  # its time has come


def test_a_purged_name_with_other_punctuation_is_refused_on_every_clone(
    tmp_path: Path, remote: Path
):
    one = shared_note(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T10:05")
    gardener(one, "2026-03-02T11:00", "purge", NAME, "--yes", "--push")
    gardener(two, "2026-03-02T11:30", "sync")
    spelled = (
        NAME.replace("-", " ").replace(" ", "-", 1).upper()
    )  # SOLVEIG-HAUGLAND BREKKE
    for root in (one, two):
        gardener(root, "2026-03-02T11:40", "note", f"{spelled} called", code=3)


def test_sync_after_a_purge_not_pushed_says_to_push_it(tmp_path: Path, remote: Path):
    # it said "rewritten, but not by a gardener purge" of the remote, which
    # was not rewritten at all: this clone's purge was not pushed
    one = shared_note(tmp_path, remote)
    gardener(one, "2026-03-02T11:00", "purge", NAME, "--yes")
    said = gardener(one, "2026-03-02T11:10", "sync", code=1).stderr
    assert "a purge made here is not on origin/main yet" in said
    gardener(one, "2026-03-02T11:20", "purge", NAME, "--yes", "--push")
    gardener(one, "2026-03-02T11:30", "sync")
    assert traces(remote, NAME) == []


PHONE = "555-0199"  # the breaker's purged text


@pytest.mark.parametrize("writes", ["note+append", "appends", "note+append+promote"])
def test_following_a_purge_writes_each_local_line_once(
    tmp_path: Path, remote: Path, writes: str
):
    # the breaker's finding: a stale clone's note and an agent's `>>` after a
    # purge came out twice (lines 6-7 repeating 4-5) once sync replayed them:
    # the union merge of each replayed commit kept the rewritten lines and the
    # old ones, which the scrub made the same lines again
    one = first_clone(tmp_path, remote)
    day = "2026-03-03"
    gardener(one, f"{day}T10:00", "note", f"call Bob at {PHONE} tomorrow")
    gardener(one, f"{day}T10:01", "sync")
    two = clone(tmp_path, remote, "two", f"{day}T10:05")
    gardener(one, f"{day}T11:00", "purge", PHONE, "--yes", "--push")
    note = two / "memory" / f"{day}.md"
    mine = []
    if writes != "appends":
        gardener(
            two, f"{day}T11:10", "note", f"Captain Phonenumber {PHONE} prefers email"
        )
        mine.append("- 11:10 Captain Phonenumber [PURGED] prefers email")
    if writes == "appends":  # an agent's own writes, recorded one by one
        with note.open("a") as f:
            f.write(f"- Bob's number is {PHONE}\n")
        gardener(two, f"{day}T11:12", "record")
        mine.append("- Bob's number is [PURGED]")
    with note.open("a") as f:
        f.write("- some line\n")
    mine.append("- some line")
    if writes == "appends":
        gardener(two, f"{day}T11:14", "record")
        with note.open("a") as f:
            f.write("- a third line\n")  # recorded by sync
        mine.append("- a third line")
    if writes.endswith("promote"):
        gardener(two, f"{day}T11:15", "promote")

    done = gardener(two, f"{day}T11:30", "sync", "--json")
    assert json.loads(done.stdout)["merge"] == "rewrite"
    gardener(one, f"{day}T11:40", "sync")
    expected = [f"# {day}", "", "- 10:00 call Bob at [PURGED] tomorrow", *mine]
    for repo in (one, two):
        assert (repo / "memory" / f"{day}.md").read_text().splitlines() == expected
        gardener(repo, f"{day}T11:45", "check")
    for repo in (remote, one, two):
        assert traces(repo, PHONE) == [], repo
