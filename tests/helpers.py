"""Small builders shared by the tests: parsed notes and plans for the pure core,
and a workspace's notes, answers and git log for the tests through ``Workspace``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gardener import Workspace
from gardener.formats.dailynote import parse_note
from gardener.formats.memoryfile import NEW_FILE, parse_memory
from gardener.model.config import Config
from gardener.model.facts import Memory, Note
from gardener.planning.promote import PromotionPlan, plan_promotion
from gardener.store.settings import default_config

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy


def note(day: str, body: str, name: str | None = None) -> Note:
    """A parsed daily note for ``day`` (YYYY-MM-DD) with ``body`` as its text."""
    path = f"memory/{name or day}.md"
    return parse_note(path, date.fromisoformat(day), body)


def promote(
    notes: list[Note],
    memory: Memory | None = None,
    now: str = "2026-12-01T12:00",
    config: Config | None = None,
    ledger: frozenset[str] = frozenset(),
) -> PromotionPlan:
    return plan_promotion(
        notes,
        memory or parse_memory(NEW_FILE),
        config or default_config(),
        datetime.fromisoformat(now),
        ledger,
    )


def current(plan: PromotionPlan, key: str) -> list[str]:
    from gardener.model.facts import normalize_key
    from gardener.model.validtime import is_current

    return [
        f.value
        for f in plan.facts
        if f.key
        and normalize_key(f.key) == normalize_key(key)
        and is_current(f, "2026-12-01")
    ]


def new_workspace(tmp_path: Path, now: str) -> Workspace:
    """A new workspace in ``tmp_path / "ws"`` (which must not exist), as
    ``Workspace.init(tmp_path / "ws", now_override=now)`` makes it.

    It is a copy of one made once per clock time and test process (in the
    session's temporary folder): copying is several times faster than a new
    init, and gives the same files, git history, hooks and drivers, since none
    of them names the folder. Call it inside a test, where the environment of
    the ``no_git_identity`` fixture holds."""
    template = tmp_path.parent / f"ws-template-{now.replace(':', '')}" / "ws"
    if not template.exists():
        Workspace.init(template, now_override=now)
    root = tmp_path / "ws"
    shutil.copytree(template, root, symlinks=True)
    return Workspace(root, now_override=now)


def git(root: Path, *args: str) -> str:
    """The output of ``git -C ROOT ARGS`` (bytes that are not UTF-8 replaced)."""
    return subprocess.run(
        ["git", "-C", str(root), *args],
        check=True,
        capture_output=True,
        text=True,
        errors="replace",
    ).stdout


def cli(root: Path, now: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``gardener -w ROOT ARGS`` as a child process with GARDENER_NOW=now;
    asserts it exits 0 (its output in the message if not)."""
    env = dict(os.environ, GARDENER_NOW=now)
    done = subprocess.run(
        [sys.executable, "-m", "gardener", "-w", str(root), *args],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def write(ws: Workspace, name: str, text: str | bytes) -> None:
    """Write ``memory/NAME`` by hand, as an agent's editor would."""
    path = ws.root / "memory" / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())


def values(ws: Workspace, key: str, when: str | None = None) -> list[str]:
    """The values recall gives for ``key``, now or as of ``when``."""
    return [h.value for h in ws.recall(key=key, as_of_time=when)]


def commits(root: Path) -> int:
    """How many commits HEAD has."""
    return int(git(root, "rev-list", "--count", "HEAD"))


def at(ws: Workspace, when: str) -> Workspace:
    """``ws`` with its clock set to ``when`` (YYYY-MM-DDTHH:MM)."""
    ws.now_override = when
    return ws


def json_like(floats: bool = False) -> SearchStrategy[object]:
    """Hypothesis values shaped like parsed JSON, with the keys a judge's
    answer uses among others (for the parsers of ``decide`` and the llm judge)."""
    from hypothesis import strategies as st

    leaves = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
    if floats:
        leaves = leaves | st.floats()
    keys = st.sampled_from(["id", "verdict", "kind", "key", "value", "x"])
    return st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5)
        ),
        max_leaves=20 if floats else 12,
    )
