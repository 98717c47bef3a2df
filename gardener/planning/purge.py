"""Purge matching, pure: the text to erase, its cut forms, the hashes of its
normalized form, and finding a purged text again by those hashes alone.

A purge keeps no copy of what it erased, only hashes of the normalized text:

- a **sealed** record (``Sealed``, committed, so every clone can check it): a
  slow salted scrypt hash with its own salt and the text's shape (length,
  words, the kind of its first and last character). Checked only on windows
  at word edges of that shape (``windows``): a purged text glued inside a
  longer word is not found by it.
- a **fast** pair (length, keyed BLAKE2b; the key is a machine's git-ignored
  salt): every window is checked (``refused_by_purge``). A machine keeps one
  for each purged text it has met (it purged it, or found it in a write or in
  its history), so it checks that text fast and everywhere from then on.

``Register`` holds both; ``scrub`` takes purged texts out of a text. The
files are ``gardener.store.purged``; the verb is ``gardener.verbs.purge``.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from gardener.errors import UsageError

REPLACEMENT = "[PURGED]"
MIN_LENGTH = 4  # shorter texts are too broad to erase everywhere
CUT = "…"  # what a cut commit subject ends with (see ``variants``)
_SHORTEST_CUT = 4  # characters of the text a cut form keeps, at least


# -- matching the text itself --------------------------------------------------


def variants(text: str) -> list[str]:
    """``text``, then each cut form a commit message may hold: a prefix of it
    (spaces squeezed, as a note's commit subject is written) of at least
    ``_SHORTEST_CUT`` characters ending in ``…`` (a note's commit subject is
    its text cut at 60 characters, a promote message's lines at 90). Longest
    first, so a match takes the most it can."""
    squeezed = " ".join(text.split())
    cuts = range(len(squeezed) - 1, min(_SHORTEST_CUT, len(squeezed)) - 1, -1)
    return [text, *(squeezed[:k] + CUT for k in cuts)]


def needle_regex(text: str) -> str:
    """The regex (source) purge erases: any of ``variants(text)``, a run of
    white space in them matching any run (a subject squeezes "A  B" to
    "A B"; a person may type "A B" for a file's "A  B")."""
    forms = dict.fromkeys(variants(text))
    return "|".join(
        r"\s+".join(re.escape(word) for word in re.split(r"\s+", form.strip()))
        for form in forms
        if form.strip()
    )


@dataclass(frozen=True)
class Needle:
    """The text to purge, matched in bytes: exactly but for runs of white
    space, or ignoring letter case too; with its cut forms (``needle_regex``),
    which only commit messages hold.

    The filter-repo driver of ``gardener.git.rewrite.rewrite_history`` matches
    the same way.
    """

    text: str
    ignore_case: bool = False

    @cached_property
    def _pattern(self) -> re.Pattern[str]:
        flags = re.IGNORECASE if self.ignore_case else 0
        return re.compile(needle_regex(self.text), flags)

    @cached_property
    def _bytes_pattern(self) -> re.Pattern[bytes]:
        return re.compile(needle_regex(self.text).encode("utf-8", "surrogateescape"))

    def count(self, data: bytes) -> int:
        """How often the text (or a cut form of it) occurs in ``data``."""
        if not self.ignore_case:
            return len(self._bytes_pattern.findall(data))
        return len(self._pattern.findall(data.decode("utf-8", "surrogateescape")))

    def sub(self, data: bytes) -> bytes:
        """``data`` with every occurrence replaced by ``[PURGED]``."""
        if not self.ignore_case:
            return self._bytes_pattern.sub(REPLACEMENT.encode(), data)
        return self.mask(data.decode("utf-8", "surrogateescape")).encode(
            "utf-8", "surrogateescape"
        )

    def mask(self, text: str) -> str:
        return self._pattern.sub(lambda _m: REPLACEMENT, text)


def check_text(text: str) -> None:
    """Raise UsageError (exit 2) for a text too short or too broad to purge."""
    if len(text.strip()) < MIN_LENGTH or len(normalize(text)) < MIN_LENGTH:
        raise UsageError(
            f"refusing to purge a text shorter than {MIN_LENGTH} characters: it is too broad (it would erase it inside other words everywhere)"
        )


# -- finding a purged text again by its keyed hash ---------------------------------


def normalize(text: str) -> str:
    """The form a purged text is hashed in: casefolded, NFKC, each
    punctuation mark or symbol (Unicode categories P and S: ``-``, ``'``,
    ``.``, ``+``) made a space, runs of white space made one space, ends
    trimmed. ``Zorblax-Hexagon`` and ``zorblax  HEXAGON`` are ``zorblax hexagon``."""
    folded = unicodedata.normalize(
        "NFKC", unicodedata.normalize("NFKC", text).casefold()
    )
    if folded.isascii():
        return " ".join(folded.translate(_ASCII_MARKS).split())
    spaced = "".join(" " if unicodedata.category(c)[0] in "PS" else c for c in folded)
    return " ".join(spaced.split())


# ASCII punctuation and symbols (categories P and S) -> a space
_ASCII_MARKS = str.maketrans(
    {c: " " for c in map(chr, range(128)) if unicodedata.category(c)[0] in "PS"}
)


def legacy_normalize(text: str) -> str:
    """The form registers made before punctuation counted as a space hashed
    (casefolded, NFKC, white space collapsed): their records are still
    matched against it (``forms``)."""
    folded = unicodedata.normalize(
        "NFKC", unicodedata.normalize("NFKC", text).casefold()
    )
    return " ".join(folded.split())


def forms(text: str) -> list[str]:
    """The normalized forms of ``text`` a purged text is looked for in:
    ``normalize``'s, and ``legacy_normalize``'s when it differs (a record
    of an older register hashed a text that kept its punctuation)."""
    return list(dict.fromkeys((normalize(text), legacy_normalize(text))))


def purge_hash(text: str, salt: bytes) -> str:
    """The keyed hash of an already normalized text (hex)."""
    digest = hashlib.blake2b(
        text.encode("utf-8", "surrogateescape"), key=salt, digest_size=32
    )
    return digest.hexdigest()


# scrypt's cost for new sealed records: 1 MiB of memory, a few ms a hash
# (bench/README.md, Purged texts); each record keeps the parameters it was made with
SCRYPT_N, SCRYPT_R, SCRYPT_P = 1 << 10, 8, 1
SEALED_KIND = "scrypt"


@dataclass(frozen=True)
class Sealed:
    """A committed record of a purged text: ``scrypt(normalized text, salt)``.

    ``shape`` is ``"LENGTH:WORDS:FL"``: the normalized text's length, its
    number of words and the kinds (``_kind``) of its first and last
    character, so that only windows of that shape are hashed.
    """

    purge_id: str
    salt: bytes
    shape: str
    digest: str
    n: int = SCRYPT_N
    r: int = SCRYPT_R
    p: int = SCRYPT_P

    def matches(self, norm: str) -> bool:
        """True if the normalized ``norm`` is the purged text (one scrypt)."""
        return sealed_hash(norm, self.salt, self.n, self.r, self.p) == self.digest


def _kind(c: str) -> str:
    return "d" if c.isdigit() else "l" if c.isalnum() else "o"


def shape(norm: str) -> str:
    """``"LENGTH:WORDS:FL"`` of a normalized, non-empty text (see ``Sealed``)."""
    return f"{len(norm)}:{norm.count(' ') + 1}:{_kind(norm[0])}{_kind(norm[-1])}"


def sealed_hash(norm: str, salt: bytes, n: int, r: int, p: int) -> str:
    """The scrypt hash (hex, 32 bytes) of an already normalized text."""
    data = norm.encode("utf-8", "surrogateescape")
    return hashlib.scrypt(data, salt=salt, n=n, r=r, p=p, dklen=32).hex()


def seal(text: str, purge_id: str, salt: bytes) -> Sealed:
    """The sealed record of ``text`` (normalized here) under ``salt``."""
    norm = normalize(text)
    digest = sealed_hash(norm, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return Sealed(purge_id, salt, shape(norm), digest)


def windows(norm: str, wanted: str) -> Iterator[str]:
    """The stretches of the normalized ``norm`` of shape ``wanted`` that
    start and end at a word edge: not between two letters or digits."""
    length_s, words_s, kinds = wanted.split(":")
    length, spaces = int(length_s), int(words_s) - 1
    if length < 1 or length > len(norm):
        return
    for start in range(len(norm) - length + 1):
        end = start + length
        if start and norm[start - 1].isalnum() and norm[start].isalnum():
            continue
        if end < len(norm) and norm[end - 1].isalnum() and norm[end].isalnum():
            continue
        if _kind(norm[start]) + _kind(norm[end - 1]) != kinds:
            continue
        window = norm[start:end]
        if window.count(" ") == spaces:
            yield window


@dataclass(frozen=True)
class Register:
    """The purged texts a machine can check: ``fast`` (length, keyed hash)
    pairs under its ``salt``, and ``sealed`` records it has not met yet
    (those it has met are in ``fast`` too). Empty: nothing was purged."""

    salt: bytes = b""
    fast: frozenset[tuple[int, str]] = frozenset()
    sealed: tuple[Sealed, ...] = field(default=())

    def __bool__(self) -> bool:
        return bool(self.sealed or (self.fast and self.salt))

    def found(self, text: str) -> list[tuple[Sealed, str]]:
        """The sealed records whose text ``text`` holds, each with that
        normalized text: one scrypt per window of its shape."""
        if not self.sealed:
            return []
        norms = forms(text)
        hits = []
        for record in self.sealed:
            seen = dict.fromkeys(
                w for norm in norms for w in windows(norm, record.shape)
            )
            for window in seen:
                if record.matches(window):
                    hits.append((record, window))
                    break
        return hits

    def knowing(self, found: Sequence[tuple[Sealed, str]]) -> Register:
        """This register with the texts of ``found`` checked fast: their
        pairs added (under ``salt``, or a fixed key in memory if there is
        none), their sealed records dropped."""
        salt = self.salt or bytes(32)
        pairs = {(len(norm), purge_hash(norm, salt)) for _, norm in found}
        ids = {record.purge_id for record, _ in found}
        rest = tuple(r for r in self.sealed if r.purge_id not in ids)
        return Register(salt, self.fast | pairs, rest)

    def holds(self, text: str) -> bool:
        """True if ``text`` holds a purged text (case, width, spacing ignored)."""
        return refused_by_purge(text, self.salt, self.fast) or bool(self.found(text))


def refused_by_purge(
    text: str, salt: bytes, hashes: Collection[tuple[int, str]]
) -> bool:
    """True if ``text`` holds a purged text (case, width and spacing ignored).

    ``hashes`` are (length, hash) pairs of normalized purged texts, as
    ``read_purged`` returns them. Every window of each purged length over the
    normalized ``text`` is hashed: linear in ``len(text)`` per distinct length.
    """
    if not hashes or not salt:
        return False
    wanted = {digest for _, digest in hashes}
    lengths = {n for n, _ in hashes}
    for norm in forms(text):
        for length in lengths:
            for start in range(len(norm) - length + 1):
                if purge_hash(norm[start : start + length], salt) in wanted:
                    return True
    return False


def scrub(
    text: str, register: Register, known: Collection[str] = ()
) -> tuple[str, list[int]]:
    """``text`` with each purged text in it replaced by ``[PURGED]``, and the
    1-based numbers of the lines that held one (none: the same ``text``).

    For a purged text that came back another way than ``note`` (an agent
    writing the file itself): only keyed hashes are kept, so each line that
    ``refused_by_purge`` flags is narrowed to the shortest stretch that still
    holds it (two binary searches over its ends), and that is replaced;
    again until the line holds none. Then each two lines in a row, for a
    text split across them (an agent wrapping a line): the line break inside
    goes with it. A text split over three lines or more is not found.
    ``known``: lines known to hold none (a file's committed lines: the purge
    erased it from every commit), passed over, so the cost follows the new
    lines: every window of every line is hashed. ``register``'s sealed
    records are looked for once in the new lines (``Register.found``); the
    texts found are then narrowed with fast hashes like the others.
    """
    if not register:
        return text, []
    lines = text.split("\n")
    fresh = [line not in known for line in lines]
    new_text = "\n".join(line for line, new in zip(lines, fresh, strict=True) if new)
    register = register.knowing(register.found(new_text))
    salt, hashes = register.salt, register.fast
    if not hashes:
        return text, []
    hit: list[int] = []
    for i, line in enumerate(lines):
        if fresh[i]:
            cleaned = _scrub_one(line, salt, hashes)
            if cleaned != line:
                lines[i] = cleaned
                hit.append(i + 1)
    # a text wrapped onto the next line: the pair is narrowed as one, and what
    # replaces it takes the first line's place (normalizing makes "\n" a space)
    i = 0
    while i + 1 < len(lines):
        if fresh[i] or fresh[i + 1]:
            pair = lines[i] + "\n" + lines[i + 1]
            cleaned = _scrub_one(pair, salt, hashes)
            if cleaned != pair:
                head, _, tail = cleaned.partition("\n")
                lines[i : i + 2] = [head, tail] if _ else [head]
                fresh[i : i + 2] = [True, True] if _ else [True]
                hit.append(i + 1)
                continue
        i += 1
    return ("\n".join(lines), sorted(set(hit))) if hit else (text, [])


def _scrub_one(text: str, salt: bytes, hashes: Collection[tuple[int, str]]) -> str:
    """``text`` with each purged text replaced, narrowed one at a time."""
    for _ in range(len(text)):
        if not refused_by_purge(text, salt, hashes):
            return text
        start, end = _narrow(text, salt, hashes)
        text = text[:start] + REPLACEMENT + text[end:]
    # the marker itself completes a purged text: the whole of it goes
    return REPLACEMENT if refused_by_purge(text, salt, hashes) else text


def _narrow(
    line: str, salt: bytes, hashes: Collection[tuple[int, str]]
) -> tuple[int, int]:
    """The shortest ``line[start:end]`` that still holds a purged text (the
    line holds one): the last start that does, then the first end."""

    def holds(start: int, end: int) -> bool:
        return refused_by_purge(line[start:end], salt, hashes)

    start = _last_true(0, len(line), lambda i: holds(i, len(line)))
    return start, _first_true(start, len(line), lambda j: holds(start, j))


def _last_true(low: int, high: int, holds: Callable[[int], bool]) -> int:
    """The largest i in [low, high] with ``holds(i)``, for a ``holds`` true up
    to some point and false after it, and true at ``low``."""
    while low < high:
        middle = (low + high + 1) // 2
        if holds(middle):
            low = middle
        else:
            high = middle - 1
    return low


def _first_true(low: int, high: int, holds: Callable[[int], bool]) -> int:
    """The smallest j in [low, high] with ``holds(j)``, for a ``holds`` false up
    to some point and true after it, and true at ``high``."""
    while low < high:
        middle = (low + high) // 2
        if holds(middle):
            high = middle
        else:
            low = middle + 1
    return low
