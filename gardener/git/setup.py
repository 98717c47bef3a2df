"""What a clone needs that git does not clone: the pre-commit hook and the
merge drivers in its config; how to tell, cheaply, that one is missing.

``warning`` runs before every gardener command, ``note`` and ``recall`` too: a
few stats and one small read of the config, no git process, nothing imported
(``git_dir_of`` is in ``gardener.files.layout``, so ``gardener.git.run``, which
loads subprocess, is not).
"""

from __future__ import annotations

import os

from gardener.files.layout import git_dir_of

TYPE_CHECKING = False  # on the hot path: typing is not imported
if TYPE_CHECKING:
    from gardener.git.run import Runner

# the drivers .gitattributes names: ``merge.<name>.driver`` in .git/config
MEMORY_DRIVER = "gardener-memory"
UNION_DRIVER = "gardener-union"
NOTE_DRIVER = "gardener-note"
DRIVERS = {
    MEMORY_DRIVER: ("merge-memory", "memory-gardener: MEMORY.md merged entry by entry"),
    NOTE_DRIVER: (
        "merge-note",
        "memory-gardener: daily notes merged keeping both sides, one front matter",
    ),
    UNION_DRIVER: (
        "merge-union",
        "memory-gardener: set-like state merged as sets of lines",
    ),
}


def common_dir(git_dir: str) -> str:
    """Where a work tree's hooks and config live: the repository's own git
    folder for a linked worktree (its ``commondir`` file), else ``git_dir``."""
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as f:
            pointed = f.read().strip()
    except OSError:
        return git_dir
    return os.path.normpath(os.path.join(git_dir, pointed))


def missing(git_dir: str) -> list[str]:
    """What the clone whose git folder is ``git_dir`` lacks: ``pre-commit hook``
    and/or ``merge drivers`` (none, or not all, in its config)."""
    common = common_dir(git_dir)
    out = []
    if not os.path.exists(os.path.join(common, "hooks", "pre-commit")):
        out.append("pre-commit hook")
    try:
        with open(
            os.path.join(common, "config"), encoding="utf-8", errors="replace"
        ) as f:
            config = f.read()
    except OSError:
        config = ""
    if any(f'[merge "{name}"]' not in config for name in DRIVERS):
        out.append("merge drivers")
    return out


def warning(root: str) -> str | None:
    """One line saying what the gardener workspace at ``root`` lacks and how
    to fix it, or None (set up, or not a gardener workspace: no ``.gardener``
    folder or no git folder)."""
    if not os.path.isdir(os.path.join(root, ".gardener")):
        return None
    git_dir = git_dir_of(root)
    if git_dir is None:
        return None
    lacks = missing(git_dir)
    if not lacks:
        return None
    return (
        f"gardener: this clone has no {' and no '.join(lacks)} (git does not clone them);"
        " run `gardener init .` to set it up"
    )


def driver_command(python: str, verb: str) -> str:
    """The ``merge.<name>.driver`` line: git runs it with a shell, in the
    work tree's top folder."""
    import shlex

    return f"{shlex.quote(python)} -m gardener {verb} %O %A %B %P"


def register_drivers(repo: Runner, python: str) -> list[str]:
    """Write the merge drivers into the clone's config (``git config``) where
    missing or different; returns the names written."""
    written = []
    for name, (verb, title) in DRIVERS.items():
        wanted = {"name": title, "driver": driver_command(python, verb)}
        for field, value in wanted.items():
            setting = f"merge.{name}.{field}"
            status, out = repo.run("config", "--get", setting, ok=(0, 1))
            if status == 0 and out.decode("utf-8", "replace").strip() == value:
                continue
            repo.run("config", setting, value)
            if name not in written:
                written.append(name)
    return written
