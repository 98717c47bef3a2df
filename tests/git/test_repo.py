"""gardener.git.repo: opening, commits of explicit paths, reads of HEAD and the status;
real repositories in tmp_path, no identity configured."""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Literal

import pytest

from gardener.errors import GardenerError, NotAWorkspaceError
from gardener.git.identity import identity_for
from gardener.git.log import first_commit_time, log
from gardener.git.repo import Repo
from tests.git.helpers import fmt, git, head_files, write

# -- open / init ---------------------------------------------------------------


def test_init_makes_main_and_open_finds_it(tmp_path: Path) -> None:
    root = tmp_path / "new" / "ws"
    with Repo.init(root) as r:
        assert r.root == root
        assert not r.has_commits()
        assert log(r) == []
    head = (root / ".git" / "HEAD").read_text()
    assert head == "ref: refs/heads/main\n"
    with Repo.init(root) as again:  # already a repository: just opened
        assert again.root == root
    with Repo.open(root) as opened:
        assert opened.root == root


def test_open_refuses_non_workspaces(tmp_path: Path, repo: Repo) -> None:
    with pytest.raises(NotAWorkspaceError, match="gardener init"):
        Repo.open(tmp_path / "plain")
    (repo.root / "sub").mkdir()
    with pytest.raises(NotAWorkspaceError):
        Repo.open(repo.root / "sub")  # inside a work tree, not its top
    subprocess.run(["git", "init", "-q", "--bare", str(tmp_path / "bare")], check=True)
    with pytest.raises(NotAWorkspaceError):
        Repo.open(tmp_path / "bare")


def test_import_is_cheap() -> None:
    code = "import sys, gardener.git.repo; print('git' in sys.modules)"
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(root)},
    )
    assert out.stdout.strip() == "False"


# -- commit ------------------------------------------------------------------


def test_commit_without_identity_configured(repo: Repo) -> None:
    write(repo, "MEMORY.md", "# Memory\n")
    sha = repo.commit(["MEMORY.md"], "init: memory\n\nGardener-Action: init\n")
    assert sha is not None and len(sha) == 40
    assert fmt(repo, "%H") == sha
    assert fmt(repo, "%an <%ae>|%cn <%ce>") == (
        "memory-gardener <gardener@memory-gardener.invalid>|"
        "memory-gardener <gardener@memory-gardener.invalid>"
    )


