"""Two or three clones of one memory, a bare remote, the real CLI and plain
`git pull`: the merge drivers `init` registers keep every machine's decisions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gardener.formats.memoryfile import parse_memory
from gardener.model.facts import Fact, normalize_key

PERSON = ["-c", "user.name=Person", "-c", "user.email=person@example.org"]


def sh(
    root: Path, *args: str, code: int | None = 0
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["git", "-C", str(root), *PERSON, *args], capture_output=True, text=True
    )
    if code is not None:
        assert done.returncode == code, done.stdout + done.stderr
    return done


def gardener(
    root: Path, *args: str, now: str = "2026-01-25T12:00", code: int = 0
) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"GARDENER_NOW": now}
    done = subprocess.run(
        [sys.executable, "-m", "gardener", "-w", str(root), *args],
        capture_output=True, text=True, env=env, cwd=root if root.exists() else None,
    )  # fmt: skip
    assert done.returncode == code, done.stdout + done.stderr
    return done


def decide(root: Path, key: str, value: str, when: str) -> None:
    day, _, time = when.partition("T")
    gardener(root, "note", "--kind", "decision", "--key", key, "--date", day,
             "--time", time, value, now=when)  # fmt: skip
    gardener(root, "promote", now=when)


def machines(tmp_path: Path, n: int = 2) -> tuple[Path, list[Path]]:
    """A bare remote and ``n`` clones of one workspace, each set up with init."""
    remote = tmp_path / "remote.git"
    first = tmp_path / "m0"
    gardener(first, "init", str(first), now="2026-01-01T09:00")
    subprocess.run(
        ["git", "init", "-q", "--bare", "--initial-branch=main", str(remote)],
        check=True,
    )
    sh(first, "remote", "add", "origin", str(remote))
    sh(first, "push", "-q", "-u", "origin", "main")
    clones = [first]
    for i in range(1, n):
        clone = tmp_path / f"m{i}"
        subprocess.run(["git", "clone", "-q", str(remote), str(clone)], check=True)
        gardener(clone, "init", str(clone))
        clones.append(clone)
    for clone in clones:
        sh(clone, "branch", "-q", "--set-upstream-to=origin/main", "main")
    return remote, clones


def facts(root: Path, key: str) -> list[Fact]:
    memory = parse_memory((root / "MEMORY.md").read_text(encoding="utf-8"))
    return [f for f in memory.facts if f.key and normalize_key(f.key) == key]


def timeline(root: Path, key: str) -> list[tuple[str, str | None, str | None, bool]]:
    """(value, since, until, current) of ``key``'s values, by valid time."""
    found = sorted(facts(root, key), key=lambda f: f.since or "")
    return [(f.value, f.since, f.until, not f.superseded) for f in found]


def pull(root: Path) -> subprocess.CompletedProcess[str]:
    return sh(root, "pull", "-q", "--no-rebase", "--no-edit", code=None)


EXPECTED = [
    ("Postgres", "2026-01-12T10:15", "2026-01-16T16:40", False),
    ("SQLite", "2026-01-16T16:40", "2026-01-20T09:00", False),
    ("MySQL", "2026-01-20T09:00", None, True),
]


@pytest.mark.parametrize("first", [0, 1])
def test_two_machines_promote_one_key_and_merge_in_either_order(
    tmp_path: Path, first: int
):
    _, (a, b) = machines(tmp_path)
    decide(a, "database", "Postgres", "2026-01-12T10:15")
    sh(a, "push", "-q")
    assert pull(b).returncode == 0
    # both machines file a new value of the key, and facts of their own
    decide(a, "database", "SQLite", "2026-01-16T16:40")
    decide(a, "editor", "vim", "2026-01-16T17:00")
    decide(b, "database", "MySQL", "2026-01-20T09:00")
    decide(b, "theme", "dark", "2026-01-20T09:30")
    one, other = (a, b) if first == 0 else (b, a)
    sh(one, "push", "-q")
    merged = pull(other)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert timeline(other, "database") == EXPECTED
    assert [f.value for f in facts(other, "editor")] == ["vim"]
    assert [f.value for f in facts(other, "theme")] == ["dark"]
    ids = [f.id for f in parse_memory((other / "MEMORY.md").read_text()).facts]
    assert len(ids) == len(set(ids))
    assert "no problems" in gardener(other, "check").stdout
    # the merged memory travels back; the first machine fast-forwards to it
    sh(other, "push", "-q")
    assert pull(one).returncode == 0
    assert timeline(one, "database") == EXPECTED
    # a later pass on the merged memory changes nothing of it
    before = (one / "MEMORY.md").read_text()
    gardener(one, "promote")
    assert (one / "MEMORY.md").read_text() == before
    assert "no problems" in gardener(one, "check").stdout


