"""Wallet seed phrases: 12 to 24 words of one BIP-39 word list in a row.

A seed phrase opens a wallet; it is written as plain words, so no shape or label
rule sees it. The word lists are the ``mnemonic`` package's (BIP-39's own, one per
language), read from its files on the first candidate only: importing the package
costs ~25 ms, and most texts never hold 12 short words in a row. A run of 12
words all from one list is a seed phrase whatever its checksum (people write made
up or miscopied ones too); prose breaks such runs with words no list holds
("the", "and", "de", "der", a word of 9+ letters). After a seed's own label
(``SEED_LABELS``: "seed phrase", "Wiederherstellungsphrase", "助记词"), up to
``MISCOPIED`` words of the run may be off the list (a word miscopied or made up:
"... sudden amber").
"""

from __future__ import annotations

import functools
import re
import unicodedata

from gardener.neverstore.regex import Span, lazy

# the word lists written in a script with spaces between words (CJK lists are not)
LISTS = ("english", "french", "spanish", "italian", "portuguese", "czech", "turkish")
LEAST = 12  # the shortest seed phrase BIP-39 defines
# 12+ words of 3-8 letters, split by single spaces or a numbered list's "1." marks
PHRASE = r"(?<![\w-])[^\W\d_]{3,8}(?:(?:[ \t]+|[ \t]*\d{1,2}[.)][ \t]*)[^\W\d_]{3,8}){11,}(?![\w-])"
_WORD = lazy(r"[^\W\d_]+")
# a seed phrase's own label, a row per language
SEED_LABELS = (
    ("en", r"seed[ \t-]?(?:phrase|words)?|recovery[ \t]+(?:phrase|words)|mnemonic"),
    ("de", r"seed-?phrase|wiederherstellungsphrase|wiederherstellungswörter"),
    ("fr", r"phrase[ \t]+(?:de[ \t]+)?(?:récupération|secrète|mnémonique)"),
    ("es", r"frase[ \t]+(?:semilla|de[ \t]+recuperación)|semilla"),
    ("it", r"frase[ \t]+(?:seed|di[ \t]+recupero)"),
    ("pt", r"frase[ \t]+(?:semente|de[ \t]+recuperação)"),
    ("ru", r"сид-?фраз\w*|мнемоническ\w*[ \t]+фраз\w*|фраз\w*[ \t]+восстановления"),
    ("zh", r"助记词|助記詞|种子短语"),
    ("ja", r"シードフレーズ|リカバリーフレーズ|復元フレーズ"),
    ("ko", r"시드 ?문구|복구 ?문구"),
)
_LABELLED = lazy("(?i:" + "|".join(alt for _, alt in SEED_LABELS) + ")")
MISCOPIED = 2  # words off the list a labelled seed may hold


def _fold(word: str) -> str:
    """Lowercase, accents taken off (BIP-39 lists are compared NFKD-normalised)."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@functools.cache
def _lists() -> tuple[frozenset[str], ...]:
    """The word lists, folded; none when ``mnemonic`` is not installed."""
    import importlib.util  # here: a note's start never pays for them
    from pathlib import Path

    spec = importlib.util.find_spec("mnemonic")
    if spec is None or not spec.submodule_search_locations:
        return ()
    folder = Path(next(iter(spec.submodule_search_locations))) / "wordlist"
    out = []
    for name in LISTS:
        path = folder / f"{name}.txt"
        if path.is_file():
            words = path.read_text(encoding="utf-8").split()
            out.append(frozenset(_fold(w) for w in words))
    return tuple(out)


def seed_phrase(text: str, m: re.Match[str]) -> Span | None:
    """The longest run of ``LEAST``+ words of one list inside the match, if any."""
    words = [
        (w.start(), w.end(), _fold(w.group())) for w in _WORD.finditer(text, *m.span())
    ]
    labelled = _LABELLED.search(text, max(0, m.start() - 96), m.start() + 1)
    slack = MISCOPIED if labelled else 0
    best: Span | None = None
    for wordlist in _lists():
        for first in range(len(words)):
            if not slack and first and words[first - 1][2] in wordlist:
                continue  # inside a run already read from its start
            off = 0
            for i in range(first, len(words)):
                if words[i][2] not in wordlist:
                    off += 1
                    if off > slack or i == first:
                        break
                if i - first + 1 >= LEAST:
                    span = (words[first][0], words[i][1])
                    if best is None or span[1] - span[0] > best[1] - best[0]:
                        best = span
    return best
