"""The MEMORY.md line memo gives the answers of parse_fact and render_fact, only faster."""

from __future__ import annotations

from pathlib import Path

import pytest

from gardener import Workspace
from gardener.formats.memoryfile import (
    parse_fact,
    parse_memory,
    render_fact,
    render_memory,
)
from gardener.store.linememo import FILE, LineMemo, load, save

LINES = [
    "- **database**: SQLite {#m1 since=2026-01-02 from=memory/2026-01-02.md}",
    "- ~~**database**: Postgres~~ {#m0 since=2026-01-01 until=2026-01-02 kind=decision}",
    '- **motto**: say "hi" {#m2 reason="two words" since=2026-01-01}',
    "- **hand**: written {since=2026-01-01   #m3}",  # not canonical: attributes reordered
    "- a line without attributes",
    "- value {x} {#m4}",
]


@pytest.mark.parametrize("line", LINES)
def test_a_memo_parses_and_renders_as_the_plain_functions(line: str):
    memo = LineMemo()
    for _ in range(2):  # first parsed, then from the memo
        fact = memo.parse(line, "Facts", 7)
        assert fact == parse_fact(line, "Facts", 7)
        assert fact is not None
        assert memo.render(fact) == render_fact(fact)
        changed = fact.with_attrs(until="2027-01-01")
        assert memo.render(changed) == render_fact(changed)


def test_a_saved_memo_is_loaded_and_a_damaged_one_ignored(tmp_path: Path):
    text = (
        "# Memory\n\n<!-- gardener:begin -->\n## Facts\n"
        + "\n".join(LINES)
        + "\n<!-- gardener:end -->\n"
    )
    memo = LineMemo()
    plain = parse_memory(text)
    assert parse_memory(text, "MEMORY.md", memo) == plain
    (tmp_path / "gardener").mkdir()
    save(tmp_path, memo)
    again = load(tmp_path)
    assert set(again.known) == set(LINES)
    memory = parse_memory(text, "MEMORY.md", again)
    assert memory == plain
    assert render_memory(memory, memory.facts, again) == render_memory(plain)
    (tmp_path / "gardener" / FILE).write_bytes(b"not marshal")
    assert load(tmp_path).known == {}


def test_promote_with_and_without_the_memo_writes_the_same(tmp_path: Path):
    texts = []
    for name in ("kept", "deleted"):
        ws, _ = Workspace.init(tmp_path / name, now_override="2026-03-01T18:00")
        notes = ws.root / "memory"
        (notes / "2026-02-10.md").write_text("- 09:00 fact: **staging host**: box2\n")
        ws.promote()
        (notes / "2026-02-11.md").write_text("- 09:00 decision: **database**: SQLite\n")
        ws.promote()  # parses the line the first pass wrote: the memo keeps it
        memo = ws.root / ".git" / "gardener" / FILE
        assert memo.exists()
        if name == "deleted":
            memo.unlink()
        (notes / "2026-02-12.md").write_text("- 09:00 fact: **staging host**: box5\n")
        ws.promote()
        texts.append(ws.memory_path.read_text())
    assert texts[0] == texts[1]
    assert "box5" in texts[0] and "~~**staging host**: box2~~" in texts[0]


def test_the_memo_is_readable_by_its_owner_only(tmp_path: Path):
    memo = LineMemo()
    memo.parse(LINES[0], "Facts", 1)
    (tmp_path / "gardener").mkdir()
    save(tmp_path, memo)
    assert (tmp_path / "gardener" / FILE).stat().st_mode & 0o777 == 0o600