def test_three_machines_keep_every_decision(tmp_path: Path):
    _, (a, b, c) = machines(tmp_path, 3)
    decide(a, "database", "Postgres", "2026-01-12T10:15")
    decide(b, "database", "SQLite", "2026-01-16T16:40")
    decide(c, "database", "MySQL", "2026-01-20T09:00")
    for machine in (c, a, b):
        assert pull(machine).returncode == 0
        sh(machine, "push", "-q")
    assert pull(c).returncode == 0 and pull(a).returncode == 0
    for machine in (a, b, c):
        assert timeline(machine, "database") == EXPECTED
        assert "no problems" in gardener(machine, "check").stdout


def test_one_entry_edited_differently_on_both_sides_is_a_conflict(tmp_path: Path):
    _, (a, b) = machines(tmp_path)
    decide(a, "editor", "vim", "2026-01-12T10:15")
    decide(a, "shell", "zsh", "2026-01-12T10:20")
    sh(a, "push", "-q")
    assert pull(b).returncode == 0
    for root, value in ((a, "neovim"), (b, "helix")):
        path = root / "MEMORY.md"
        path.write_text(path.read_text().replace("vim", value))
        gardener(root, "promote")  # records the hand edit
    decide(b, "theme", "dark", "2026-01-20T09:30")
    sh(a, "push", "-q")
    merged = pull(b)
    assert merged.returncode != 0
    assert "changed differently on both sides" in merged.stderr + merged.stdout
    text = (b / "MEMORY.md").read_text()
    lines = text.splitlines()
    start, mid, end = (
        lines.index(m) for m in ("<<<<<<< ours", "=======", ">>>>>>> theirs")
    )
    assert start < mid < end and end - start == 4  # only around that entry
    assert "helix" in lines[start + 1] and "neovim" in lines[mid + 1]
    assert "**shell**: zsh" in text and "**theme**: dark" in text
    assert "U" in sh(b, "status", "--porcelain", "MEMORY.md").stdout[:2]


def test_text_outside_the_block_merges_as_git_merges(tmp_path: Path):
    _, (a, b) = machines(tmp_path)
    for root, line, when in ((a, "Notes from the laptop.", "2026-01-12T10:15"),
                             (b, "Notes from the desktop.", "2026-01-13T10:15")):  # fmt: skip
        path = root / "MEMORY.md"
        path.write_text(path.read_text() + "\n" + line + "\n")
        decide(root, "editor" if root == a else "shell", "x", when)
    sh(a, "push", "-q")
    merged = pull(b)
    assert merged.returncode != 0  # both appended at the same place: a real conflict
    text = (b / "MEMORY.md").read_text()
    assert "Notes from the laptop." in text and "Notes from the desktop." in text
    block = text[text.index("gardener:begin") : text.index("gardener:end")]
    assert "<<<<<<<" not in block and "**editor**" in block and "**shell**" in block


def test_a_fresh_clone_says_it_is_not_set_up(tmp_path: Path):
    remote, (a,) = machines(tmp_path, 1)
    clone = tmp_path / "fresh"
    subprocess.run(["git", "clone", "-q", str(remote), str(clone)], check=True)
    said = gardener(clone, "note", "the cat is Miso").stderr
    assert said.count("\n") == 1 and "gardener init ." in said
    assert "pre-commit hook" in said and "merge drivers" in said
    assert "gardener init ." in gardener(clone, "check").stderr
    gardener(clone, "init", str(clone))
    assert gardener(clone, "note", "the dog is Rex").stderr == ""
    attributes = (clone / ".gitattributes").read_text()
    gardener(clone, "init", str(clone))
    assert (clone / ".gitattributes").read_text() == attributes
    assert attributes.count("merge=gardener-memory") == 1
    config = sh(clone, "config", "--get-all", "merge.gardener-memory.driver").stdout
    assert config.count("merge-memory") == 1


