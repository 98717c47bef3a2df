"""What the command line prints, and how errors end a run (no click here).

Shared by the click commands (``gardener.cli.*``) and the fast path for
``note`` and ``recall`` (``gardener.cli.fast``), so both print the same bytes
and exit with the same codes (named in gardener.errors; see docs/design.md).
"""

from __future__ import annotations

import os
import sys

from gardener.errors import EXIT_ERROR, GardenerError

# a warm recall prints through here: no json, typing or pathlib at import
TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path
    from typing import NoReturn

    from gardener.recall.hits import Hit
    from gardener.verbs.note import NoteResult
    from gardener.workspace import Workspace


def emit(data: object) -> None:
    """One JSON document on stdout (UTF-8 as is, indented)."""
    import json

    say(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def say(line: str, err: bool = False) -> None:
    """One line on stdout (or stderr), flushed."""
    stream = sys.stderr if err else sys.stdout
    stream.write(line + "\n")
    stream.flush()


def fail(exc: BaseException, as_json: bool = False) -> NoReturn:
    """End the run for a GardenerError (its exit code) or an OSError (exit 1).

    One line ``gardener: path:line: message`` on stderr; with ``--json`` also
    an error document on stdout. Other exceptions are re-raised.
    """
    if isinstance(exc, GardenerError):
        if as_json:
            emit(
                {
                    "error": exc.location_message(),
                    "exit_code": exc.exit_code,
                    "path": exc.path,
                    "line": exc.line,
                }
            )
        say(f"gardener: {exc.location_message()}", err=True)
        sys.exit(exc.exit_code)
    if isinstance(exc, BrokenPipeError):
        # the reader went away (`gardener review | head`): nothing to tell it;
        # stdout is pointed at devnull so the interpreter's flush stays quiet
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(EXIT_ERROR)
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        say(f"gardener: {where}{exc.strerror or exc}", err=True)
        sys.exit(EXIT_ERROR)
    raise exc


def warn_if_not_set_up(folder: str) -> None:
    """One line on stderr when the workspace at ``folder`` lacks its hook or
    merge drivers (``gardener.git.setup.warning``): a stat and a read."""
    from gardener.git.setup import warning

    line = warning(folder)
    if line:
        say(line, err=True)


def open_workspace(root: Path) -> Workspace:
    """The workspace at ``root``; GardenerError (exit 1) if it has no git repository."""
    from gardener.workspace import Workspace

    if not (root / ".git").exists():
        raise GardenerError(_not_a_workspace(root))
    return Workspace(root)


def _not_a_workspace(root: Path) -> str:
    """Why ``root`` is no workspace, and what to run instead. Inside a
    workspace's subfolder, ``init`` would make a second workspace in the
    first: the message names the workspace to use instead."""
    if not root.exists():
        return f"{root} does not exist; create a workspace there with: gardener init {root}"
    for parent in root.resolve().parents:
        if (parent / ".git").exists():
            if any((parent / name).exists() for name in ("MEMORY.md", "rules.md")):
                return (
                    f"{root} is not a gardener workspace, but {parent} is: run"
                    f" gardener there, or with -w {parent}"
                )
            break  # a folder of another git repository
    return f"{root} is not a gardener workspace; create one with: gardener init {root}"


def print_note(result: NoteResult, as_json: bool) -> None:
    """What ``gardener note`` prints: the note and the line written; each
    warning (a deleted note restored, a stale lock removed) on stderr, with
    ``--json`` too (and in its ``warnings``)."""
    for warning in result.warnings:
        say(f"warning: {warning}", err=True)
    if as_json:
        emit(result.as_dict())
    else:
        say(f"{result.path}: {result.line}")


def print_hits(
    hits: Sequence[Hit], as_json: bool, empty: str = "nothing found"
) -> None:
    """What ``gardener recall`` prints: one line per hit, or a JSON document;
    ``empty`` when there is none."""
    if as_json:
        emit({"results": [h.as_dict() for h in hits]})
        return
    if not hits:
        say(empty)
    for h in hits:
        valid = f"since {h.since}" + (f" until {h.until}" if h.until else "")
        if h.since is None and h.until is None:  # curated text: no valid time
            valid = ""
        say(f"[{h.status}] {h.text}  ({valid}{'; ' if valid else ''}{h.path}:{h.line})")
