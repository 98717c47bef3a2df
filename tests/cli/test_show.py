"""gardener show PATH[:FROM[:N]]."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gardener.cli.show import parse_spec


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [
        ("MEMORY.md", ("MEMORY.md", 1, None)),
        ("memory/2026-01-05.md:3", ("memory/2026-01-05.md", 3, None)),
        ("memory/2026-01-05.md:3:2", ("memory/2026-01-05.md", 3, 2)),
        ("memory/a:b.md", ("memory/a:b.md", 1, None)),
    ],
)
def test_the_spec_is_read(spec: str, parsed: tuple[str, int, int | None]):
    assert parse_spec(spec) == parsed


def test_show_prints_lines_and_refuses_outside(tmp_path: Path, run_cli):
    root = tmp_path / "ws"
    run_cli("init", str(root), now="2026-01-05T09:00")
    run_cli(
        "-w",
        str(root),
        "note",
        "--time",
        "08:00",
        "the cat is Miso",
        now="2026-01-05T09:00",
    )
    out = run_cli("-w", str(root), "show", "memory/2026-01-05.md").stdout
    assert "the cat is Miso" in out
    got = json.loads(
        run_cli("-w", str(root), "show", "--json", "memory/2026-01-05.md:1:1").stdout
    )
    assert got["lines"] == 1 and got["text"] == out.splitlines(keepends=True)[0]
    failed = run_cli("-w", str(root), "show", ".git/config", code=1)
    assert "not a memory file" in failed.output
    assert run_cli("-w", str(root), "show", "memory/1999-01-01.md").stdout == ""
