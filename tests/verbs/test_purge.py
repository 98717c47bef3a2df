"""Purge: a text erased from the files and every commit, checked object by object.

Real git repositories in tmp_path; the checks read the repository with plain
git (every object, ``log --all --reflog -p``) and every file of ``.git``.
"""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from gardener import Workspace
from gardener.errors import GardenerError, UsageError
from gardener.files.layout import SALT
from gardener.planning.purge import refused_by_purge
from gardener.store.purged import PURGED, read_purged
from gardener.verbs.purge import PurgeResult

TOKEN = "zq_live_FAKE4kR9wPq2LmX7vT3nB8yH"  # shaped like a vendor token; not real
NAME = "Mira Okonkwo-Lindqvist"
PERSON = ["-c", "user.name=Pat Person", "-c", "user.email=pat@example.invalid"]


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def purge(
    ws: Workspace,
    text: str,
    *,
    dry_run: bool = False,
    by: str | None = None,
    ignore_case: bool = False,
) -> PurgeResult:
    return ws.purge(text, dry_run=dry_run, by=by, ignore_case=ignore_case)


def assert_gone(root: Path, text: str) -> int:
    """Fail if any object, log, ref, reflog or file of the repository holds ``text``.

    Returns the number of objects scanned.
    """
    needle = text.encode()
    objects = subprocess.run(
        ["git", "-C", str(root), "cat-file", "--batch-all-objects", "--batch"],
        check=True,
        capture_output=True,
    ).stdout
    assert needle not in objects
    history = git(root, "log", "--all", "--reflog", "-p", "--format=fuller")
    assert text not in history
    assert text not in git(root, "for-each-ref", "--format=%(refname) %(contents)")
    for path in root.rglob("*"):
        rel = path.relative_to(root).parts
        if rel[:2] == (".git", "objects") or not path.is_file():
            continue  # objects are compressed: cat-file read them above
        assert needle not in path.read_bytes(), path
        assert text not in path.name
    # nothing unreachable left behind, and the repository is sound
    fsck = git(root, "fsck", "--full", "--unreachable", "--no-reflogs")
    assert fsck.strip() == ""
    batch = git(root, "cat-file", "--batch-all-objects", "--batch-check")
    return len(batch.splitlines())


def purge_killed_at_the_rewrite(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    """``purge NAME`` as if killed where the history rewrite starts (the
    fault is injected there: a real kill lands anywhere)."""
    import gardener.git.rewrite

    def killed(*args: object, **kwargs: object) -> None:
        raise SystemExit(137)

    monkeypatch.setattr(gardener.git.rewrite, "rewrite_history", killed)
    with pytest.raises(SystemExit):
        purge(ws, NAME, by="dpo")
    monkeypatch.undo()


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of the workspace and its git folder, with its bytes."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "gardener.lock"
    }


def leak_by_hand(ws: Workspace) -> None:
    """A person commits a token by hand (no hook), then it spreads: a branch,
    an annotated tag, a stash, a remote-tracking ref, ORIG_HEAD, FETCH_HEAD."""
    root = ws.root
    ws.note("the deploy script lives in ops/deploy.sh", by="atlas")
    note = root / "memory" / "2026-01-05.md"
    with note.open("a") as out:
        out.write(f"- 09:30 deploy with {TOKEN}\n")
    git(root, *PERSON, "commit", "--no-verify", "-qam", f"add deploy token {TOKEN}")
    git(root, *PERSON, "tag", "-a", "v1", "-m", f"release, token {TOKEN}")
    git(root, "branch", "wip")
    remote = root.parent / "remote.git"
    git(root, "clone", "-q", "--bare", str(root), str(remote))
    git(root, "remote", "add", "origin", str(remote))
    git(root, "fetch", "-q", "origin")  # refs/remotes/origin/*, FETCH_HEAD
    with (root / "MEMORY.md").open("a") as out:
        out.write(f"\nscratch: {TOKEN}\n")
    git(root, *PERSON, "stash", "-q")  # refs/stash
    git(root, "reset", "-q", "--hard", "HEAD")  # ORIG_HEAD
    ws.now_override = "2026-01-06T09:00"
    ws.note("the staging host is staging-3", by="atlas")


