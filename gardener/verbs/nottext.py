"""Files that are not text (a NUL byte, bytes that are not UTF-8): never rewritten.

A binary dropped into the notes folder, or a note another tool saved in
Latin-1, is committed as it is, byte for byte: redacting a secret in it would
change a file the gardener cannot read as text. When the scan finds a secret
in one (a never-store rule, a value refused before, a purged text), the file
is neither redacted nor committed: it stays on disk, with a warning naming
the file and the lines, until a person re-saves it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gardener.files.read import not_text
from gardener.model.config import Config
from gardener.store import refused
from gardener.verbs.guard import purged_scrubber
from gardener.verbs.secrets import file_secrets


def not_text_files(
    root: Path, paths: Sequence[str], config: Config
) -> tuple[set[str], dict[str, str]]:
    """Of ``paths`` (workspace-relative), those that are not text, and of
    those the ones holding a secret, which must not be committed: each with
    its warning (the file, the line and byte that make it no text, the
    lines holding a secret)."""
    odd: set[str] = set()
    held: dict[str, str] = {}
    scrub = None
    for rel in paths:
        path = root / rel
        if path.is_symlink() or not path.is_file():
            continue
        try:
            data = path.read_bytes()
        except OSError:
            continue
        why = not_text(data)
        if why is None:
            continue
        odd.add(rel)
        text = data.decode("utf-8", "surrogateescape")
        lines = {
            p.line for p in file_secrets(rel, text, config, refused.finder(str(root)))
        }
        scrub = scrub or purged_scrubber(root)
        lines |= set(scrub(text)[1]) if scrub is not None else set()
        if lines:
            shown = ", ".join(str(n) for n in sorted(x for x in lines if x)[:5])
            held[rel] = (
                f"{rel}:{why[0]}: not text ({why[1]}), and line(s) {shown} hold a"
                " secret: not committed, and not redacted (that would change a file"
                " that is not text); remove the secret or re-save the file as UTF-8"
            )
    return odd, held
