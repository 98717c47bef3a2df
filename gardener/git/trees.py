"""Temporary work trees: what ``Repo.commit(texts=...)`` commits, where git reads it.

A commit of given texts must not take what the files hold when git reads them
(a writer may append meanwhile, unscanned for secrets). So the texts are
written into a fresh folder in the git folder (on the same file system),
git is pointed at it as its work tree, and the folder is removed afterwards;
those left by processes that died are removed the next time. On
``gardener note``'s path: os.path strings, no pathlib, contextlib or shutil
at import.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping

from gardener.files.layout import path_text
from gardener.files.lock import process_ended


def new_tree(git_folder: str) -> str:
    """A name for a new temporary work tree in ``git_folder``:
    ``gardener/tree-<pid>-<n>`` in it (not created yet)."""
    return os.path.join(
        git_folder, "gardener", f"tree-{os.getpid()}-{time.monotonic_ns()}"
    )


def freeze(tree: str, texts: Mapping[str, str]) -> str:
    """Write ``texts`` (workspace-relative path -> text) into the new folder
    ``tree`` (``new_tree``), a temporary work tree for ``Repo.commit``; returns
    ``tree``. Those of processes that died before they removed theirs are
    removed first."""
    _clear_dead_trees(os.path.dirname(tree))
    for rel, text in texts.items():
        path = path_text(os.path.join(tree, rel))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as file:
            file.write(text.encode("utf-8", "surrogateescape"))
    return tree


def thaw(tree: str, texts: Mapping[str, str]) -> None:
    """Remove what ``freeze(tree, texts)`` wrote, or began to."""
    paths = [path_text(os.path.join(tree, rel)) for rel in texts]
    for path in paths:
        try:  # noqa: SIM105  # contextlib.suppress: an import a note avoids
            os.unlink(path)
        except OSError:
            pass
    for path in paths:  # the folders it made, deepest first
        folder = os.path.dirname(path)
        while folder != os.path.dirname(tree):
            try:  # noqa: SIM105
                os.rmdir(folder)
            except OSError:
                pass
            folder = os.path.dirname(folder)


def _clear_dead_trees(folder: str) -> None:
    """Remove the temporary work trees (``freeze``) of processes that died
    before they could: ``tree-<pid>-<n>`` whose pid is gone."""
    try:
        names = [n for n in os.listdir(folder) if n.startswith("tree-")]
    except OSError:
        return
    for name in names:
        try:
            if not process_ended(int(name.split("-")[1])):
                continue  # alive (or reused: it is left for a later pass)
        except (ValueError, IndexError):
            pass
        import shutil

        shutil.rmtree(os.path.join(folder, name), ignore_errors=True)