@pytest.mark.parametrize("side", ["HEAD", "MERGE_HEAD"])
def test_a_merge_that_took_one_side_of_memory_is_reported_and_repaired(
    tmp_path: Path, side: str
):
    _, (a, b) = machines(tmp_path)
    decide(a, "database", "Postgres", "2026-01-12T10:15")
    sh(a, "push", "-q")
    assert pull(b).returncode == 0
    decide(a, "database", "SQLite", "2026-01-16T16:40")
    decide(a, "editor", "vim", "2026-01-16T17:00")
    decide(b, "database", "MySQL", "2026-01-20T09:00")
    decide(b, "theme", "dark", "2026-01-20T09:30")
    sh(a, "push", "-q")
    # what most people do with a conflict: take one side of MEMORY.md whole
    sh(b, "pull", "-q", "--no-rebase", "--no-commit")
    sh(b, "checkout", side, "--", "MEMORY.md")
    sh(b, "commit", "-q", "--no-edit")
    said = gardener(b, "check", code=4).stdout
    dropped = ["SQLite", "editor"] if side == "HEAD" else ["MySQL", "theme"]
    for label in dropped:
        assert label in said and "gardener promote" in said
    done = gardener(b, "promote")
    assert "filed again" in done.stdout + done.stderr
    assert timeline(b, "database") == EXPECTED
    assert facts(b, "editor") and facts(b, "theme")
    assert "no problems" in gardener(b, "check").stdout
    # a person who then deletes a restored entry by hand is not overruled
    path = b / "MEMORY.md"
    path.write_text(
        "".join(x for x in path.read_text().splitlines(True) if "theme" not in x)
    )
    gardener(b, "promote")
    assert not facts(b, "theme")
    assert "no problems" in gardener(b, "check").stdout


def test_both_machines_writing_one_days_note_merge_without_a_conflict(tmp_path: Path):
    _, (a, b) = machines(tmp_path)
    decide(a, "database", "Postgres", "2026-01-12T09:00")
    decide(b, "database", "SQLite", "2026-01-12T11:00")
    decide(a, "editor", "vim", "2026-01-12T12:00")
    sh(a, "push", "-q")
    merged = pull(b)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    note = (b / "memory" / "2026-01-12.md").read_text()
    assert "Postgres" in note and "SQLite" in note and "vim" in note
    assert timeline(b, "database") == [
        ("Postgres", "2026-01-12T09:00", "2026-01-12T11:00", False),
        ("SQLite", "2026-01-12T11:00", None, True),
    ]
    before = (b / "MEMORY.md").read_text()
    gardener(b, "promote")
    assert (b / "MEMORY.md").read_text() == before
    assert "no problems" in gardener(b, "check").stdout


def test_an_untimed_line_keeps_its_time_through_a_union_merge(tmp_path: Path):
    # b writes an untimed line under a's 09:00 entry (it inherits 09:00 there);
    # a writes 11:00 meanwhile; the union merge at a puts b's line below a's
    # 11:00 entry, where it used to take 11:00 and beat MySQL
    _, (a, b) = machines(tmp_path)
    gardener(a, "note", "decision: **database**: Postgres", now="2026-01-12T09:00")
    sh(a, "push", "-q")
    assert pull(b).returncode == 0
    with (b / "memory" / "2026-01-12.md").open("a") as note:
        note.write("- decision: **database**: SQLite\n")
    gardener(b, "record", now="2026-01-12T10:00")
    recorded = (b / ".gardener" / "times.d" / "2026-01").read_text()
    assert recorded.endswith("\t2026-01-12T09:00\n") and "SQLite" not in recorded
    sh(b, "push", "-q")
    gardener(a, "note", "decision: **database**: MySQL", now="2026-01-12T11:00")
    merged = pull(a)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    lines = (a / "memory" / "2026-01-12.md").read_text().splitlines()
    assert lines.index("- decision: **database**: SQLite") > lines.index(
        "- 11:00 decision: **database**: MySQL"
    )  # the order that misled promote
    gardener(a, "promote", now="2026-01-12T11:30")
    assert [(v, s, c) for v, s, _, c in timeline(a, "database")] == [
        ("Postgres", "2026-01-12T09:00", False),
        ("SQLite", "2026-01-12T09:00", False),
        ("MySQL", "2026-01-12T11:00", True),
    ]
    assert "no problems" in gardener(a, "check", now="2026-01-12T11:31").stdout


