"""The ``show`` verb: lines of one memory file, secrets redacted. Only reads.

It reads MEMORY.md, rules.md and the files under the notes folder, and
nothing else: an agent's ``memory_get`` goes through here (gardener.mcp), and
the rest of the workspace (``.git``, ``.gardener``) is not memory.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from gardener.errors import GardenerError, UsageError
from gardener.files.layout import inside, is_dir, path_text
from gardener.files.read import read_text
from gardener.model.config import Config
from gardener.neverstore import redact

RULES_FILE = "rules.md"
MAX_LINES = 2000  # lines one show returns at most, whatever ``lines`` asks


@dataclass(frozen=True)
class ShowResult:
    path: str  # as given, relative to the workspace, with "/"
    text: str  # the lines shown, secrets redacted; "" for a missing file
    start: int  # the first line shown, 1-based
    lines: int  # how many lines are shown
    total: int  # lines in the whole file (0 when missing)
    exists: bool

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "text": self.text,
            "from": self.start,
            "lines": self.lines,
            "total": self.total,
            "exists": self.exists,
        }


def shown_path(root: Path, config: Config, path: str) -> str:
    """``path`` as a workspace-relative name with "/", if it is MEMORY.md,
    rules.md or under the notes folder and stays in ``root``; GardenerError
    naming what may be read otherwise."""
    text = path_text(path.replace("\\", "/"))
    if text.startswith("/"):
        absolute = os.path.realpath(text)
        top = os.path.realpath(root)
        text = (
            path_text(os.path.relpath(absolute, top))
            if os.path.commonpath([top, absolute]) == top
            else text
        )
    notes = path_text(config.notes_dir)
    allowed = text in (path_text(config.memory_file), RULES_FILE) or (
        text.startswith(notes + "/") and ".." not in text.split("/")
    )
    if not allowed or not inside(root, text):
        raise GardenerError(
            f"{path!r} is not a memory file: show reads only {config.memory_file},"
            f" {RULES_FILE} and {notes}/** inside the workspace (try: gardener show"
            f" {config.memory_file})"
        )
    return text


def show(
    root: Path, config: Config, path: str, start: int = 1, lines: int | None = None
) -> ShowResult:
    """Lines ``start`` (1-based) on of the memory file ``path``, at most
    ``lines`` of them (all by default, never more than ``MAX_LINES``), with
    every never-store match replaced by ``[REDACTED:<rule>]`` and line
    numbers kept (a redacted span keeps its line breaks).

    A missing file gives empty text (``exists`` False). Raises GardenerError
    for a path outside the memory files or a folder, UsageError for
    ``start`` < 1 or ``lines`` < 1.
    """
    if start < 1 or (lines is not None and lines < 1):
        raise UsageError("the first line is 1 or more, and the count 1 or more")
    rel = shown_path(root, config, path)
    full = os.path.join(root, rel)
    if is_dir(full):
        raise GardenerError(f"{rel} is a folder; show reads one file")
    try:
        text = read_text(full)
    except FileNotFoundError:
        return ShowResult(rel, "", start, 0, 0, False)
    text = redacted(text, config)
    all_lines = text.splitlines(keepends=True)
    count = min(lines or MAX_LINES, MAX_LINES)
    picked = all_lines[start - 1 : start - 1 + count]
    return ShowResult(rel, "".join(picked), start, len(picked), len(all_lines), True)


def redacted(text: str, config: Config) -> str:
    """``text`` with each never-store match replaced by ``[REDACTED:<rule>]``
    and the line breaks inside it kept, so the lines keep their numbers."""
    found = redact.find(text, config.never_store, config.allow)
    out, pos = [], 0
    for f in found:
        out += [text[pos : f.start], f"[REDACTED:{f.rule}]"]
        out.append("\n" * text.count("\n", f.start, f.end))
        pos = f.end
    out.append(text[pos:])
    return "".join(out)
