"""``git merge-file``: a three-way merge of three texts as git merges a file."""

from __future__ import annotations

import os
import subprocess
import tempfile

from gardener.errors import GardenerError

_GIT = os.environ.get("GIT_PYTHON_GIT_EXECUTABLE") or "git"


def merge_file(
    base: str,
    ours: str,
    theirs: str,
    labels: tuple[str, str, str] = ("ours", "base", "theirs"),
    union: bool = False,
) -> tuple[str, int]:
    """The three texts merged line by line: (merged text, number of conflicts).

    A conflict is written between ``<<<<<<< ours`` and ``>>>>>>> theirs``
    lines, as git writes one; with ``union``, both sides' lines are kept
    instead (git's ``merge=union``), never a conflict. Raises GardenerError
    when git fails.
    """
    with tempfile.TemporaryDirectory(prefix="gardener-merge-") as folder:
        names = []
        for name, text in zip(
            ("ours", "base", "theirs"), (ours, base, theirs), strict=True
        ):
            path = os.path.join(folder, name)
            with open(
                path, "w", encoding="utf-8", errors="surrogateescape", newline=""
            ) as f:
                f.write(text)
            names.append(path)
        argv = [
            _GIT,
            "merge-file",
            "-p",
            *(["--union"] if union else []),
            "-L",
            labels[0],
            "-L",
            labels[1],
            "-L",
            labels[2],
            *names,
        ]
        done = subprocess.run(argv, capture_output=True, check=False)
    # the exit status is the number of conflicts (capped at 127), negative on error
    if done.returncode < 0 or done.returncode > 127:
        err = done.stderr.decode("utf-8", "replace").strip()
        raise GardenerError(f"`git merge-file` failed (exit {done.returncode}): {err}")
    return done.stdout.decode("utf-8", "surrogateescape"), done.returncode
