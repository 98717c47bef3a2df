"""A dry run prints no secret the real pass would redact (found by a new
user's trial: ``promote --dry-run --json`` echoed a key an agent wrote
straight into its note)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import cli

NOW = "2026-06-15T20:00"
TOKEN = "ghp_" + "q7Zr2Lm9Xc4Vb8Nn1Ks5Dt3Wy6Hp0Ja2Fe9G"


def gardener(root: Path, *args: str) -> str:
    done = cli(root, NOW, *args)
    return done.stdout + done.stderr


def test_dry_run_output_is_redacted(tmp_path: Path):
    gardener(tmp_path, "init")
    note = tmp_path / "memory" / "2026-06-15.md"
    note.parent.mkdir(exist_ok=True)
    note.write_text(
        f"# 2026-06-15\n\n- the staging deploy token is {TOKEN}\n"
        "- We use Postgres as the main database.\n",
        encoding="utf-8",
    )
    for args in (("promote", "--dry-run", "--json"), ("promote", "--dry-run")):
        out = gardener(tmp_path, *args)
        assert TOKEN not in out
        assert TOKEN[:12] not in out
        if "--json" in args:
            assert "[REDACTED:" in out  # the line is shown, its secret is not
    assert TOKEN in note.read_text(encoding="utf-8")  # a dry run writes nothing
    assert TOKEN not in gardener(tmp_path, "promote")
