"""The recall index in .git/gardener/: refreshed by file, rebuilt at will, never stale."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
from pathlib import Path

from gardener import Workspace
from gardener.planning.purge import REPLACEMENT
from tests.helpers import new_workspace

INDEX = Path(".git/gardener/recall.sqlite3")


def texts(ws: Workspace, query: str, **options: object) -> list[str]:
    return [h.value for h in ws.recall(query, **options)]  # type: ignore[arg-type]


def test_recall_builds_the_index_and_answers_from_it(ws: Workspace):
    ws.note("the deploy window is Tuesday morning")
    assert texts(ws, "deploy") == ["the deploy window is Tuesday morning"]
    assert (ws.root / INDEX).exists()
    # a second recall answers the same from the stored rows
    assert texts(ws, "deploy") == ["the deploy window is Tuesday morning"]


def test_a_note_changed_behind_the_index_is_read_again(ws: Workspace):
    ws.note("the cat is called Miso")
    assert texts(ws, "cat") == ["the cat is called Miso"]
    note = ws.root / "memory" / "2026-01-05.md"
    before = note.stat()
    # same size, same mtime: only ctime and the bytes tell
    note.write_text(note.read_text().replace("Miso", "Yuzu"))
    os.utime(note, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert note.stat().st_size == before.st_size
    assert texts(ws, "cat") == ["the cat is called Yuzu"]


def test_a_pruned_note_leaves_the_index(ws: Workspace):
    ws.note("the office plant needs water", day="2026-01-01")
    assert texts(ws, "plant", everything=True)
    (ws.root / "memory" / "2026-01-01.md").unlink()
    assert texts(ws, "plant", everything=True) == []
    db = sqlite3.connect(ws.root / INDEX)
    assert db.execute(
        "SELECT count(*) FROM source WHERE path LIKE '%01-01%'"
    ).fetchone() == (0,)


def test_recall_all_reaches_old_notes_and_superseded_facts(tmp_path: Path):
    ws = new_workspace(tmp_path, "2026-01-05T09:00")
    ws.note("decided: the database is Postgres", kind="decision", key="database")
    ws.promote()
    later = Workspace(ws.root, now_override="2026-03-01T09:00")
    later.note("decided: the database is SQLite", kind="decision", key="database")
    later.promote()
    plain = later.recall("Postgres")
    assert all(h.status != "superseded" for h in plain)
    assert not any(h.path.endswith("2026-01-05.md") for h in plain)  # past its TTL
    everything = later.recall("Postgres", everything=True)
    assert {h.status for h in everything} >= {"superseded", "note"}


def test_a_damaged_index_is_rebuilt(ws: Workspace):
    ws.note("the printer is on floor two")
    texts(ws, "printer")
    (ws.root / INDEX).write_bytes(b"this is not a database" * 100)
    assert texts(ws, "printer") == ["the printer is on floor two"]


def test_without_a_usable_folder_recall_still_answers(ws: Workspace):
    ws.note("the lunch place is Nori")
    (ws.root / ".git" / "gardener").mkdir(exist_ok=True)
    for child in (ws.root / ".git" / "gardener").iterdir():
        child.unlink()
    (ws.root / ".git" / "gardener").rmdir()
    (ws.root / ".git" / "gardener").write_text("a file where the folder goes")
    assert texts(ws, "lunch") == ["the lunch place is Nori"]


def test_new_settings_rebuild_the_index(ws: Workspace):
    ws.note("the build takes nine minutes")
    texts(ws, "build")
    db = sqlite3.connect(ws.root / INDEX)
    (before,) = db.execute("SELECT value FROM meta").fetchone()
    rules = ws.root / "rules.md"
    rules.write_text(
        rules.read_text().replace("note_ttl_days: 30", "note_ttl_days: 31")
    )
    assert texts(Workspace(ws.root, now_override="2026-01-05T10:00"), "build")
    (after,) = db.execute("SELECT value FROM meta").fetchone()
    assert before != after


def test_a_secret_written_past_note_is_never_recalled_nor_indexed(ws: Workspace):
    secret = "ghp_" + "Zq8Xw2Lm4Nb6Vc1Kj3Hg5Fd7Sa9Pp0Oo2Ii4"
    note = ws.root / "memory" / "2026-01-05.md"
    note.write_text(f"# 2026-01-05\n\n- the CI token is {secret}\n")
    # no record has redacted the file yet: recall redacts what it reads
    assert texts(ws, "token") == ["the CI token is [REDACTED:github-token]"]
    index = ws.root / INDEX
    assert secret.encode() not in index.read_bytes()
    assert index.stat().st_mode & 0o777 == 0o600
    (ws.root / "memory" / f"2026-01-05-{secret}.md").write_text("- a quokka name\n")
    assert texts(ws, "quokka") == []  # named with a token: not until renamed
    ws.record()
    assert texts(ws, "quokka") == ["a quokka name"]
    assert secret.encode() not in index.read_bytes()


def test_purge_deletes_the_index(ws: Workspace):
    ws.note("Dana Whitfield prefers email over calls")
    texts(ws, "Dana")
    ws.purge("Dana Whitfield")
    index = ws.root / INDEX
    assert not index.exists() or b"Whitfield" not in index.read_bytes()
    assert texts(ws, "prefers") == [f"{REPLACEMENT} prefers email over calls"]


def _recall_in_child(root: str) -> list[str]:
    return [
        h.text
        for h in Workspace(Path(root), now_override="2026-01-05T09:00").recall("fact")
    ]


def test_recalls_building_one_index_at_once_agree(ws: Workspace):
    for n in range(30):
        ws.note(f"fact number {n} about the garden")
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        answers = pool.map(_recall_in_child, [str(ws.root)] * 8)
    assert all(a == answers[0] for a in answers) and len(answers[0]) == 10


def test_a_truncated_index_is_rebuilt(ws: Workspace):
    for n in range(40):
        ws.note(f"fact number {n} about the orchard and apples")
    assert len(texts(ws, "apples", limit=100)) == 40
    index = ws.root / INDEX
    data = index.read_bytes()
    for cut in (100, 300, 600):
        index.write_bytes(data[:-cut])
        assert len(texts(ws, "apples", limit=100)) == 40


def test_a_note_that_is_no_longer_a_readable_note_leaves_the_index(ws: Workspace):
    drafts = ws.root / "drafts"
    drafts.mkdir()
    (drafts / "d.md").write_text(
        "# 2026-01-04\n\n- the spare key is under the flowerpot\n"
    )
    link = ws.root / "memory" / "2026-01-04.md"
    link.symlink_to(Path("..") / "drafts" / "d.md")
    assert texts(ws, "flowerpot") == ["the spare key is under the flowerpot"]
    (drafts / "d.md").unlink()  # dangling now
    assert texts(ws, "flowerpot") == []
    link.unlink()
    link.mkdir()  # a folder with a note's name
    assert texts(ws, "flowerpot") == []


def test_a_memory_file_that_does_not_parse_is_an_error_not_an_empty_answer(
    ws: Workspace,
):
    import pytest

    from gardener.errors import ParseError

    ws.note("decided: the database is Postgres", kind="decision", key="database")
    ws.promote()
    assert texts(ws, "Postgres")
    memory = ws.memory_path
    memory.write_text(
        memory.read_text().replace(
            "<!-- gardener:end -->", "<!-- gardener:begin -->\n<!-- gardener:end -->"
        )
    )
    with pytest.raises(ParseError, match="gardener:begin"):
        ws.recall("Postgres")


def test_a_note_prune_deletes_leaves_the_index_words_and_all(tmp_path: Path):
    ws = new_workspace(tmp_path, "2026-01-05T09:00")
    ws.note("the old codename was bluewhale")
    ws.promote()
    assert texts(ws, "bluewhale", everything=True)
    later = Workspace(ws.root, now_override="2026-03-01T09:00")
    later.note("a new day")
    done = later.prune()
    assert "memory/2026-01-05.md" in done.plan.notes_removed
    assert b"bluewhale" not in (ws.root / INDEX).read_bytes()
    assert texts(later, "bluewhale", everything=True) == []


def test_a_keys_newest_note_answers_until_promote_files_it(tmp_path: Path):
    """Regression (new-user trial): a new value noted for a key MEMORY.md holds
    was invisible to recall until the next promote, and so was a value noted
    after the key was forgotten."""
    ws = new_workspace(tmp_path, "2026-01-05T09:00")
    ws.note("we use SQLite", kind="decision", key="database")
    ws.promote()
    assert [(h.value, h.status) for h in ws.recall("database")] == [
        ("we use SQLite", "current")
    ]  # the note's copy is filed: MEMORY.md speaks for it
    later = Workspace(ws.root, now_override="2026-01-06T09:00")
    later.note("we use Postgres", kind="decision", key="database", time="08:00")
    later.note("we use MariaDB", kind="decision", key="database", time="09:00")
    assert [h.value for h in later.recall("MariaDB")] == ["we use MariaDB"]
    assert later.recall("Postgres") == []  # not the key's latest word
    # the key's latest word comes first: MEMORY.md's value is the one it
    # replaces (new-user trial: the old value came first)
    assert [(h.value, h.status) for h in later.recall("database")] == [
        ("we use MariaDB", "note"),
        ("we use SQLite", "current"),
    ]
    later.promote()
    assert [(h.value, h.status) for h in later.recall("database")] == [
        ("we use MariaDB", "current")
    ]
    later.forget(key="database")
    assert later.recall("MariaDB") == []  # forgotten, its note too
    later.now_override = "2026-01-06T10:00"
    later.note("we use DuckDB", kind="decision", key="database")
    assert [h.value for h in later.recall("database")] == ["we use DuckDB"]


def _values(ws: Workspace, query: str) -> list[str]:
    return sorted(h.value for h in ws.recall(query))


def test_each_unfiled_value_of_a_multi_valued_key_answers(tmp_path: Path):
    """Regression (breaker): only the newest note of a multi-valued key showed,
    though promote files them all."""
    ws = new_workspace(tmp_path, "2026-03-10T12:00")
    ws.note("Python", kind="fact", key="language", time="09:00")
    ws.promote()
    ws.note("Rust", kind="fact", key="language", time="10:00")
    ws.note("Go", kind="fact", key="language", time="11:00")
    assert _values(ws, "Rust Go") == ["Go", "Rust"]


def test_a_filed_correction_no_longer_answers_as_a_note(tmp_path: Path):
    """Regression (breaker): promote gives a corrected value the wrong one's
    since, so its correction note looked newer than anything filed, forever."""
    ws = new_workspace(tmp_path, "2026-03-10T12:00")
    ws.note("Postgres", kind="decision", key="db", time="09:00")
    ws.promote()
    ws.note("MySQL", kind="correction", key="db", time="10:00")
    ws.promote()
    assert [(h.value, h.status) for h in ws.recall("db MySQL")] == [
        ("MySQL", "current")
    ]
    ws.forget(key="db")
    assert ws.recall("db MySQL") == []


def test_an_expired_note_entry_does_not_answer(tmp_path: Path):
    ws = new_workspace(tmp_path, "2026-03-10T12:00")
    ws.note("the banner is on", expires="2026-03-12")
    assert _values(ws, "banner") == ["the banner is on"]
    assert _values(Workspace(ws.root, now_override="2026-03-15T12:00"), "banner") == []


def test_a_new_value_noted_in_the_same_minute_answers(tmp_path: Path):
    """Regression (breaker and new-user trial): with the clock fixed, a value
    noted in the minute of the filed one stayed hidden until the next promote,
    though promote takes it as the newer value."""
    ws = new_workspace(tmp_path, "2026-11-30T10:00")
    ws.note("Postgres", kind="decision", key="database")
    ws.promote()
    assert [(h.value, h.status) for h in ws.recall("database")] == [
        ("Postgres", "current")
    ]
    ws.note("SQLite", kind="decision", key="database")
    assert [h.value for h in ws.recall("SQLite")] == ["SQLite"]
    ws.promote()
    assert [(h.value, h.status) for h in ws.recall("database SQLite")] == [
        ("SQLite", "current")
    ]


def test_a_repeat_of_the_current_value_is_no_new_word(tmp_path: Path):
    """Regression (breaker): a note repeating the key's current value (promote
    rejects it: same value) answered as a [note] beside the [current] entry."""
    ws = new_workspace(tmp_path, "2026-01-05T09:00")
    ws.note("we use SQLite", kind="decision", key="database")
    ws.promote()
    later = Workspace(ws.root, now_override="2026-01-06T09:00")
    later.note("We use SQLite", kind="decision", key="database")
    assert [(h.value, h.status) for h in later.recall("database")] == [
        ("we use SQLite", "current")
    ]
    later.promote()  # rejected: the same value
    assert [h.status for h in later.recall("database")] == ["current"]
    # a value MEMORY.md held before, noted again, is news: it answers
    later.now_override = "2026-01-06T10:00"
    later.note("we use Postgres", kind="decision", key="database")
    later.promote()
    later.now_override = "2026-01-06T11:00"
    later.note("we use SQLite", kind="decision", key="database")
    assert [(h.value, h.status) for h in later.recall("database")] == [
        ("we use SQLite", "note"),  # the key's latest word first
        ("we use Postgres", "current"),
    ]


def test_a_value_edited_by_hand_in_memory_md_keeps_its_note_filed(tmp_path: Path):
    """Regression (breaker): after a person edited a filed value in MEMORY.md,
    the note it came from (same minute, old value) answered again as a [note]
    for the notes' whole TTL."""
    ws = new_workspace(tmp_path, "2026-01-05T09:00")
    ws.note("decision: **database**: Postgres")
    ws.promote()
    memory = ws.root / "MEMORY.md"
    memory.write_text(
        memory.read_text(encoding="utf-8").replace(
            "**database**: Postgres", "**database**: MySQL"
        ),
        encoding="utf-8",
    )
    ws.promote()  # records the edit
    assert [(h.value, h.status) for h in ws.recall("database")] == [
        ("MySQL", "current")
    ]
