"""A plain ``gardener note`` imports only what it needs (its start is most of its cost).

Each import below costs a note 1-6 ms (bench/README.md: a note's process is measured
against a shell append and a ``git commit``), and none is needed to write one.
A real ``gardener note`` runs in a child process under a small wrapper that
records the modules it loaded and every ``import`` statement a gardener
module ran.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gardener import Workspace

# The hot path: every gardener module a plain ``gardener note`` or a warm
# ``gardener recall`` loads, and so the only ones that use the start-up tricks
# of docs/internals.md ("Hot path"). Every other module is ordinary Python.
HOT_PATH = {
    "gardener",
    "gardener.cli",
    "gardener.cli.fast",
    "gardener.cli.options",
    "gardener.cli.output",
    "gardener.errors",
    "gardener.files",
    "gardener.files.append",
    "gardener.files.atomic",
    "gardener.files.flock",
    "gardener.files.layout",
    "gardener.files.lock",
    "gardener.formats",
    "gardener.formats.blocks",
    "gardener.formats.entryline",
    "gardener.formats.retired",
    "gardener.git",
    "gardener.git.identity",
    "gardener.git.repo",
    "gardener.git.run",
    "gardener.git.setup",
    "gardener.git.trailers",
    "gardener.git.trees",
    "gardener.model",
    "gardener.model.hit",
    "gardener.model.kinds",
    "gardener.model.record",
    "gardener.model.validtime",
    "gardener.neverstore",
    "gardener.neverstore.cells",  # a table row of an account and its password: regex text
    "gardener.neverstore.codes",
    "gardener.neverstore.credwords",  # credential words per language: data only
    "gardener.neverstore.detectors",
    "gardener.neverstore.doors",  # door codes: split from frames, regex text only
    "gardener.neverstore.engine",
    "gardener.neverstore.evidence",  # evidence scored together: its trie, regex text
    "gardener.neverstore.frames",
    "gardener.neverstore.labels",
    "gardener.neverstore.near",  # values near a credential word: regex text only
    "gardener.neverstore.notvalues",
    "gardener.neverstore.passes",
    "gardener.neverstore.personal",
    "gardener.neverstore.redact",
    "gardener.neverstore.regex",
    "gardener.neverstore.rules",
    "gardener.neverstore.seeds",
    "gardener.neverstore.shapes",  # a value's shape for evidence: regex text only
    "gardener.neverstore.tables",
    "gardener.neverstore.tokens",
    "gardener.neverstore.values",
    "gardener.neverstore.weaklabels",
    "gardener.planning",
    "gardener.planning.headingwords",
    "gardener.recall",
    "gardener.recall.filed",
    "gardener.recall.hits",
    "gardener.recall.index",
    "gardener.recall.schema",
    "gardener.recall.search",
    "gardener.recall.stamps",
    "gardener.recall.terms",
    "gardener.store",
    "gardener.store.journal",
    "gardener.store.refused",  # once a secret was refused: its hashes are looked up
    "gardener.store.retired",
    "gardener.store.settings",
    "gardener.verbs",
    "gardener.verbs.maintenance",
    "gardener.verbs.messages",
    "gardener.verbs.note",
}

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
    "gardener.judge",
    "llm",
    "gardener.mcp",
    "mcp",
    "pydantic",
    "anyio",
    "portalocker",  # the locks where fcntl is missing: flock here
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


def _run(root: Path, report: Path, *args: str) -> tuple[str, dict[str, list[object]]]:
    """``gardener *args`` under the wrapper: its output, and what it imported."""
    env = {**os.environ, "GARDENER_WORKSPACE": str(root)}
    env["IMPORTS_REPORT"] = str(report)
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(report.read_text())


def _note(root: Path, report: Path, *args: str) -> dict[str, list[object]]:
    out, got = _run(root, report, "note", *args)
    assert args[-1] in out
    return got


def _gardener_modules(got: dict[str, list[object]]) -> set[str]:
    return {str(m) for m in got["loaded"] if str(m).split(".")[0] == "gardener"}


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
        # a commit SHA and a UUID: no token, so detect-secrets is not imported
        [
            [
                "fixed in 3f9a1c2b7e4d5f6a8b9c0d1e2f3a4b5c6d7e8f90 for 123e4567-e89b-12d3-a456-426614174000"
            ]
        ],
    ],
)
def test_a_note_imports_only_what_it_needs(tmp_path: Path, notes: list[list[str]]):
    ws, _ = Workspace.init(tmp_path / "ws")  # settings cached: the fast path runs
    for n, args in enumerate(notes):
        got = _note(ws.root, tmp_path / f"report{n}.json", *args)
        loaded = set(got["loaded"])
        assert "gardener.verbs.note" in loaded and "gardener.git.repo" in loaded
        assert not loaded & NEVER, sorted(loaded & NEVER)
        assert "detect_secrets" not in loaded
        assert not (loaded - _brought_by_subprocess()) & {"contextlib", "threading"}
        statements = [(str(by), str(name)) for by, name in got["statements"]]  # type: ignore[misc]
        imported = {name for _, name in statements}
        roots = {name.split(".")[0] for name in imported} | imported
        assert not roots & NOT_BY_GARDENER, [
            (by, name) for by, name in statements if name in NOT_BY_GARDENER
        ]


def test_a_note_after_a_refusal_looks_up_its_hashes_without_heavy_imports(
    tmp_path: Path,
):
    ws, _ = Workspace.init(tmp_path / "ws")
    env = {**os.environ, "GARDENER_WORKSPACE": str(ws.root)}
    refused = subprocess.run(
        [sys.executable, "-m", "gardener", "note", "the vpn password: Zq4vT9wLmX"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert refused.returncode == 3
    assert (ws.root / ".gardener" / "refused").is_file()
    got = _note(ws.root, tmp_path / "report.json", "the cat is Miso")
    loaded = set(got["loaded"])
    assert "gardener.store.refused" in loaded
    assert not loaded & NEVER, sorted(loaded & NEVER)
    assert not {str(m) for m in loaded if str(m).startswith("gardener")} - HOT_PATH


def test_a_note_and_a_warm_recall_load_only_the_hot_path(tmp_path: Path):
    ws, _ = Workspace.init(tmp_path / "ws")
    loaded = set()
    for n, args in enumerate(
        [["the cat is Miso"], ["--json", "--kind", "decision", "--key", "db", "SQLite"]]
    ):
        loaded |= _gardener_modules(_note(ws.root, tmp_path / f"note{n}.json", *args))
    _run(ws.root, tmp_path / "cold.json", "recall", "cat")  # builds the index
    for n, args in enumerate([["cat"], ["--json", "--limit", "3", "db"]]):
        out, got = _run(ws.root, tmp_path / f"recall{n}.json", "recall", *args)
        assert "gardener.workspace" not in got["loaded"], "not a warm recall"
        loaded |= _gardener_modules(got)
    assert "gardener.recall.search" in loaded and "gardener.verbs.note" in loaded
    assert loaded <= HOT_PATH, sorted(loaded - HOT_PATH)


def _modules() -> dict[str, ast.Module]:
    """Every gardener module's name -> its parsed source."""
    package = Path(__file__).resolve().parents[1] / "gardener"
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = ast.parse(path.read_text(encoding="utf-8"))
    return found