def test_purge_a_leaked_secret_from_every_object(ws: Workspace):
    leak_by_hand(ws)
    before = snapshot(ws.root)
    dry = purge(ws, TOKEN, dry_run=True)
    assert snapshot(ws.root) == before  # the dry run changed nothing
    assert dry.found and dry.dry_run and dry.commit is None
    assert [f.path for f in dry.files] == ["memory/2026-01-05.md"]
    assert len(dry.commits) >= 3  # the hand commit, the stash, the later note
    assert all(TOKEN not in c.subject for c in dry.commits)
    assert any("[PURGED]" in c.subject for c in dry.commits)
    assert TOKEN not in "\n".join(dry.lines()) + repr(dry.as_dict())
    assert any("origin" in w for w in dry.warnings)

    with pytest.raises(AssertionError):  # the check finds it before the purge
        assert_gone(ws.root, TOKEN)
    result = purge(ws, TOKEN, by="Sam Security")
    scanned = assert_gone(ws.root, TOKEN)
    assert scanned == result.objects_scanned > 20
    assert result.commit == git(ws.root, "rev-parse", "HEAD").strip()
    note = (ws.root / "memory" / "2026-01-05.md").read_text()
    assert "- 09:30 deploy with [PURGED]" in note
    assert "ops/deploy.sh" in note  # nothing else lost
    # refs survive, rewritten: branch, tag, stash, remote-tracking ref, remote
    refs = git(ws.root, "for-each-ref", "--format=%(refname)").split()
    for ref in ("refs/heads/wip", "refs/tags/v1", "refs/stash"):
        assert ref in refs
    assert "refs/remotes/origin/main" in refs
    assert "[PURGED]" in git(ws.root, "cat-file", "tag", "v1")
    assert git(ws.root, "remote").split() == ["origin"]
    assert any("has remotes (origin)" in w and "--push" in w for w in result.warnings)
    # the remote itself is not ours to rewrite: it still holds the token
    remote = ws.root.parent / "remote.git"
    assert TOKEN in git(remote, "log", "--all", "-p")
    assert not (ws.root / ".git" / "filter-repo").exists()
    assert not (ws.root / ".git" / "ORIG_HEAD").exists()
    assert git(ws.root, "status", "--porcelain") == ""


def test_purge_a_persons_name_right_to_erasure(ws: Workspace):
    ws.note(f"{NAME} prefers tabs over spaces", by=NAME)
    ws.note(f"database: SQLite, agreed with {NAME}", kind="decision", key="database")
    ws.note("the CI runs on every push", by="atlas")
    ws.promote()
    commits_before = int(git(ws.root, "rev-list", "--count", "HEAD"))
    result = purge(ws, NAME, by="dpo")
    assert_gone(ws.root, NAME)
    # every commit kept, plus the tombstone; the author name was erased too
    assert int(git(ws.root, "rev-list", "--count", "HEAD")) == commits_before + 1
    assert "[PURGED]" in git(ws.root, "log", "--format=%an")
    memory = (ws.root / "MEMORY.md").read_text()
    assert "[PURGED] prefers tabs over spaces" in memory
    assert (
        "the CI runs on every push"
        in (ws.root / "memory" / "2026-01-05.md").read_text()
    )
    # the tombstone: that, when and by whom; never what
    message = git(ws.root, "log", "-1", "--format=%B")
    n = len(result.commits)
    assert message.startswith(f"purge: erased 1 text from {n} commits\n")
    assert "Gardener-Action: purge\n" in message
    assert f"Gardener-Purge-Id: {result.purge_id}\n" in message
    assert "Gardener-Purged-By: dpo\n" in message
    assert "Gardener-Purged-At: 2026-01-05T09:00:00\n" in message
    assert git(ws.root, "log", "-1", "--format=%an").strip() == "dpo"
    shown = git(ws.root, "show", "HEAD")
    assert "Okonkwo" not in shown
    # remembered as a keyed hash: storing it again is refused
    salt, hashes = read_purged(ws.root)
    assert refused_by_purge(f"- 10:00 lunch with {NAME}", salt, hashes)
    assert refused_by_purge("MIRA   okonkwo-lindqvist called", salt, hashes)
    assert refused_by_purge(f"{NAME.upper()}", salt, hashes)
    assert not refused_by_purge("Mira prefers tabs", salt, hashes)
    assert NAME not in (ws.root / PURGED).read_text()
    assert "salt" in git(ws.root, "check-ignore", SALT)
    assert stat.S_IMODE(os.stat(ws.root / SALT).st_mode) == 0o600
    assert SALT not in git(ws.root, "ls-files")
    # the gardener goes on working on the rewritten workspace
    ws.note("nightly", kind="decision", key="ci schedule", by="atlas")
    assert ws.promote().commit is not None
    assert_gone(ws.root, NAME)


