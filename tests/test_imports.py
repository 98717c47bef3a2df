"""A plain ``gardener note`` imports only what it needs (its start is most of its cost).

Each import below costs a note 1-6 ms (bench/README.md: a note's process is measured
against a shell append and a ``git commit``), and none is needed to write one.
A real ``gardener note`` runs in a child process under a small wrapper that
records the modules it loaded and every ``import`` statement a gardener
module ran.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gardener import Workspace

# never loaded by a note: pathlib pulls in urllib.parse and ipaddress
NEVER = {"pathlib", "typing", "dataclasses", "shlex", "base64"}
NEVER |= {
    "click",
    "yaml",
    "frontmatter",
    "git",
    "gardener.workspace",
    "gardener.model.config",
    "gardener.formats.rules",
}
# never imported by the gardener's own modules on a note's path; subprocess
# (which runs git) imports both itself, so they are loaded all the same
NOT_BY_GARDENER = NEVER | {"contextlib", "threading"}

WRAPPER = r"""
import builtins, json, os, sys

before = set(sys.modules)
statements = []  # (importing gardener module, module imported)
real_import = builtins.__import__

def spy(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {}).get("__name__") or ""
    if level == 0 and importer.split(".")[0] == "gardener":
        statements.append((importer, name))
    return real_import(name, globals, locals, fromlist, level)

builtins.__import__ = spy
sys.argv = ["gardener", *sys.argv[1:]]
from gardener.cli.fast import main

try:
    main()
except SystemExit as done:
    code = done.code
with open(os.environ["IMPORTS_REPORT"], "w") as report:
    json.dump({"loaded": sorted(set(sys.modules) - before),
               "statements": statements}, report)
sys.exit(code)
"""


def _note(root: Path, report: Path, *args: str) -> dict[str, list[object]]:
    env = {**os.environ, "GARDENER_WORKSPACE": str(root)}
    env["IMPORTS_REPORT"] = str(report)
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, "note", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert args[-1] in done.stdout
    return json.loads(report.read_text())


@functools.cache
def _brought_by_subprocess() -> frozenset[str]:
    """What ``import subprocess`` loads in a fresh interpreter (after ``re``)."""
    code = (
        "import sys, re, json; before = set(sys.modules); import subprocess; "
        "print(json.dumps(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return frozenset(json.loads(out.stdout))


@pytest.mark.parametrize(
    "notes",
    [
        [["the cat is Miso"], ["the dog is Rex"]],  # a new day's note, then an append
        [["--json", "--kind", "decision", "--key", "db", "we use SQLite"]],
        [["--by", "atlas", "deploys happen on Tuesdays"]],
    ],
)
def test_a_note_imports_only_what_it_needs(tmp_path: Path, notes: list[list[str]]):
    ws, _ = Workspace.init(tmp_path / "ws")  # settings cached: the fast path runs
    for n, args in enumerate(notes):
        got = _note(ws.root, tmp_path / f"report{n}.json", *args)
        loaded = set(got["loaded"])
        assert "gardener.verbs.note" in loaded and "gardener.git.repo" in loaded
        assert not loaded & NEVER, sorted(loaded & NEVER)
        assert not (loaded - _brought_by_subprocess()) & {"contextlib", "threading"}
        statements = [(str(by), str(name)) for by, name in got["statements"]]  # type: ignore[misc]
        imported = {name for _, name in statements}
        roots = {name.split(".")[0] for name in imported} | imported
        assert not roots & NOT_BY_GARDENER, [
            (by, name) for by, name in statements if name in NOT_BY_GARDENER
        ]
