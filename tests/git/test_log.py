"""History reads: the commits that add a text, a path's log, its first commit."""

from __future__ import annotations

from gardener.git.log import commits_adding, first_added, first_commit_time, log
from gardener.git.repo import Repo
from tests.git.helpers import write


def test_commits_adding_and_log(repo: Repo) -> None:
    write(repo, "MEMORY.md", "- **db**: Postgres {#m5e21}\n")
    c1 = repo.commit(["MEMORY.md"], "add m5e21\n\nbody")
    write(repo, "other.md", "{#m5e21} elsewhere\n")
    c2 = repo.commit(["other.md"], "other file")
    write(repo, "MEMORY.md", "- **db**: Postgres {#m5e21}\n- **x**: y {#m0001}\n")
    c3 = repo.commit(["MEMORY.md"], "unrelated line")
    write(repo, "MEMORY.md", "- **x**: y {#m0001}\n")
    c4 = repo.commit(["MEMORY.md"], "drop m5e21")

    found = commits_adding(repo, "{#m5e21", "MEMORY.md")
    assert [c.sha for c in found] == [c1, c4]
    assert found[0].subject == "add m5e21"
    assert found[0].author == "memory-gardener"
    assert found[0].time.tzinfo is not None
    assert commits_adding(repo, "{#nothing", "MEMORY.md") == []

    assert [c.sha for c in log(repo)] == [c4, c3, c2, c1]
    assert [c.sha for c in log(repo, "MEMORY.md")] == [c4, c3, c1]
    assert [c.sha for c in log(repo, "MEMORY.md", limit=2)] == [c4, c3]
    assert first_commit_time(repo, "MEMORY.md") == found[0].time
    assert first_commit_time(repo, "nope.md") is None


def test_first_added_names_each_note_and_the_verb_that_added_it(repo: Repo) -> None:
    assert first_added(repo, "memory") == {}
    write(repo, "memory/2026-01-05.md", "- one\n")
    repo.commit(["memory/2026-01-05.md"], "init: adopt\n\nGardener-Action: init\n")
    write(repo, "memory/2026-01-06 é.md", "- two\n")
    repo.commit(["memory/2026-01-06 é.md"], "by hand")
    write(repo, "memory/2026-01-05.md", "- one\n- more\n")
    repo.commit(["memory/2026-01-05.md"], "note: more\n\nGardener-Action: note\n")
    found = first_added(repo, "memory")
    assert {path: action for path, (_, action) in found.items()} == {
        "memory/2026-01-05.md": "init",
        "memory/2026-01-06 é.md": None,
    }
    assert found["memory/2026-01-05.md"][0] == first_commit_time(
        repo, "memory/2026-01-05.md"
    )