def test_text_not_found_does_nothing(ws: Workspace):
    ws.note("the deploy script lives in ops/deploy.sh")
    head = git(ws.root, "rev-parse", "HEAD")
    before = snapshot(ws.root)
    result = purge(ws, "nowhere-to-be-found")
    assert not result.found and result.commit is None
    assert result.lines() == [
        "not found in the work tree, any commit or the git folder: nothing to do"
    ]
    assert git(ws.root, "rev-parse", "HEAD") == head
    assert snapshot(ws.root) == before


@pytest.mark.parametrize("text", ["abc", "  ab  ", "", "a\n\t b"])
def test_short_text_is_refused_as_too_broad(ws: Workspace, text: str):
    with pytest.raises(UsageError, match="too broad") as caught:
        purge(ws, text)
    assert caught.value.exit_code == 2


def test_uncommitted_change_to_a_tracked_file_refuses(ws: Workspace):
    ws.note(f"{NAME} prefers tabs over spaces")
    attributes = ws.root / ".gitattributes"  # an edit, not lines appended
    attributes.write_text("*.bin binary\n" + attributes.read_text())
    head = git(ws.root, "rev-parse", "HEAD")
    with pytest.raises(
        GardenerError, match=r"uncommitted changes .*\.gitattributes.*git -C"
    ):
        purge(ws, NAME)
    assert git(ws.root, "rev-parse", "HEAD") == head
    assert "*.bin binary" in (ws.root / ".gitattributes").read_text()
    dry = purge(ws, NAME, dry_run=True)
    assert any("--yes would refuse now" in w for w in dry.warnings)


def test_the_gardeners_own_uncommitted_files_are_committed_first(ws: Workspace):
    ws.note("the CI runs on every push")
    ws.promote()
    ws.note("the CI also runs nightly")
    ws.promote()  # reviews chatter: .gardener/ledger changed, not committed
    note = ws.root / "memory" / "2026-01-05.md"
    with note.open("a") as out:  # an agent writes the file itself
        out.write(f"- 09:40 {NAME} joined the team\n")
    purge(ws, NAME)
    assert_gone(ws.root, NAME)
    assert "[PURGED] joined the team" in note.read_text()
    assert git(ws.root, "status", "--porcelain") == ""