def test_author_is_agent_committer_is_gardener(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Leaked From Env")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "leak@example.org")
    write(repo, "memory/2026-01-01.md", "- hi\n")
    repo.commit(["memory/2026-01-01.md"], "note", identity_for("main"))
    assert fmt(repo, "%an <%ae>") == "main <main@agents.memory-gardener.invalid>"
    assert (
        fmt(repo, "%cn <%ce>") == "memory-gardener <gardener@memory-gardener.invalid>"
    )


def test_commit_date(repo: Repo) -> None:
    when = datetime(2026, 3, 1, 9, 30, tzinfo=timezone(timedelta(hours=1)))
    write(repo, "a.md", "a\n")
    repo.commit(["a.md"], "a", date=when)
    assert fmt(repo, "%aI|%cI") == "2026-03-01T09:30:00+01:00|2026-03-01T09:30:00+01:00"
    assert first_commit_time(repo, "a.md") == datetime(2026, 3, 1, 8, 30, tzinfo=UTC)


def test_message_is_byte_exact(repo: Repo) -> None:
    message = (
        "promote: 2 added  \n\n# not a comment\n  indented body\t\n\n"
        "Gardener-Action: promote\nGardener-Keys: database, name\n"
    )
    write(repo, "MEMORY.md", "x\n")
    sha = repo.commit(["MEMORY.md"], message)
    assert sha is not None
    raw = git(repo.root, "cat-file", "commit", sha)
    assert raw.split(b"\n\n", 1)[1] == message.encode()
    assert log(repo)[0].subject == "promote: 2 added"  # git's %s trims the end


def test_commit_only_named_paths(repo: Repo) -> None:
    write(repo, "MEMORY.md", "v1\n")
    write(repo, "user.md", "u1\n")
    write(repo, "draft.md", "d1\n")
    git(repo.root, "add", "user.md", "draft.md")
    git(repo.root, "commit", "-q", "-m", "user setup")
    # The user stages one change, leaves another unstaged, adds an untracked file.
    write(repo, "user.md", "u2 staged\n")
    git(repo.root, "add", "user.md")
    write(repo, "draft.md", "d2 unstaged\n")
    write(repo, "untracked.md", "t\n")

    sha = repo.commit(["MEMORY.md"], "gardener: memory")
    assert sha is not None
    names = git(repo.root, "show", "--name-only", "--format=", sha).decode().split()
    assert names == ["MEMORY.md"]
    assert git(repo.root, "show", "HEAD:user.md") == b"u1\n"
    # The user's work is as it was: still staged, still unstaged, still untracked.
    staged = git(repo.root, "diff", "--cached", "--name-only").decode().split()
    assert staged == ["user.md"]
    assert git(repo.root, "diff", "--name-only").decode().split() == ["draft.md"]
    assert repo.changed(["untracked.md"]) == ["untracked.md"]
    assert (repo.root / "user.md").read_text() == "u2 staged\n"


def test_no_empty_commit(repo: Repo) -> None:
    assert repo.commit(["MEMORY.md"], "nothing there yet") is None
    write(repo, "MEMORY.md", "v1\n")
    first = repo.commit(["MEMORY.md"], "v1")
    assert first is not None
    assert repo.commit(["MEMORY.md"], "again") is None
    assert repo.commit([], "no paths") is None
    assert fmt(repo, "%H") == first
    assert len(log(repo)) == 1


@pytest.mark.parametrize("packed", [False, True])
def test_commits_follow_a_loose_or_packed_branch_ref(repo: Repo, packed: bool) -> None:
    write(repo, "MEMORY.md", "v1\n")
    first = repo.commit(["MEMORY.md"], "v1")
    if packed:  # no loose ref file left: HEAD is read through git
        subprocess.run(["git", "-C", str(repo.root), "pack-refs", "--all"], check=True)
        assert not any((repo.root / ".git" / "refs" / "heads").iterdir())
    with Repo.open(repo.root) as again:
        assert again.has_commits()
        write(repo, "MEMORY.md", "v2\n")
        second = again.commit(["MEMORY.md"], "v2")
    assert second is not None and second != first
    assert fmt(repo, "%H") == second
    assert fmt(repo, "%P") == first


@pytest.mark.parametrize("unstaged", [False, True])
def test_a_tracked_file_is_committed_without_add(repo: Repo, unstaged: bool) -> None:
    write(repo, "memory/2026-01-05.md", "- one\n")
    repo.commit(["memory/2026-01-05.md"], "one")
    assert repo.committed_text("memory/2026-01-05.md") == "- one\n"
    write(repo, "memory/2026-01-05.md", "- one\n- two\n")
    if unstaged:  # someone took it out of the index meanwhile
        git(repo.root, "rm", "--cached", "--quiet", "memory/2026-01-05.md")
    assert repo.commit(["memory/2026-01-05.md"], "two") is not None
    shown = git(repo.root, "show", "HEAD:memory/2026-01-05.md")
    assert shown == b"- one\n- two\n"
    assert git(repo.root, "status", "--porcelain") == b""


def test_no_commit_when_staged_change_was_reverted(repo: Repo) -> None:
    write(repo, "MEMORY.md", "v1\n")
    repo.commit(["MEMORY.md"], "v1")
    write(repo, "MEMORY.md", "v2\n")
    git(repo.root, "add", "MEMORY.md")
    write(repo, "MEMORY.md", "v1\n")  # the file on disk is back to HEAD
    assert repo.commit(["MEMORY.md"], "noop") is None


def test_deleted_paths_are_committed(repo: Repo) -> None:
    for name in ["a.md", "b.md", "memory/2026-01-01.md", "keep.md"]:
        write(repo, name, f"{name}\n")
    repo.commit(["a.md", "b.md", "memory", "keep.md"], "add")
    assert head_files(repo) == [b"a.md", b"b.md", b"keep.md", b"memory/2026-01-01.md"]
    (repo.root / "a.md").unlink()
    git(repo.root, "rm", "-q", "b.md")  # a deletion the user already staged
    (repo.root / "memory" / "2026-01-01.md").unlink()
    sha = repo.commit(["a.md", "b.md", "memory/2026-01-01.md"], "prune")
    assert sha is not None
    assert head_files(repo) == [b"keep.md"]
    assert repo.changed(["a.md", "b.md", "memory"]) == []


def test_folder_path_and_ignored_files(repo: Repo) -> None:
    write(repo, ".gitignore", "*.tmp\nprivate/\n")
    write(repo, "memory/2026-01-01.md", "- a\n")
    write(repo, "memory/scratch.tmp", "x\n")
    write(repo, "private/2026-01-01.md", "p\n")
    assert repo.commit(["memory", "private/2026-01-01.md"], "notes") is not None
    assert head_files(repo) == [b"memory/2026-01-01.md"]
    assert repo.commit(["private"], "ignored only") is None


def test_first_commit_on_unborn_branch_keeps_other_staged(repo: Repo) -> None:
    write(repo, "user.md", "u\n")
    git(repo.root, "add", "user.md")
    write(repo, "MEMORY.md", "m\n")
    assert repo.commit(["MEMORY.md"], "first") is not None
    assert head_files(repo) == [b"MEMORY.md"]
    assert git(repo.root, "diff", "--cached", "--name-only").decode().split() == [
        "user.md"
    ]


@pytest.mark.parametrize("form", ["NFC", "NFD"])
def test_non_ascii_names_keep_their_bytes(
    repo: Repo, form: Literal["NFC", "NFD"]
) -> None:
    name = unicodedata.normalize(form, "memory/2026-01-01-café-東京.md")
    other = unicodedata.normalize("NFD" if form == "NFC" else "NFC", name)
    assert name.encode() != other.encode()
    write(repo, name, "- é\n")
    write(repo, other, "- the other form\n")
    assert repo.commit([name], f"add {form}") is not None
    assert head_files(repo) == [name.encode()]
    assert repo.committed_text(name) == "- é\n"
    assert repo.committed_text(other) is None
    assert repo.changed(["memory"]) == [other]
    (repo.root / name).unlink()
    assert repo.commit([name], "remove") is not None
    assert head_files(repo) == []


def test_special_characters_are_literal(repo: Repo) -> None:
    write(repo, "memory/2026-01-01-[x]*.md", "- star\n")
    write(repo, "memory/2026-01-01-xy.md", "- plain\n")
    repo.commit(["memory/2026-01-01-[x]*.md"], "literal")
    assert head_files(repo) == [b"memory/2026-01-01-[x]*.md"]


def test_bad_paths_are_refused(repo: Repo) -> None:
    for bad in ["../x.md", "/etc/passwd", "", "."]:
        with pytest.raises(GardenerError):
            repo.commit([bad], "bad")
    with pytest.raises(TypeError):
        repo.commit("MEMORY.md", "a str is not a list")


# -- reads -------------------------------------------------------------------


def test_committed_text(repo: Repo) -> None:
    assert repo.committed_text("MEMORY.md") is None  # no commits yet
    raw = b"\xef\xbb\xbf# Memory\r\n- bad byte \xff\r\nno final newline"
    (repo.root / "MEMORY.md").write_bytes(raw)
    write(repo, "memory/2026-01-01.md", "- a\n")
    repo.commit(["MEMORY.md", "memory"], "m")
    text = repo.committed_text("MEMORY.md")
    assert text is not None and text.encode("utf-8", "surrogateescape") == raw
    (repo.root / "MEMORY.md").write_bytes(b"changed on disk\n")
    assert repo.committed_text("MEMORY.md") == raw.decode("utf-8", "surrogateescape")
    assert repo.committed_text("memory/2026-01-01.md") == "- a\n"
    assert repo.committed_text("memory") is None  # a folder
    assert repo.committed_text("nope.md") is None


def test_committed_texts_in_one_batch_agree_with_one_by_one(repo: Repo) -> None:
    names = ["MEMORY.md", "memory/2026-01-01.md", "memory/a b ü.md", "memory/x\ny.md"]
    assert repo.committed_texts(names) == dict.fromkeys(names)  # no commits yet
    (repo.root / "MEMORY.md").write_bytes(b"# Memory\r\n- bad byte \xff\n")
    write(repo, "memory/2026-01-01.md", "- a\n")
    write(repo, "memory/a b ü.md", "")
    write(repo, "memory/x\ny.md", "- newline in the name\n")
    repo.commit(["MEMORY.md", "memory"], "m")
    asked = [*names, "memory", "nope.md"]
    assert repo.committed_texts(asked) == {n: repo.committed_text(n) for n in asked}
    assert repo.committed_texts(["memory/a b ü.md"]) == {"memory/a b ü.md": ""}


def test_changed(repo: Repo) -> None:
    write(repo, ".gitignore", "*.tmp\n")
    for name in [
        "MEMORY.md",
        "rules.md",
        "memory/2026-01-01.md",
        "memory/2026-01-02.md",
    ]:
        write(repo, name, "v1\n")
    repo.commit([".gitignore", "MEMORY.md", "rules.md", "memory"], "setup")
    owned = ["MEMORY.md", "rules.md", "memory"]
    assert repo.changed(owned) == []
    write(repo, "MEMORY.md", "hand edit\n")
    write(repo, "memory/2026-01-02.md", "v2\n")
    write(repo, "memory/2026-01-03.md", "new\n")
    write(repo, "memory/archive/old.md", "new\n")
    write(repo, "memory/x.tmp", "ignored\n")
    write(repo, "elsewhere.md", "not asked about\n")
    (repo.root / "memory" / "2026-01-01.md").unlink()
    assert repo.changed(owned) == [
        "MEMORY.md",
        "memory/2026-01-01.md",
        "memory/2026-01-02.md",
        "memory/2026-01-03.md",
        "memory/archive/old.md",
    ]
    assert repo.changed(["rules.md"]) == []
    assert repo.changed([]) == []


@pytest.mark.parametrize("maintain", [True, False])
def test_maintain_false_skips_gits_housekeeping_check(
    repo: Repo, maintain: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    write(repo, "MEMORY.md", "v1\n")
    assert repo.commit(["MEMORY.md"], "v1", maintain=maintain)
    ran = "maintenance run --auto" in trace.read_text()
    assert ran == maintain


# -- which commits add first ------------------------------------------------------


@pytest.mark.parametrize("hint", ["marked", "unknown", "status"])
def test_a_new_file_is_committed_however_its_newness_is_known(repo: Repo, hint: str):
    """A tracked file is committed by ``commit --only`` alone; a new one must be
    added first: known from ``mark_new``, from ``changed`` (``??``), or found
    when git refuses the short way."""
    write(repo, "a.md", "a\n")
    repo.commit(["a.md"], "first")
    write(repo, "b.md", "staged by a person\n")
    git(repo.root, "add", "b.md")  # stays out of the gardener's commits
    write(repo, "new.md", "new\n")
    if hint == "marked":
        repo.mark_new(["new.md"])
    elif hint == "status":
        assert "new.md" in repo.changed(["new.md"])
    write(repo, "a.md", "a\nmore\n")
    assert repo.commit(["new.md", "a.md"], "second") is not None
    assert head_files(repo) == [b"a.md", b"new.md"]
    assert git(repo.root, "diff", "--cached", "--name-only") == b"b.md\n"
    write(repo, "new.md", "new\nagain\n")  # tracked now, whatever it was marked
    assert repo.commit(["new.md"], "third") is not None
    assert git(repo.root, "show", "HEAD:new.md") == b"new\nagain\n"


@pytest.mark.parametrize("flag", ["--skip-worktree", "--assume-unchanged"])
def test_a_flagged_file_never_leaves_a_commit_silently(repo: Repo, flag: str):
    """(breaker) With skip-worktree on MEMORY.md, promote's commit of MEMORY.md
    and a ledger month succeeded without MEMORY.md: commit --only took it as
    unchanged. It must be in the commit, or the commit must fail."""
    write(repo, "a.md", "a\n")
    write(repo, "b.md", "b\n")
    repo.commit(["a.md", "b.md"], "first")
    git(repo.root, "update-index", flag, "a.md")
    write(repo, "a.md", "a\nmore\n")
    write(repo, "b.md", "b\nmore\n")
    try:
        repo.commit(
            ["a.md", "b.md"], "second", texts={"a.md": "a\nmore\n", "b.md": "b\nmore\n"}
        )
    except GardenerError:
        return  # refused, loudly: fine
    assert git(repo.root, "show", "HEAD:a.md") == b"a\nmore\n"


def test_a_nul_in_a_message_is_committed_as_its_sign(repo: Repo) -> None:
    """Regression (breaker): a note line holding a NUL gave promote a message
    git refuses, so every pass failed and left MEMORY.md staged."""
    write(repo, "MEMORY.md", "# Memory\n")
    sha = repo.commit(["MEMORY.md"], "promote: add \x00Null\n")
    assert sha is not None
    assert fmt(repo, "%s") == "promote: add \u2400Null"
