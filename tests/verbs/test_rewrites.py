"""Outside deletions and mass rewrites are held, not committed (issue 19)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from gardener import Workspace
from gardener.verbs.rewrites import outside_loss
from tests.helpers import new_workspace

NOW = "2026-02-03T10:00"


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def ten(tmp_path: Path) -> Workspace:
    """Ten current facts promoted from three committed notes."""
    ws = new_workspace(tmp_path, NOW)
    for day, hosts in (("2026-02-01", range(4)), ("2026-02-02", range(4, 7))):
        (ws.root / "memory" / f"{day}.md").write_text(
            "".join(f"- fact: **host {i}**: box{i}\n" for i in hosts)
        )
    (ws.root / "memory" / "2026-02-03.md").write_text(
        "".join(f"- fact: **host {i}**: box{i}\n" for i in range(7, 10))
    )
    ws.promote()
    return ws


def test_outside_loss_counts_entries_by_id_key_or_value():
    block = "<!-- gardener:begin -->\n## Facts\n{}<!-- gardener:end -->\n"
    before = block.format("- **a**: 1 {#m1}\n- **b**: 2 {#m2}\n- three {#m3}\n")
    assert outside_loss(before, before, "2026-01-01") == ([], 3)
    # ids dropped, a value changed: edits, not losses
    edited = block.format("- **A**: 9\n- **b**: 2\n- Three\n")
    assert outside_loss(before, edited, "2026-01-01") == ([], 3)
    lost, count = outside_loss(before, block.format("- **b**: 2\n"), "2026-01-01")
    assert [f.key or f.value for f in lost] == ["a", "three"] and count == 3
    assert len(outside_loss(before, None, "2026-01-01")[0]) == 3  # deleted
    assert len(outside_loss(before, "# no block\n", "2026-01-01")[0]) == 3


def test_notes_deleted_by_another_process_are_restored_and_reported(ten: Workspace):
    ws = ten
    notes = ws.root / "memory"
    texts = {p.name: p.read_bytes() for p in notes.glob("*.md")}
    (notes / "2026-02-01.md").unlink()
    git(ws.root, "rm", "-q", "memory/2026-02-02.md")  # staged deletion too
    head = git(ws.root, "rev-parse", "HEAD")
    result = ws.record()
    assert result.commit is None and git(ws.root, "rev-parse", "HEAD") == head
    assert {p.name: p.read_bytes() for p in notes.glob("*.md")} == texts
    assert sorted(w.split()[0] for w in result.warnings) == [
        "memory/2026-02-01.md",
        "memory/2026-02-02.md",
    ]
    assert all("deleted outside the gardener" in w for w in result.warnings)
    assert git(ws.root, "status", "--porcelain") == ""


def test_a_note_moved_to_another_name_is_recorded_as_a_move(ten: Workspace):
    ws = ten
    notes = ws.root / "memory"
    (notes / "2026-02-01.md").rename(notes / "2026-02-01-work.md")
    result = ws.record()
    assert result.commit is not None and not result.warnings
    assert not (notes / "2026-02-01.md").exists()


def test_prune_still_deletes_notes(ten: Workspace):
    later = Workspace(ten.root, now_override="2026-05-20T10:00")
    assert later.prune().commit is not None
    assert not list((ten.root / "memory").glob("*.md"))
    assert later.record().commit is None  # nothing to restore


def test_a_rewrite_to_a_fifth_is_held_and_the_cli_accepts_it(
    ten: Workspace, run_cli, monkeypatch: pytest.MonkeyPatch
):
    ws = ten
    memory = ws.memory_path
    text = memory.read_text()
    fifth = "".join(x for x in text.splitlines(True) if not any(
        f"**host {i}**" in x for i in range(2, 10)))  # fmt: skip
    memory.write_text(fifth)
    monkeypatch.chdir(ws.root)
    result = run_cli("record", "--json", now=NOW)
    data = json.loads(result.stdout)
    assert data["commit"] is None
    assert any("removing 8 of 10 current entries" in w for w in data["warnings"])
    assert "record --accept" in result.stderr
    assert memory.read_text() == text
    held = ws.root / ".gardener" / "held"
    assert (held / "MEMORY.md").read_text() == fifth
    assert git(ws.root, "status", "--porcelain") == ""
    # a second look changes nothing: the held version waits for a person
    assert "nothing to record" in run_cli("record", now=NOW).stdout
    out = run_cli("record", "--accept", now=NOW).stdout
    assert out.startswith("recorded")
    assert memory.read_text() == fifth and not held.exists()
    assert git(ws.root, "show", "HEAD:MEMORY.md") == fifth


def test_a_deleted_memory_file_is_held_too(ten: Workspace):
    ws = ten
    text = ws.memory_path.read_text()
    ws.memory_path.unlink()
    result = ws.record()
    assert result.commit is None and ws.memory_path.read_text() == text
    assert any("MEMORY.md was deleted outside" in w for w in result.warnings)
    assert ws.record(accept=True).commit is not None
    assert not ws.memory_path.exists()


def test_accept_refuses_a_held_rewrite_the_gardener_committed_over(ten: Workspace):
    ws = ten
    text = ws.memory_path.read_text()
    ws.memory_path.write_text(text.split("<!--")[0])
    ws.record()
    ws.note("box11", kind="fact", key="host 11", time="09:00")
    assert ws.promote().commit is not None
    from gardener.errors import GardenerError

    with pytest.raises(GardenerError, match="committed again since"):
        ws.record(accept=True)
    assert (ws.root / ".gardener" / "held" / "MEMORY.md").exists()


def test_a_rewrite_from_a_copy_read_before_promote_puts_the_promoted_back(
    ten: Workspace,
):
    """Regression (breaker, issue 20 item 3): an agent rewrote MEMORY.md
    from a copy it read before promote ran; the entries promoted since were
    recorded as the person deleting them, the ledger called their notes
    settled, so they were never filed again (43 of 488 facts)."""
    ws = ten
    memory = ws.root / "MEMORY.md"
    stale = memory.read_text()  # the agent reads its copy here
    ws.now_override = "2026-02-03T11:00"
    (ws.root / "memory" / "2026-02-03.md").open("a").write(
        "- fact: **host 10**: box10\n- fact: **host 11**: box11\n"
    )
    ws.promote()
    assert "box10" in memory.read_text() and "box11" in memory.read_text()
    # the agent writes its copy back with one edit of its own
    memory.write_text(stale.replace("box3", "box3-new") + "\nthe agent's own line\n")
    result = ws.record()
    text = memory.read_text()
    assert "box10" in text and "box11" in text  # promoted since: back
    assert "box3-new" in text and "box3 " not in text.replace("box3-new", "")
    assert "the agent's own line" in text
    assert any("read before" in w for w in result.warnings)
    committed = git(ws.root, "show", "HEAD:MEMORY.md")
    assert "box10" in committed and "box3-new" in committed
    assert ws.promote().commit is None  # nothing to file again, nothing lost
    assert not [p for p in ws.check() if p.kind == "lost"]


def test_a_person_deleting_a_fresh_entry_from_the_current_file_stands(
    ten: Workspace,
):
    ws = ten
    memory = ws.root / "MEMORY.md"
    ws.now_override = "2026-02-03T11:00"
    (ws.root / "memory" / "2026-02-03.md").open("a").write(
        "- fact: **host 10**: box10\n- fact: **host 11**: box11\n"
    )
    ws.promote()
    text = memory.read_text()
    line = next(x for x in text.splitlines() if "box10" in x)
    memory.write_text(text.replace(line + "\n", ""))  # read after the promote
    ws.record()
    assert "box10" not in memory.read_text() and "box11" in memory.read_text()
    assert "box10" not in git(ws.root, "show", "HEAD:MEMORY.md")


def test_a_stale_copy_whose_own_line_promote_committed_still_gets_the_promoted_back(
    ten: Workspace,
):
    """Found by the 10-minute soak (bench.soak: 1 promoted fact lost in 50):
    a person's save landed during a promote, so the promote's commit holds
    the person's line too; their next save, from the copy they had, adds a
    second line after it. The text outside the block then conflicted in the
    replay (the first line on both sides, the second on one), and the
    promoted entry was recorded as deleted."""
    ws = ten
    memory = ws.root / "MEMORY.md"
    stale = memory.read_text() + "hand edit 1\n"  # the person's save ...
    ws.now_override = "2026-02-03T11:00"
    (ws.root / "memory" / "2026-02-03.md").open("a").write(
        "- fact: **host 10**: box10\n"
    )
    ws.promote()
    # ... landed while that promote ran: its commit holds the line too
    memory.write_text(memory.read_text() + "hand edit 1\n")
    git(ws.root, "-c", "user.name=P", "-c", "user.email=p@example.invalid", "commit", "-q", "--amend", "--no-edit", "--no-verify", "--", "MEMORY.md")  # fmt: skip
    memory.write_text(stale + "hand edit 2\n")  # the next save, from their copy
    result = ws.record()
    text = memory.read_text()
    assert "box10" in text, result.warnings
    assert (
        text.endswith("hand edit 1\nhand edit 2\n") and text.count("hand edit 1") == 1
    )
    assert any("read before" in w for w in result.warnings)