def test_a_secret_only_in_quarantine_is_scrubbed_there(ws: Workspace):
    secret = "Sunflower-88-fake-pw"
    note = ws.root / "memory" / "2026-01-05.md"
    note.write_text(f"# 2026-01-05\n\n- 09:00 wifi password: {secret}\n")
    ws.promote()  # redacted before any commit, the original quarantined
    quarantine = ws.root / ".gardener" / "quarantine.jsonl"
    assert secret in quarantine.read_text()
    dry = purge(ws, secret, dry_run=True)
    assert [f.path for f in dry.files] == [".gardener/quarantine.jsonl"]
    assert dry.commits == ()
    result = purge(ws, secret)
    assert_gone(ws.root, secret)
    assert "[PURGED]" in quarantine.read_text()
    assert stat.S_IMODE(os.stat(quarantine).st_mode) == 0o600
    subject = git(ws.root, "log", "-1", "--format=%s").strip()
    assert subject == "purge: erased 1 text from 0 commits"
    assert result.commit is not None


def test_ignore_case_and_a_second_purge(ws: Workspace):
    ws.note(f"{NAME} prefers tabs; {NAME.lower()} said so twice")
    ws.note("Ravi Teja prefers spaces")
    purge(ws, NAME.upper(), ignore_case=True)
    assert_gone(ws.root, NAME)
    assert_gone(ws.root, NAME.lower())
    purge(ws, "Ravi Teja")  # filter-repo's state from the first run is gone
    assert_gone(ws.root, "Ravi Teja")
    salt, hashes = read_purged(ws.root)
    assert len(hashes) == 2
    assert refused_by_purge("ravi teja again", salt, hashes)
    assert refused_by_purge(NAME, salt, hashes)
    assert git(ws.root, "log", "--format=%s").count("purge: erased 1 text") == 2


@pytest.mark.parametrize("ignore_case", [False, True])
def test_a_commit_subject_that_cut_the_text_short_is_purged_too(
    ws: Workspace, ignore_case: bool
):
    """A note's commit subject is its text cut at 60 characters ("…"): the
    subject kept "Kari Nordma…" after a purge of "Kari Nordmann-Haugen", and
    purge said no commit held it."""
    ws.note("fact: the vendor contact for the Oslo office is Kari Nordmann-Haugen")
    cut = "Kari Nordma"
    assert f"{cut}…" in git(ws.root, "log", "--format=%s")
    assert purge(
        ws, "Kari Nordmann-Haugen", dry_run=True, ignore_case=ignore_case
    ).commits
    purge(ws, "Kari Nordmann-Haugen", ignore_case=ignore_case)
    assert "Kari Nordma" not in git(ws.root, "log", "--all", "--format=%B")
    assert_gone(ws.root, "Nordma")
    assert "Oslo office is [PURGED]" in git(ws.root, "log", "--format=%s")


@pytest.mark.parametrize("typed", ["Zebra  Piano  Lamp", "Zebra Piano Lamp"])
def test_purge_erases_the_text_whatever_its_spacing(ws: Workspace, typed: str):
    """(breaker) A subject squeezes "Zebra  Piano  Lamp" to one space each, so
    the purge of the text as stored left the subjects; purged as a person types
    it, with single spaces, it left the files and every blob. Both said done."""
    ws.note(
        "fact: the customer contact is Zebra  Piano  Lamp and she lives near the harbour"
    )
    ws.promote()
    purge(ws, typed)
    assert "Zebra" not in git(ws.root, "log", "--all", "-p", "--format=%B")
    assert_gone(ws.root, "Zebra")
    assert "Zebra" not in (ws.root / "memory" / "2026-01-05.md").read_text()


