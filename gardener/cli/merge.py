"""``gardener merge-memory``, ``merge-note`` and ``merge-union``: the merge
drivers git runs (``init`` registers them); hidden from ``--help``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from gardener.verbs.merge import merge_memory_files, merge_note_files, merge_union_files

_FILES = (
    click.argument("base", type=click.Path(dir_okay=False, exists=True)),
    click.argument("ours", type=click.Path(dir_okay=False, exists=True)),
    click.argument("theirs", type=click.Path(dir_okay=False, exists=True)),
    click.argument("path", required=False, default="MEMORY.md"),
)


def _files(func):  # type: ignore[no-untyped-def]
    for decorate in reversed(_FILES):
        func = decorate(func)
    return func


@click.command("merge-memory", hidden=True)
@_files
def merge_memory(base: str, ours: str, theirs: str, path: str) -> None:
    """Merge MEMORY.md (git's %O %A %B %P): entry by entry; exit 1 on a conflict."""
    done = merge_memory_files(Path(base), Path(ours), Path(theirs), path)
    for ident in done.conflicts:
        click.echo(
            f"gardener: {path}: entry #{ident} was changed differently on both sides;"
            " keep one version between the conflict markers",
            err=True,
        )
    if done.outside:
        click.echo(
            f"gardener: {path}: {done.outside} conflict(s) in the text outside the"
            " managed block",
            err=True,
        )
    for old, new in done.renamed:
        click.echo(
            f"gardener: {path}: their #{old} is #{new} now (ours used that id)",
            err=True,
        )
    if not done.clean:
        sys.exit(1)


@click.command("merge-union", hidden=True)
@_files
def merge_union(base: str, ours: str, theirs: str, path: str) -> None:
    """Merge a set-like state file (git's %O %A %B %P) as a set of lines."""
    merge_union_files(Path(base), Path(ours), Path(theirs), path)


@click.command("merge-note", hidden=True)
@_files
def merge_note(base: str, ours: str, theirs: str, path: str) -> None:
    """Merge a daily note (git's %O %A %B %P): both sides' lines, one front matter."""
    merge_note_files(Path(base), Path(ours), Path(theirs), path)