# the modules allowed the one throughput trick, quick_init (docs/internals.md,
# "Bulk values"): a promote pass builds a hundred thousand of their values
THROUGHPUT = {"gardener.model.facts"}


def _tricks(tree: ast.Module, bulk: bool = False) -> list[str]:
    """The start-up tricks of docs/internals.md a module's source uses
    (``bulk``: quick_init is allowed)."""
    used = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "TYPE_CHECKING" for t in node.targets
        ):
            used.append(f"line {node.lineno}: TYPE_CHECKING = ... (import typing's)")
        elif isinstance(node, ast.ClassDef) and any(
            isinstance(b, ast.Name | ast.Attribute)
            and (b.id if isinstance(b, ast.Name) else b.attr) == "Record"
            for b in node.bases
        ):
            used.append(f"line {node.lineno}: class {node.name}(Record) (a dataclass)")
        elif isinstance(node, ast.ImportFrom) and any(
            a.name == "Record" or (a.name == "quick_init" and not bulk)
            for a in node.names
        ):
            names = ", ".join(a.name for a in node.names)
            used.append(f"line {node.lineno}: from {node.module} import {names}")
        elif not bulk and (
            (isinstance(node, ast.Name) and node.id == "quick_init")
            or (isinstance(node, ast.FunctionDef) and node.name == "quick_init")
        ):
            used.append(f"line {node.lineno}: quick_init (dataclass(slots=True))")
    return used


def test_only_the_hot_path_uses_the_start_up_tricks():
    modules = _modules()
    assert not HOT_PATH - set(modules), sorted(HOT_PATH - set(modules))
    used = {
        name: found
        for name, tree in modules.items()
        if name not in HOT_PATH and (found := _tricks(tree, name in THROUGHPUT))
    }
    assert used == {}