def test_a_purged_text_an_agent_writes_into_a_file_again_never_reaches_git(
    ws: Workspace,
):
    """Regression (new-user trial): after ``purge`` a ``note`` of the text was
    refused, but an agent appending it to the day's file itself got it
    committed by the next promote, the hook let a person commit it, and
    ``check`` said nothing (docs/design.md: a purged pattern is refused when it is
    ingested again)."""
    ws.note(f"{NAME} called about the contract", by="atlas")
    purge(ws, NAME, by="dpo")
    note = ws.root / "memory" / "2026-01-05.md"
    with note.open("a") as out:
        out.write(f"- 10:00 lunch with {NAME.upper()}, then  {NAME} again\n")
    problems = [p for p in ws.check() if p.kind == "secret"]
    assert [(p.path, p.line) for p in problems] == [("memory/2026-01-05.md", 4)]
    assert "purged" in problems[0].message and NAME not in problems[0].message
    # the gardener's next record replaces it; nothing is quarantined
    ws.now_override = "2026-01-05T11:00"
    result = ws.record()
    assert [(r.path, r.line, r.rule) for r in result.redacted] == [
        ("memory/2026-01-05.md", 4, "purged")
    ]
    assert note.read_text().endswith(
        "- 10:00 lunch with [PURGED], then  [PURGED] again\n"
    )
    assert "removed a purged text from memory/2026-01-05.md:4" in git(
        ws.root, "log", "-1", "--format=%B"
    )
    quarantine = ws.root / ".gardener" / "quarantine.jsonl"
    assert not quarantine.exists() or "Okonkwo" not in quarantine.read_text()
    assert_gone(ws.root, NAME)
    assert not [p for p in ws.check() if p.kind == "secret"]
    # a person's own commit of it: the hook refuses (git add wrote the blob
    # loose; refusing the commit keeps it out of history)
    with note.open("a") as out:
        out.write(f"- 12:00 {NAME} once more\n")
    assert (ws.root / ".git" / "hooks" / "pre-commit").is_file()
    git(ws.root, "add", "memory/2026-01-05.md")
    hooked = subprocess.run(
        ["git", "-C", str(ws.root), *PERSON, "commit", "-qm", "by hand"],
        capture_output=True,
        text=True,
    )
    assert hooked.returncode != 0 and "purged" in hooked.stdout + hooked.stderr


def test_a_retired_note_entry_stays_retired_after_a_purge_edits_it(ws: Workspace):
    """Regression (breaker): ``forget`` names a note entry by its words; a
    purge then changed those words, and the entry answered recall again
    (and promote filed a decision it held)."""
    ws.note(f"Carol moved to {NAME} Street 12", by="atlas")
    ws.note(f"decided: Carol's office is at {NAME} Street 12", kind="decision")
    ws.now_override = "2026-01-05T09:10"
    assert len(ws.forget("carol").plan.notes) == 2
    purge(ws, NAME, by="dpo")
    assert ws.recall("carol") == []
    assert ws.recall("carol", everything=True)[0].status == "retired"
    decisions = ws.promote().plan.decisions
    assert not [d for d in decisions if d.action in ("add", "supersede", "update")]
    assert git(ws.root, "status", "--porcelain") == ""
    assert ".gardener/retired" in git(ws.root, "show", "--stat", "HEAD~1", "HEAD")


def test_a_purged_text_in_a_new_notes_name_is_renamed_before_any_commit(
    ws: Workspace,
):
    """Regression (breaker): a note named with a purged text was committed
    under that name (file names were checked for never-store rules only)."""
    ws.note(f"{NAME} called", by="atlas")
    purge(ws, NAME, by="dpo")
    (ws.root / "memory" / f"2026-01-05-call with {NAME}.md").write_text("- hi\n")
    ws.now_override = "2026-01-05T10:00"
    ws.promote()
    names = git(ws.root, "ls-files", "memory")
    assert "memory/2026-01-05-call with purged.md" in names
    assert_gone(ws.root, NAME)


