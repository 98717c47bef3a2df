"""The words of a text as the recall index holds them, and a query as FTS5 asks.

SQLite's ``unicode61`` tokenizer splits on spaces and punctuation, so a run
of Chinese or Japanese is one token (``我们的数据库是`` is one "word") and a
query finds it only whole. Before a text is indexed, each run of CJK
characters (Han, kana, Hangul) is written out as its overlapping bigrams,
then its last character alone: ``数据库`` becomes ``数据 据库 库``. A query's
CJK run becomes the phrase of its bigrams (``"数据 据库"``: those tokens next
to each other, so the run as written), which matches wherever the run occurs
as a substring of two or more characters. Every character of a run begins a
token, so a one-character query is a prefix query (``"库"*``) and matches
every occurrence. Latin text goes through as it is: English recall and its
BM25 are unchanged. docs/internals.md, "CJK search", says why bigrams.

On the warm recall path: no imports beyond ``re``, and no regex compiled
for a query (the CJK pattern is compiled when text is indexed).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # a warm recall imports this module: no typing at run time
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

# the scripts written without spaces between words, and Hangul (written with
# spaces, but with particles stuck to each word); only letters unicode61
# keeps in tokens (katakana's middle dot ・ and the voicing marks ゛゜ are
# separators to it, so they end a run here too). Code point ranges, inclusive.
_RANGES = (
    (0x1100, 0x11FF),  # Hangul jamo
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3041, 0x3096),  # hiragana
    (0x309D, 0x309F),
    (0x30A1, 0x30FA),  # katakana
    (0x30FC, 0x30FF),  # ー ヽ ヾ ヿ
    (0x3130, 0x318F),  # Hangul compatibility jamo
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0x3400, 0x4DBF),  # Han extension A
    (0x4E00, 0x9FFF),  # Han
    (0xAC00, 0xD7AF),  # Hangul syllables
    (0xF900, 0xFAFF),  # Han compatibility
    (0xFF66, 0xFF9F),  # half-width katakana
    (0x20000, 0x3134F),  # Han extensions B-H
)
# compiled on first use: a class of 50,000 code points takes ~3 ms to
# compile, more than a warm recall's search, and only indexing needs it
_cjk_run: re.Pattern[str] | None = None
_WORD = re.compile(r"\w+", re.UNICODE)
# the words a question is made of that say nothing about what it asks for
# ("What is the fallback model?"): left out of a query's OR, so BM25 ranks by
# the words that name the thing. A query of nothing else keeps them. Lower
# case; one set, as a query may be in any of the languages notes are, so no
# word that is also a content word elsewhere ("son", "die", "mit", "est", "la").
_QUERY_STOP = frozenset(
    word
    for language in (
        # English
        "a an and are as at be by can could did do does for from had has have"
        " how i in is it its me my of on or our should so that the their them"
        " then there these they this to use used uses using was we were what"
        " when where which who whom whose why will with would you your s",
        # German
        "der das dem des ein eine einen ist sind wie wo wer wann warum welche"
        " welcher welches und oder für von zu im",
        # French
        "les un une du de sont que qui quoi quel quelle quels quelles comment"
        " où quand pourquoi et ou avec pour",
        # Spanish
        "el los las una qué quién cuál cuáles cómo dónde cuándo por y del",
        # Russian
        "что кто где когда как какой какая какое какие почему это и в на с по для ли",
    )
    for word in language.split()
)


def _cjk(char: str) -> bool:
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in _RANGES)


def _runs() -> re.Pattern[str]:
    global _cjk_run
    if _cjk_run is None:
        chars = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _RANGES)
        _cjk_run = re.compile(f"[{chars}]+")
    return _cjk_run


def has_cjk(text: str) -> bool:
    """True if ``text`` holds a character of a CJK run."""
    return not text.isascii() and any(_cjk(c) for c in text)


def index_text(text: str) -> str:
    """``text`` as the index holds it: each CJK run as its bigrams and its
    last character, spaced off from what surrounds it; the rest as written."""
    if text.isascii():  # the common case, and no regex
        return text
    return _runs().sub(_grams, text)


def _grams(found: re.Match[str]) -> str:
    run = found.group()
    pairs = [run[i : i + 2] for i in range(len(run) - 1)]
    return " " + " ".join([*pairs, run[-1]]) + " "


def match_expression(
    query: str, aliases: Mapping[str, Sequence[str]] | None = None
) -> str | None:
    """An FTS5 query matching any word of ``query``; None if it has no word.

    Question and function words (``_QUERY_STOP``) are left out unless the
    query has no other word.

    A CJK run in a word is a term of its own: the phrase of its bigrams (the
    run as a substring), or for one character a prefix query. So
    ``PostgreSQL数据库`` asks for ``PostgreSQL`` or ``数据库``.

    ``aliases`` (a topic's name, casefolded -> its names in every language;
    ``Index.aliases``) adds the names of a topic the query, or one of its
    words, names: ``Datenbank`` asks for ``database`` too, each name a
    phrase.
    """
    terms: list[str] = []
    words = _WORD.findall(query)
    named = [w for w in words if w.casefold() not in _QUERY_STOP]
    for word in named or words:
        terms += _word_terms(word)
    if aliases and words:
        asked = [
            " ".join(w.casefold() for w in named or words),
            *(w.casefold() for w in named),
        ]
        for name in dict.fromkeys(n for a in asked for n in aliases.get(a, ())):
            if name in asked:
                continue
            if any(_cjk(c) for c in name):
                terms += _word_terms(name.replace(" ", ""))
            else:
                terms.append(_quoted(" ".join(_WORD.findall(name))))
    return " OR ".join(dict.fromkeys(terms)) if terms else None


def _word_terms(word: str) -> list[str]:
    """The FTS5 terms of one word of a query (see ``match_expression``)."""
    if word.isascii():
        return [_quoted(word)]
    # split the word into CJK runs and the rest, by hand: a query is short,
    # and a warm recall should not compile _runs' pattern
    pieces: list[tuple[bool, str]] = []
    for char in word:
        cjk = _cjk(char)
        if pieces and pieces[-1][0] == cjk:
            pieces[-1] = (cjk, pieces[-1][1] + char)
        else:
            pieces.append((cjk, char))
    terms = []
    for cjk, piece in pieces:
        if not cjk:
            terms.append(_quoted(piece))
        elif len(piece) == 1:
            terms.append(_quoted(piece) + "*")
        else:
            pairs = [piece[i : i + 2] for i in range(len(piece) - 1)]
            terms.append(_quoted(" ".join(pairs)))
    return terms


def _quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'
