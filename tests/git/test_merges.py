"""History reads for merges, and `git merge-file`."""

from __future__ import annotations

from gardener.git.mergefile import merge_file
from gardener.git.merges import (
    commits_since,
    head,
    merge_base,
    merges_touching,
    texts_at,
)
from gardener.git.repo import Repo
from tests.git.helpers import git


def commit(repo: Repo, text: str, message: str) -> str:
    (repo.root / "M.md").write_text(text)
    git(repo.root, "add", "M.md")
    git(repo.root, "commit", "-qm", message)
    return git(repo.root, "rev-parse", "HEAD").decode().strip()


def test_a_merge_that_took_one_side_is_listed_with_its_base(repo: Repo):
    assert head(repo) is None
    base = commit(repo, "a\n", "base")
    git(repo.root, "checkout", "-qb", "other")
    theirs = commit(repo, "a\nb\n", "theirs")
    git(repo.root, "checkout", "-q", "main")
    ours = commit(repo, "a\nc\n", "ours")
    git(repo.root, "merge", "-q", "-s", "ours", "--no-edit", "other")
    merge = head(repo)
    assert merge is not None
    assert merges_touching(repo, "M.md", 5) == [(merge, [ours, theirs])]
    assert merges_touching(repo, "M.md", 5, since=merge) == []
    assert merge_base(repo, [ours, theirs]) == base
    assert texts_at(repo, [theirs, base, merge], "M.md") == {
        theirs: "a\nb\n", base: "a\n", merge: "a\nc\n",
    }  # fmt: skip
    assert texts_at(repo, [base], "gone.md") == {base: None}
    later = commit(repo, "a\nc\nd\n", "later")
    assert commits_since(repo, merge, "M.md", 5) == [later]


def test_merge_file_merges_as_git_does():
    assert merge_file("a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n") == ("A\nb\nC\n", 0)
    text, conflicts = merge_file("a\n", "b\n", "c\n")
    assert conflicts == 1 and "<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n" in text