def test_a_purge_killed_half_way_keeps_the_text_out_and_says_to_run_it_again(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
):
    """Regression (breaker): a purge killed after it rewrote history but
    before it remembered the text let the next record commit the text again.
    The hash is now kept first (git-ignored ``purge-pending``). The kill is
    injected where the history rewrite starts."""
    ws.note(f"{NAME} called about the contract", by="atlas")
    purge_killed_at_the_rewrite(ws, monkeypatch)
    note = ws.root / "memory" / "2026-01-05.md"
    with note.open("a") as out:
        out.write(f"- 10:00 {NAME} again\n")
    ws.now_override = "2026-01-05T10:05"
    assert {r.rule for r in ws.record().redacted} == {"purged"}
    assert NAME not in git(ws.root, "show", "HEAD:memory/2026-01-05.md")
    assert NAME not in note.read_text()
    problems = [p for p in ws.check() if p.path == ".gardener/purge-pending"]
    assert problems and "run the same `gardener purge" in problems[0].message
    purge(ws, NAME, by="dpo")  # run again: it finishes
    assert not (ws.root / ".gardener" / "purge-pending").exists()
    assert_gone(ws.root, NAME)
    assert not [p for p in ws.check() if p.kind == "secret"]


def test_a_file_name_holding_a_purged_text_or_a_token_is_refused_by_the_hook(
    ws: Workspace,
):
    """Regression (breaker): a person's own commit of a note named with a
    purged text or a token went through; check said nothing."""
    ws.note(f"{NAME} called", by="atlas")
    purge(ws, NAME, by="dpo")
    for name in (f"2026-01-05-with {NAME}.md", f"2026-01-05-{TOKEN}.md"):
        path = ws.root / "memory" / name
        path.write_text("- hi\n")
        assert [p for p in ws.check() if p.path == f"memory/{name}"]
        git(ws.root, "add", "--", f"memory/{name}")
        hooked = subprocess.run(
            ["git", "-C", str(ws.root), *PERSON, "commit", "-qm", "by hand"],
            capture_output=True,
            text=True,
        )
        assert hooked.returncode != 0 and "file name" in hooked.stdout + hooked.stderr
        git(ws.root, "rm", "-q", "--cached", "--", f"memory/{name}")
        path.unlink()


def test_a_killed_purge_with_the_text_written_again_finishes_when_run_again(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
):
    """Regression (breaker): after a purge was killed half-way and an agent
    wrote the text again, every run of the purge failed ("kept taking
    secrets"); and until a purge finished, the salt was not git-ignored."""
    for n in range(3):
        ws.note(f"{NAME} call {n}", by="atlas")
    purge_killed_at_the_rewrite(ws, monkeypatch)
    for secret in (".gardener/salt", ".gardener/purge-pending"):
        assert secret in git(ws.root, "check-ignore", secret)  # `git add -A` skips it
    with (ws.root / "memory" / "2026-01-05.md").open("a") as out:
        out.write(f"- 11:00 again {NAME}\n")
    ws.now_override = "2026-01-05T11:05"
    ws.promote()
    purge(ws, NAME, by="dpo")
    assert not (ws.root / ".gardener" / "purge-pending").exists()
    assert_gone(ws.root, NAME)


@pytest.mark.parametrize("stage", ["before the tombstone", "after the tombstone"])
def test_a_purge_killed_after_its_rewrite_finishes_when_run_again(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch, stage: str
):
    """Regression (differential tester): killed after history was rewritten,
    a purge left ``purge-pending``; running it again found the text nowhere,
    said "nothing to do" and left the pending file, so check failed for good."""
    import gardener.store.purged

    ws.note(f"{NAME} called about the contract", by="atlas")
    if stage == "before the tombstone":
        target, name = gardener.store.purged, "remember"
    else:
        target, name = Path, "unlink"  # the pending file's unlink, after the commit
    real = getattr(target, name)

    def killed(*args: object, **kwargs: object) -> object:
        if name == "unlink" and not str(args[0]).endswith("purge-pending"):
            return real(*args, **kwargs)
        raise SystemExit(137)

    monkeypatch.setattr(target, name, killed)
    with pytest.raises(SystemExit):
        purge(ws, NAME, by="dpo")
    monkeypatch.undo()
    assert (ws.root / ".gardener" / "purge-pending").exists()
    assert [p for p in ws.check() if p.path == ".gardener/purge-pending"]
    tombstones = git(ws.root, "log", "--format=%s", "--grep=Gardener-Action: purge")
    again = ws.purge(NAME, by="dpo")
    assert not again.found and again.purge_id
    assert (again.commit is None) == (stage == "after the tombstone")
    assert not (ws.root / ".gardener" / "purge-pending").exists()
    assert not [p for p in ws.check() if p.kind == "secret"]
    after = git(ws.root, "log", "--format=%s", "--grep=Gardener-Action: purge")
    assert len(after.splitlines()) == 1  # one tombstone, whenever the kill came
    assert len(tombstones.splitlines()) == (stage == "after the tombstone")
    assert_gone(ws.root, NAME)
    assert "stopped half-way" in again.lines()[0]


