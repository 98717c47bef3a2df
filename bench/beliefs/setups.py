"""What a user does to each corpus workspace before ``gardener init``.

Most workspaces keep their notes in ``memory/`` and need nothing. The others
are set up as a user reading ``gardener check`` would: name the notes folder
in rules.md (``notes_dir``), rename a note the gardener does not read as one,
or leave a workspace out when it has no daily notes at all. A workspace not
listed here gets the default setup (``memory/``, nothing renamed).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Setup:
    """``notes_dir``: written into rules.md's front matter before init when not
    ``memory``; ``renames``: (old, new) paths under the workspace, done before
    init; ``skip``: why the workspace is not measured ("" = measured)."""

    notes_dir: str = "memory"
    renames: tuple[tuple[str, str], ...] = ()
    skip: str = ""
    why: str = ""  # the choice, for the report


_JOURNAL = "memory-bank/journal"

SETUPS: dict[str, Setup] = {
    # a Cline-style memory bank: dated session journals under memory-bank/journal/,
    # two of them named 2025_07_02_... (check: "is not named as a note")
    "ACicmansky__GastroPro_Product_Manager": Setup(
        notes_dir=_JOURNAL,
        renames=(
            (
                f"{_JOURNAL}/2025_07_02_initial_setup.md",
                f"{_JOURNAL}/2025-07-02_initial_setup.md",
            ),
            (
                f"{_JOURNAL}/2026_07_06_production_run_data_loss.md",
                f"{_JOURNAL}/2026-07-06_production_run_data_loss.md",
            ),
        ),
        why="notes_dir: memory-bank/journal; the two journals named YYYY_MM_DD_* renamed YYYY-MM-DD_*, as check suggests",
    ),  # fmt: skip
    # Claude Code's memory: an index MEMORY.md and undated topic files, no daily notes
    "1246691721__claude-memory": Setup(
        skip="no daily notes: an index MEMORY.md and undated topic files the gardener does not read as notes",
    ),
}


def setup_of(workspace: str) -> Setup:
    """The setup of a corpus workspace (its folder name); the default if unlisted."""
    return SETUPS.get(workspace, Setup())
