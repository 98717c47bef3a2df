"""The MEMORY.md line memo gives the answers of parse_fact and render_fact, only faster."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from gardener import Workspace
from gardener.formats.memoryfile import (
    parse_fact,
    parse_memory,
    render_fact,
    render_memory,
)
from gardener.model import facts
from gardener.model.facts import normalize_key
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


KEYS = ["The Great Movies ／ author", "Tier 2 renewal/List  Price", "**the database:**"]


def _memo_of(keys: list[str]) -> LineMemo:
    memo = LineMemo()
    for n, key in enumerate(keys):
        memo.parse(f"- **{key}**: v{n} {{#m{n}}}", "Facts", n + 1)
    return memo


def test_a_loaded_memo_makes_its_keys_normal_forms_known(tmp_path: Path):
    # a fresh process then compares MEMORY.md's keys without working each out
    (tmp_path / "gardener").mkdir()
    save(tmp_path, _memo_of(KEYS))
    before = dict(facts._KNOWN_KEYS)
    try:
        facts._KNOWN_KEYS.clear()
        load(tmp_path)
        for key in KEYS:
            assert facts._KNOWN_KEYS[key] == facts._normal_key(key)
            assert normalize_key(key) == facts._normal_key(key)
    finally:
        facts._KNOWN_KEYS.clear()
        facts._KNOWN_KEYS.update(before)


def test_a_memo_saved_by_other_key_code_makes_none_known(tmp_path: Path):
    # the normal form may change with the code: a memo from before the change
    # still parses lines, but its normal forms are not taken
    (tmp_path / "gardener").mkdir()
    save(tmp_path, _memo_of(["Odd Key"]))
    path = tmp_path / "gardener" / FILE
    version, known, _ = marshal.loads(path.read_bytes())
    line = next(iter(known))
    known[line] = (*known[line][:6], "a wrong normal form")
    path.write_bytes(marshal.dumps((version, known, "another source")))
    before = dict(facts._KNOWN_KEYS)
    try:
        facts._KNOWN_KEYS.clear()
        assert set(load(tmp_path).known) == {line}
        assert "Odd Key" not in facts._KNOWN_KEYS
        assert normalize_key("Odd Key") == "odd key"
    finally:
        facts._KNOWN_KEYS.clear()
        facts._KNOWN_KEYS.update(before)


def test_known_keys_stop_at_their_limit(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(facts, "_KNOWN_KEYS", {})
    monkeypatch.setattr(facts, "_KNOWN_LIMIT", 2)
    facts.know_keys({"A": "a", "B": "b", "C": "c"})
    assert facts._KNOWN_KEYS == {"A": "a", "B": "b"}
    facts.know_keys({"D": "d"})
    assert len(facts._KNOWN_KEYS) == 2 and normalize_key("D") == "d"