def test_purge_push_rewrites_the_remote_with_a_lease(ws: Workspace):
    leak_by_hand(ws)
    remote = ws.root.parent / "remote.git"
    assert TOKEN in git(remote, "log", "--all", "-p")
    result = ws.purge(TOKEN, push=True)
    pushed = {(p.remote, p.ref): p.ok for p in result.pushed}
    assert pushed == {
        ("origin", "refs/heads/main"): True,
        ("origin", "refs/heads/wip"): True,
        ("origin", "refs/tags/v1"): True,
    }
    assert any("force-pushed to origin" in w for w in result.warnings)
    everything = subprocess.run(
        ["git", "-C", str(remote), "cat-file", "--batch-all-objects", "--batch"],
        capture_output=True, check=True,
    ).stdout  # fmt: skip
    assert TOKEN.encode() not in everything  # on this machine: pruned too
    assert git(remote, "rev-parse", "main") == git(ws.root, "rev-parse", "main")
    assert [p["ok"] for p in result.as_dict()["pushed"]] == [True, True, True]  # type: ignore[index,union-attr]


def test_entries_the_purge_edits_are_not_promoted_again(ws: Workspace):
    """The new user's case: after a person removed two filed entries from
    MEMORY.md, a purge of a name in them made promote file them again as
    "... [PURGED] ..." (their ledger marks are digests of their words)."""
    ws.note("fact: **customer contact**: Jonas Quibbleworth at Acme", time="09:00")
    ws.note("the staging box is staging.quibbleworth.example", time="09:05")
    ws.promote()
    memory = ws.memory_path.read_text()
    ws.memory_path.write_text(
        "".join(x for x in memory.splitlines(True) if "Quibbleworth" not in x)
    )
    ws.record()
    before = ws.memory_path.read_text()
    purge(ws, "Quibbleworth")
    result = ws.promote()
    assert result.commit is None and ws.memory_path.read_text() == before


def test_a_text_in_branch_and_tag_names_is_purged_there_too(ws: Workspace):
    """The guardrails issue: filter-repo crashed on a rewritten ref name
    (``v1-[PURGED]`` is no ref name) and the text stayed."""
    ws.note("lunch with Zorbalina", time="09:00")
    git(ws.root, "branch", "notes-Zorbalina")
    git(ws.root, "tag", "v1-Zorbalina")
    who = ["-c", "user.name=Tess", "-c", "user.email=tess@example.invalid"]
    git(ws.root, *who, "tag", "-a", "-m", "release for Zorbalina", "v2-Zorbalina")
    git(ws.root, "checkout", "-q", "-b", "Zorbalina-work")
    purge(ws, "Zorbalina")
    refs = git(ws.root, "for-each-ref", "--format=%(refname)").split()
    assert sorted(refs) == [
        "refs/heads/PURGED-work", "refs/heads/main", "refs/heads/notes-PURGED",
        "refs/tags/v1-PURGED", "refs/tags/v2-PURGED",
    ]  # fmt: skip
    assert git(ws.root, "symbolic-ref", "HEAD").strip() == "refs/heads/PURGED-work"
    assert assert_gone(ws.root, "Zorbalina") > 0
