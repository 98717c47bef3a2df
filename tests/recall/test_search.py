"""A warm recall from the index alone (``search_fresh``): the same answer as
``Workspace.recall``, or None whenever the Workspace has work to do."""

from __future__ import annotations

import os
from datetime import date, timedelta
from pathlib import Path

import pytest

from gardener import Workspace
from gardener.recall.search import search_fresh
from tests.helpers import at, new_workspace

NOW = "2026-01-05T09:00"


@pytest.fixture(autouse=True)
def settled_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file the test wrote a moment ago counts as settled, as it would a
    few ms later in use (``stamps.stamp``'s racy rule; tested on its own)."""
    import gardener.recall.stamps

    monkeypatch.setattr(gardener.recall.stamps, "TICK_NS", 0)


@pytest.fixture
def warm(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    """A workspace with notes and facts whose index a recall has built."""
    monkeypatch.setenv("GARDENER_NOW", NOW)
    ws.note("decided: the database is Postgres", kind="decision", key="database")
    ws.note("the database backups run nightly")
    ws.promote()
    ws.note("the cat is called Miso")
    ws.recall("database")  # builds the index
    return ws


def fresh(ws: Workspace, query: str, limit: int | None = 10, everything: bool = False):
    return search_fresh(str(ws.root), query, limit, everything)


@pytest.mark.parametrize("everything", [False, True])
@pytest.mark.parametrize("query", ["database", "cat Miso", "nightly", "nothing"])
def test_a_warm_index_answers_as_the_workspace_does(
    warm: Workspace, query: str, everything: bool
):
    hits = fresh(warm, query, everything=everything)
    assert hits == warm.recall(query, everything=everything)
    assert fresh(warm, query, limit=1, everything=everything) == hits[:1]


def test_without_an_index_the_workspace_answers(warm: Workspace):
    (warm.root / ".git" / "gardener" / "recall.sqlite3").unlink()
    assert fresh(warm, "database") is None
    assert not (warm.root / ".git" / "gardener" / "recall.sqlite3").exists()


def test_a_changed_note_is_left_to_the_workspace(warm: Workspace):
    note = warm.root / "memory" / "2026-01-05.md"
    with note.open("a", encoding="utf-8") as file:
        file.write("- the cat is called Yuzu now\n")
    assert fresh(warm, "cat") is None
    assert [h.value for h in warm.recall("Yuzu")] == ["the cat is called Yuzu now"]
    assert fresh(warm, "Yuzu") == warm.recall("Yuzu")


def test_a_new_or_removed_note_is_left_to_the_workspace(warm: Workspace):
    extra = warm.root / "memory" / "2026-01-04.md"
    extra.write_text("- the plant is a fern\n", encoding="utf-8")
    assert fresh(warm, "plant") is None
    warm.recall("plant")
    assert fresh(warm, "plant") is not None
    extra.unlink()
    assert fresh(warm, "plant") is None


def test_new_settings_are_left_to_the_workspace(warm: Workspace):
    rules = warm.root / "rules.md"
    rules.write_text(
        rules.read_text(encoding="utf-8").replace(
            "note_ttl_days: 30", "note_ttl_days: 3"
        ),
        encoding="utf-8",
    )
    assert fresh(warm, "database") is None
    again = Workspace(warm.root)  # a Workspace reads its settings once
    again.recall("database")
    assert fresh(warm, "database") == again.recall("database")


def test_an_unreadable_clock_is_left_to_the_workspace(
    warm: Workspace, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("GARDENER_NOW", "yesterday-ish")
    assert fresh(warm, "database") is None


def test_a_memory_file_leading_outside_is_left_to_the_workspace(
    warm: Workspace, tmp_path: Path
):
    outside = tmp_path / "elsewhere.md"
    outside.write_text((warm.root / "MEMORY.md").read_text(encoding="utf-8"))
    (warm.root / "MEMORY.md").unlink()
    os.symlink(outside, warm.root / "MEMORY.md")
    assert fresh(warm, "database") is None


@pytest.mark.parametrize("damage", [b"", b"not a database at all" * 100])
def test_a_damaged_index_is_left_to_the_workspace(warm: Workspace, damage: bytes):
    (warm.root / ".git" / "gardener" / "recall.sqlite3").write_bytes(damage)
    assert fresh(warm, "database") is None
    assert warm.recall("database")  # rebuilt
    assert fresh(warm, "database") == warm.recall("database")


def test_a_query_without_words_finds_nothing(warm: Workspace):
    assert fresh(warm, "!!! ---") == []


# -- the notes' names from the index's memo while the folder is unchanged -------


@pytest.fixture
def steady(warm: Workspace, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    """``warm``, with every folder stamp trusted at once (no 2 s racy wait)."""
    import gardener.recall.stamps

    monkeypatch.setattr(gardener.recall.stamps, "RACY_NS", 0)
    Workspace(warm.root).recall("database", everything=True)  # remembers the listing
    Workspace(warm.root).recall("database")
    return warm


@pytest.mark.parametrize("everything", [False, True])
def test_names_from_the_memo_answer_as_a_listing_does(
    steady: Workspace, everything: bool
):
    from gardener.recall.index import open_built
    from gardener.recall.search import signature
    from gardener.recall.stamps import folder_stamp

    index = open_built(str(steady.root / ".git"), signature(_values(steady)))
    assert index is not None
    with index:
        held = folder_stamp(str(steady.root / "memory"))
        memo = index.listing("memory", held, "")
        assert memo is not None and memo[0] == ["2026-01-05.md"]
        live = date(2026, 1, 5) - timedelta(days=steady.config.note_ttl_days)
        assert index.listing("memory", held, live.isoformat()) is not None
    for query in ("database", "cat Miso", "nothing"):
        assert fresh(steady, query, everything=everything) == steady.recall(
            query, everything=everything
        )


def _values(ws: Workspace) -> dict[str, object]:
    from gardener.model.config import as_values

    return as_values(ws.config)


def test_a_note_added_or_removed_changes_the_folder(steady: Workspace):
    extra = steady.root / "memory" / "2026-01-04.md"
    extra.write_text("- the plant is a fern\n", encoding="utf-8")
    assert fresh(steady, "plant") is None
    Workspace(steady.root).recall("plant")
    assert fresh(steady, "plant") == steady.recall("plant")
    extra.unlink()
    assert fresh(steady, "plant") is None


def test_a_dangling_link_that_comes_alive_is_seen(steady: Workspace):
    target = steady.root / "elsewhere.md"
    os.symlink("../elsewhere.md", steady.root / "memory" / "2026-01-04.md")
    Workspace(steady.root).recall("fern")  # the link is listed, so not remembered
    target.write_text("- the plant is a fern\n", encoding="utf-8")
    assert fresh(steady, "fern") is None  # the folder is as it was: listed again
    assert [h.value for h in steady.recall("fern")] == ["the plant is a fern"]


# -- the remembered stamps: unchanged files answer without reading a row ---------


def _memo(ws: Workspace, since: str = "") -> tuple[list[str], list[str]] | None:
    from gardener.recall.index import open_built
    from gardener.recall.search import signature
    from gardener.recall.stamps import folder_stamp

    index = open_built(str(ws.root / ".git"), signature(_values(ws)))
    assert index is not None
    with index:
        return index.listing("memory", folder_stamp(str(ws.root / "memory")), since)


@pytest.mark.parametrize("everything", [False, True])
def test_a_note_changed_in_place_is_seen_though_the_folder_is_not(
    steady: Workspace, everything: bool
):
    note = steady.root / "memory" / "2026-01-05.md"
    with note.open("a", encoding="utf-8") as out:
        out.write("- the plant is a fern\n")  # same name: the folder keeps its stamp
    assert _memo(steady) is not None
    assert fresh(steady, "fern", everything=everything) is None
    assert [h.value for h in steady.recall("fern", everything=everything)] == [
        "the plant is a fern"
    ]
    assert fresh(steady, "fern", everything=everything) == steady.recall(
        "fern", everything=everything
    )


def test_memory_md_changed_by_hand_is_seen(steady: Workspace):
    memory = steady.root / "MEMORY.md"
    memory.write_text(
        memory.read_text(encoding="utf-8").replace("Postgres", "SQLite"),
        encoding="utf-8",
    )
    assert fresh(steady, "database", everything=True) is None
    hits = steady.recall("database", everything=True)
    assert any(h.path == "MEMORY.md" and "SQLite" in h.value for h in hits), hits


def test_another_scopes_refresh_sends_the_next_recall_to_the_rows(
    steady: Workspace,
):
    """A plain recall refreshes a changed note and drops every memo: --all
    then checks the rows (they are up to date), answers without reading a
    file, and remembers the new stamps."""
    before = _memo(steady)
    note = steady.root / "memory" / "2026-01-05.md"
    with note.open("a", encoding="utf-8") as out:
        out.write("- the plant is a fern\n")
    Workspace(steady.root).recall("fern")  # the live scope's refresh
    assert _memo(steady) is None
    hits = fresh(steady, "fern", everything=True)
    assert hits is not None and hits == steady.recall("fern", everything=True)
    renewed = _memo(steady)
    assert before is not None and renewed is not None and renewed[1] != before[1]


def test_a_note_without_rows_is_not_remembered(steady: Workspace):
    """A note named with a token gets no rows until record renames it: no
    memo may vouch for it, or it would never be read."""
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    (steady.root / "memory" / f"2026-01-04-{token}.md").write_text(
        "- the plant is a fern\n", encoding="utf-8"
    )
    steady.recall("fern", everything=True)
    assert _memo(steady) is None
    assert fresh(steady, "fern", everything=True) is None


def test_a_refresh_from_an_older_listing_leaves_no_memo_that_vouches_for_gone_rows(
    steady: Workspace,
):
    """A recall that listed the folder before a note came, and refreshed after
    another recall had indexed it, dropped that note's rows: the other recall's
    memo still named it, and warm recalls answered without it from then on."""
    import functools

    from gardener.model.validtime import parse_instant
    from gardener.recall.index import open_index
    from gardener.recall.search import Scope, read_docs, signature

    now = parse_instant(NOW)
    late = Scope(str(steady.root), "MEMORY.md", "memory", 30, now, True)  # lists now
    (steady.root / "memory" / "2026-01-04.md").write_text(
        "- bought kiwi fruit\n", encoding="utf-8"
    )
    Workspace(steady.root).recall("kiwi")  # indexes it, remembers the live listing
    git_dir = str(steady.root / ".git")
    with open_index(git_dir, signature(_values(steady))) as index:
        read = functools.partial(read_docs, str(steady.root), steady.config, {})
        index.refresh(late.files, late.present, read, late.floor)  # drops its rows
        late.remember(index)
    hits = fresh(steady, "kiwi")
    assert hits is None or [h.value for h in hits] == ["bought kiwi fruit"]
    assert [h.value for h in steady.recall("kiwi")] == ["bought kiwi fruit"]
    assert [h.value for h in fresh(steady, "kiwi") or []] == ["bought kiwi fruit"]


def test_a_file_written_within_its_clock_tick_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Two writes within the file system's clock tick leave the same size and
    times (git's "racy" case): a stamp taken that close to a write is never
    stored, so the next refresh reads the file again instead of trusting it."""
    import gardener.recall.stamps
    from gardener.recall.index import open_index
    from gardener.recall.stamps import stamp

    monkeypatch.setattr(
        gardener.recall.stamps, "TICK_NS", 60_000_000_000
    )  # a slow clock
    note = tmp_path / "2026-01-05.md"
    note.write_text("- the cat is called Mimi\n", encoding="utf-8")
    assert stamp(str(note), trusted=True) == "racy"
    assert stamp(str(note)) != "racy"
    reads: list[str] = []

    def read(batch: list[tuple[str, str]], known: object) -> dict[str, list]:
        reads.extend(rel for rel, _ in batch)
        return {rel: [] for rel, _ in batch}

    files = [("memory/2026-01-05.md", str(note))]
    with open_index(None, "test") as index:
        index.refresh(files, ["memory/2026-01-05.md"], read)
        assert not index.fresh(files, ["memory/2026-01-05.md"])
        index.refresh(files, ["memory/2026-01-05.md"], read)
        monkeypatch.setattr(gardener.recall.stamps, "TICK_NS", 0)  # the tick has passed
        index.refresh(files, ["memory/2026-01-05.md"], read)
        assert index.fresh(files, ["memory/2026-01-05.md"])
    assert reads == ["memory/2026-01-05.md"] * 3


def test_ties_come_in_the_same_order_from_a_warm_index_and_a_fresh_one(
    tmp_path: Path,
):
    """(breaker) A MEMORY.md entry and its note tie (same score and since):
    a warm index gave the note first, a fresh one the entry: --limit 1 differed."""
    ws = new_workspace(tmp_path, "2026-02-01T12:00")
    ws.note("decision: **db**: postgres widget", by="a")
    Workspace(ws.root, now_override="2026-02-05T12:00").promote()
    later = Workspace(ws.root, now_override="2026-03-10T12:00")
    later.note("decision: **db**: sqlite widget", by="b")
    later.recall("widget", everything=True)
    later.promote()
    warm = later.recall("db", everything=True)
    index = ws.root / ".git" / "gardener" / "recall.sqlite3"
    index.unlink()
    assert later.recall("db", everything=True) == warm


def test_a_keys_pending_note_comes_first_and_a_filed_note_answers_once(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
):
    """Regressions (new-user trial): with a newer value noted but not yet
    promoted, ``recall database`` listed MEMORY.md's old value first; and an
    entry promote filed without a key answered twice, as the MEMORY.md entry
    and as its note line (breaker: with --limit 1, as the note line)."""
    monkeypatch.setenv("GARDENER_NOW", NOW)
    ws.now_override = NOW
    ws.note("Sam prefers tabs over spaces")
    ws.note("DuckDB", kind="decision", key="database")
    ws.promote()
    monkeypatch.setenv("GARDENER_NOW", "2026-01-05T09:10")
    ws.now_override = "2026-01-05T09:10"
    ws.note("MariaDB", kind="decision", key="database")
    for answer in (ws.recall("database"), fresh(ws, "database")):
        assert [(h.status, h.value) for h in answer] == [
            ("note", "MariaDB"),
            ("current", "DuckDB"),  # the value it replaces, after it
        ]
    assert [h.value for h in ws.recall("database", limit=1)] == ["MariaDB"]
    for answer in (ws.recall("tabs"), fresh(ws, "tabs"), ws.recall("tabs", limit=1)):
        assert [(h.status, h.path) for h in answer] == [("current", "MEMORY.md")]
    # --all keeps every match; after promote the new value is MEMORY.md's
    assert {h.value for h in ws.recall("database", everything=True)} == {
        "DuckDB",
        "MariaDB",
    }
    monkeypatch.setenv("GARDENER_NOW", "2026-01-05T09:20")
    ws.now_override = "2026-01-05T09:20"
    ws.promote()
    assert [(h.status, h.value) for h in ws.recall("database")] == [
        ("current", "MariaDB")
    ]


def test_a_filed_value_of_a_key_with_many_values_answers_once(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
):
    """Regression (breaker): ``language: Python`` answered twice, from
    MEMORY.md and as its note line (a key with many values has no pending)."""
    monkeypatch.setenv("GARDENER_NOW", NOW)
    ws.now_override = NOW
    ws.note("Python", kind="fact", key="language")
    ws.promote()
    for answer in (
        ws.recall("python"),
        fresh(ws, "python"),
        ws.recall("python", limit=1),
    ):
        assert [(h.status, h.path) for h in answer] == [("current", "MEMORY.md")]


def test_recall_all_calls_an_expired_entry_expired(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
):
    """Regression (breaker): ``recall --all`` showed an entry past its
    ``expires`` as [current]."""
    monkeypatch.setenv("GARDENER_NOW", NOW)
    ws.now_override = NOW
    ws.note(
        "staging is frozen for the audit",
        kind="fact",
        key="staging",
        expires="2026-01-07",
    )
    ws.promote()
    ws.now_override = "2026-01-09T09:00"
    monkeypatch.setenv("GARDENER_NOW", "2026-01-09T09:00")
    found = [h for h in ws.recall("staging", everything=True) if h.path == "MEMORY.md"]
    assert [h.status for h in found] == ["expired"]


@pytest.mark.parametrize(
    "word", ["Nutzer", "用户", "ユーザー", "usuaria", "пользователь"]
)
def test_the_users_facts_answer_the_word_for_user_in_every_language(
    ws: Workspace, word: str
):
    ws.note("identity: **user / name**: Jonas Weber", time="08:00")
    at(ws, "2026-01-05T18:00").promote()
    hits = ws.recall(word)
    assert hits and hits[0].key == "user / name"
    assert "Nutzer" not in hits[0].value  # matched as context, never shown