def test_times_of_both_machines_merge_as_sets(tmp_path: Path):
    _, (a, b) = machines(tmp_path)
    for root, value, now in (
        (a, "vim", "2026-01-12T09:00"),
        (b, "helix", "2026-01-12T09:30"),
    ):
        with (root / "memory" / "2026-01-12.md").open("a") as note:
            note.write(f"- we use {value} for editing\n")
        gardener(root, "record", now=now)
    sh(a, "push", "-q")
    merged = pull(b)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert "CONFLICT" not in merged.stdout
    times = (b / ".gardener" / "times.d" / "2026-01").read_text().splitlines()
    assert len(times) == 2 and times == sorted(times)


def test_prune_drops_the_recorded_times_of_the_notes_it_deletes(tmp_path: Path):
    root = tmp_path / "ws"
    gardener(root, "init", str(root), now="2026-01-01T08:00")
    gardener(root, "note", "decision: **database**: Postgres", now="2026-01-01T09:00")
    with (root / "memory" / "2026-01-01.md").open("a") as note:
        note.write("- decision: **editor**: vim\n")
    gardener(root, "promote", now="2026-01-01T10:00")
    times = root / ".gardener" / "times.d" / "2026-01"
    assert times.read_text().endswith("\t2026-01-01T09:00\n")
    gardener(root, "prune", now="2026-03-15T10:00")
    assert not times.exists()
    assert sh(root, "status", "--porcelain").stdout == ""


def test_a_purge_renames_the_recorded_times_it_changes(tmp_path: Path):
    from datetime import date

    from gardener.formats.dailynote import parse_note
    from gardener.model.marks import entry_marks

    root = tmp_path / "ws"
    gardener(root, "init", str(root), now="2026-01-12T08:00")
    gardener(root, "note", "decision: **database**: Postgres", now="2026-01-12T09:00")
    path = root / "memory" / "2026-01-12.md"
    with path.open("a") as note:
        note.write("- lunch with Mira Okonkwo-Lindqvist about SQLite\n")
    gardener(root, "record", now="2026-01-12T10:00")
    gardener(root, "purge", "Mira Okonkwo-Lindqvist", "--yes", now="2026-01-12T11:00")
    text = path.read_text()
    assert "[PURGED]" in text
    mark = entry_marks(parse_note("memory/2026-01-12.md", date(2026, 1, 12), text))[1]
    times = (root / ".gardener" / "times.d" / "2026-01").read_text()
    assert times == f"{mark}\t2026-01-12T09:00\n"


def test_one_days_note_with_front_matter_on_both_machines_keeps_one(tmp_path: Path):
    """New user (two machines): both wrote the same day's note opening with
    front matter; the union interleaved the two blocks, one side's "agent:"
    line landed after the other's entry, and was promoted as part of it."""
    _, (a, b) = machines(tmp_path)
    for root, agent, line in (
        (a, "atlas", "- 09:00 decision: **cache**: Redis"),
        (b, "hermes", "- 13:00 decision: **Python version**: 3.12"),
    ):
        note = root / "memory" / "2026-01-12.md"
        note.write_text(f"---\nagent: {agent}\n---\n# 2026-01-12\n\n{line}\n")
        gardener(root, "promote", now="2026-01-12T18:00")
    sh(a, "push", "-q")
    merged = pull(b)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    text = (b / "memory" / "2026-01-12.md").read_text()
    assert text.startswith("---\nagent: hermes\n---\n")  # ours: one front matter
    assert text.count("---") == 2 and "agent: atlas" not in text
    assert "**cache**: Redis" in text and "**Python version**: 3.12" in text
    gardener(b, "promote", now="2026-01-12T19:00")
    memory = (b / "MEMORY.md").read_text()
    assert ": 3.12 {#" in memory and "agent:" not in memory
    assert "no problems" in gardener(b, "check", now="2026-01-12T19:00").stdout
