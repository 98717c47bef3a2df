"""The merge drivers over real files, and the entries a merge dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from gardener import Workspace
from gardener.errors import ParseError
from gardener.formats.memoryfile import BEGIN, END
from gardener.git.repo import Repo
from gardener.verbs.merge import lost_entries, merge_memory_files, merge_union_files
from tests.helpers import git


def versions(tmp_path: Path, *texts: str) -> list[Path]:
    paths = []
    for name, text in zip(("base", "ours", "theirs"), texts, strict=True):
        path = tmp_path / name
        path.write_bytes(text.encode())
        paths.append(path)
    return paths


def block(*lines: str, nl: str = "\n") -> str:
    return nl.join(["# Memory", "", BEGIN, *lines, END]) + nl


def test_the_memory_driver_writes_ours_and_keeps_its_newline_style(tmp_path: Path):
    base = block("## Facts", "- a {#m1}", nl="\r\n")
    ours = block("## Facts", "- a {#m1}", "- b {#m2}", nl="\r\n")
    theirs = block("## Facts", "- a {#m1}", "- c {#m3}", nl="\r\n")
    o, a, b = versions(tmp_path, base, ours, theirs)
    done = merge_memory_files(o, a, b, root=tmp_path)
    assert done.clean
    assert a.read_bytes().decode() == block(
        "## Facts", "- a {#m1}", "- b {#m2}", "- c {#m3}", nl="\r\n"
    )


def test_a_block_that_cannot_be_read_leaves_ours_as_it_is(tmp_path: Path):
    broken = "# Memory\n\n" + BEGIN + "\n- a {#m1}\n"
    o, a, b = versions(tmp_path, block("- a {#m1}"), broken, block("- b {#m2}"))
    with pytest.raises(ParseError):
        merge_memory_files(o, a, b, root=tmp_path)
    assert a.read_text() == broken


def test_the_union_driver_keeps_the_ledger_sorted(tmp_path: Path):
    o, a, b = versions(
        tmp_path,
        "memory/2026-01-02.md\tx\n",
        "memory/2026-01-02.md\tx\nmemory/2026-01-05.md\ty\n",
        "memory/2026-01-01.md\tz\n",
    )
    merge_union_files(o, a, b, ".gardener/ledger.d/2026-01")
    assert a.read_text() == "memory/2026-01-01.md\tz\nmemory/2026-01-05.md\ty\n"


def test_a_workspace_without_merges_has_nothing_lost(ws: Workspace):
    ws.note("the cat is Miso")
    with Repo.open(ws.root) as repo:
        assert lost_entries(repo, "MEMORY.md", lambda key: False) == []
        verified = repo.git_dir / "gardener" / "merges-verified"
        head = git(ws.root, "rev-parse", "HEAD").strip()
        assert verified.read_text().strip() == head
