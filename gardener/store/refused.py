"""The memory of refused values: keyed hashes of each secret value never-store
refused or redacted, so that the value is refused (or redacted) again when it
comes back without the label that gave it away (``- Zq4vT9wLmX opens it``).

``.gardener/refused`` holds one line per value: how many words it has, a tab,
and its keyed BLAKE2b hash (hex) of its normalized form (NFKC, runs of white
space made one space). The key is ``.gardener/salt``, purge's. Both files stay
on this machine: ``.git/info/exclude`` keeps them out of ``git add``, and the
pre-commit hook refuses them (``gardener.verbs.check``). A note looks values
up here only when the file exists, at the cost of one hash per word.
"""

from __future__ import annotations

import os
import re

from gardener.files.layout import REFUSED, SALT

try:  # hashlib would load OpenSSL's bindings (~5 ms), on the note's hot path
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

TYPE_CHECKING = False  # mypy reads this as typing's
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

Memory = tuple[bytes, dict[int, frozenset[str]]]  # salt, word count -> hashes
MIN_CHARS = 6  # a shorter value would be found inside ordinary words and numbers
MIN_DIGITS = 8  # a value of digits alone: shorter ones are years, counts, ids
_WORD = re.compile(r"\S+")
_EDGE = "\"'`()[]{}<>,.;:!?*"  # stripped from a word's ends before it is hashed
_SEPARATORS = re.compile(r"[:=@/|,;]")


def normal(value: str) -> str:
    """The form a value is hashed in: NFKC, white space runs made one space."""
    if not value.isascii():
        import unicodedata  # ~0.4 ms, only for a value outside ASCII

        value = unicodedata.normalize("NFKC", value)
    return " ".join(value.split())


def worth_remembering(value: str) -> bool:
    """Whether ``value`` is long enough to refuse wherever it appears again."""
    value = normal(value).strip(_EDGE)
    if len(value) < MIN_CHARS:
        return False
    return not value.isdigit() or len(value) >= MIN_DIGITS


def digest(value: str, salt: bytes) -> str:
    """The keyed hash (hex) of ``value``'s normal form."""
    return blake2b(
        normal(value).encode("utf-8", "surrogateescape"), key=salt, digest_size=20
    ).hexdigest()


def read(root: str) -> Memory | None:
    """The salt and the hashes by word count; None without both files."""
    try:
        with open(os.path.join(root, SALT), encoding="ascii") as file:
            salt = bytes.fromhex(file.read().strip())
        with open(os.path.join(root, REFUSED), encoding="ascii") as file:
            lines = file.read().split("\n")
    except (OSError, ValueError):
        return None
    by_words: dict[int, set[str]] = {}
    for line in lines:
        words, _, digest_hex = line.partition("\t")
        if words.isdigit() and digest_hex:
            by_words.setdefault(int(words), set()).add(digest_hex)
    if not salt or not by_words:
        return None
    return salt, {k: frozenset(v) for k, v in by_words.items()}


def _stripped(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` without the punctuation at its ends (``_EDGE``)."""
    while start < end and text[start] in _EDGE:
        start += 1
    while end > start and text[end - 1] in _EDGE:
        end -= 1
    return start, end


def candidates(text: str, words: Iterable[int]) -> list[tuple[int, int]]:
    """The spans of ``text`` a remembered value could be: each run of ``k``
    words (for each ``k`` in ``words``), its ends' punctuation stripped; for
    one word also its pieces between ``:=@/|,;`` (``user:VALUE``)."""
    found = [m.span() for m in _WORD.finditer(text)]
    out: list[tuple[int, int]] = []
    for k in sorted(set(words)):
        for i in range(len(found) - k + 1):
            s, e = _stripped(text, found[i][0], found[i + k - 1][1])
            if e - s >= MIN_CHARS:
                out.append((s, e))
            if k != 1:
                continue
            pos = s
            for cut in [*(m.start() for m in _SEPARATORS.finditer(text, s, e)), e]:
                ps, pe = _stripped(text, pos, cut)
                if pe - ps >= MIN_CHARS and (ps, pe) != (s, e):
                    out.append((ps, pe))
                pos = cut + 1
    return out


def lookup(text: str, memory: Memory) -> list[tuple[int, int]]:
    """The spans of ``text`` holding a remembered value, sorted."""
    salt, by_words = memory
    hits = []
    for s, e in candidates(text, by_words):
        value = text[s:e]
        if digest(value, salt) in by_words.get(len(value.split()), ()):
            hits.append((s, e))
    return sorted(set(hits))


def finder(root: str) -> Callable[[str], list[tuple[int, int]]] | None:
    """``lookup`` bound to the workspace's memory; None when it has none."""
    memory = read(root)
    if memory is None:
        return None
    return lambda text: lookup(text, memory)


_LIST = re.compile(r"[\s,;/|]+")


def _codes(value: str) -> list[str]:
    """The items of a list of codes (recovery codes: ``30849-36545, 96760-40859``),
    each remembered too, so one code alone comes back refused; a list is two or
    more items, each with a digit (a passphrase's words are never split)."""
    parts = [p for p in _LIST.split(value) if p]
    if len(parts) < 2 or not all(any(c.isdigit() for c in p) for p in parts):
        return []
    return parts


def remember(root: str, values: Iterable[str]) -> int:
    """Add the keyed hashes of ``values`` (those ``worth_remembering``) to the
    memory, creating the salt if need be; returns how many were new."""
    from pathlib import Path

    from gardener.store.purged import exclude_locally, make_salt

    values = [*values]
    values += [p for v in values for p in _codes(v)]
    wanted = {normal(v).strip(_EDGE) for v in values if worth_remembering(v)}
    if not wanted:
        return 0
    folder = Path(root)
    salt = make_salt(folder)
    exclude_locally(folder, [SALT, REFUSED])
    known = read(root)
    have = known[1] if known and known[0] == salt else {}
    lines = [
        f"{len(v.split())}\t{h}\n"
        for v in sorted(wanted)
        if (h := digest(v, salt)) not in have.get(len(v.split()), ())
    ]
    if lines:
        fd = os.open(folder / REFUSED, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, "".join(dict.fromkeys(lines)).encode("ascii"))
        finally:
            os.close(fd)
    return len(lines)
