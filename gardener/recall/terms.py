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

On the warm recall path: one regex, no imports beyond ``re``.
"""

from __future__ import annotations

import re

# the scripts written without spaces between words, and Hangul (written with
# spaces, but with particles stuck to each word); only letters unicode61
# keeps in tokens (katakana's middle dot ・ and the voicing marks ゛゜ are
# separators to it, so they end a run here too)
_RUN = (
    "\u1100-\u11ff"  # Hangul jamo
    "\u3005-\u3007"  # 々 〆 〇
    "\u3041-\u3096\u309d-\u309f"  # hiragana
    "\u30a1-\u30fa\u30fc-\u30ff"  # katakana, ー
    "\u3130-\u318f"  # Hangul compatibility jamo
    "\u31f0-\u31ff"  # katakana phonetic extensions
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # Han, extension A, compatibility
    "\uac00-\ud7af"  # Hangul syllables
    "\uff66-\uff9f"  # half-width katakana
    "\U00020000-\U0003134f"  # Han extensions B-H
)
_CJK_RUN = re.compile(f"[{_RUN}]+")
_WORD = re.compile(r"\w+", re.UNICODE)


def has_cjk(text: str) -> bool:
    """True if ``text`` holds a character of a CJK run."""
    return not text.isascii() and _CJK_RUN.search(text) is not None


def index_text(text: str) -> str:
    """``text`` as the index holds it: each CJK run as its bigrams and its
    last character, spaced off from what surrounds it; the rest as written."""
    if text.isascii():  # the common case, and no regex
        return text
    return _CJK_RUN.sub(_grams, text)


def _grams(found: re.Match[str]) -> str:
    run = found.group()
    pairs = [run[i : i + 2] for i in range(len(run) - 1)]
    return " " + " ".join([*pairs, run[-1]]) + " "


def match_expression(query: str) -> str | None:
    """An FTS5 query matching any word of ``query``; None if it has no word.

    A CJK run in a word is a term of its own: the phrase of its bigrams (the
    run as a substring), or for one character a prefix query. So
    ``PostgreSQL数据库`` asks for ``PostgreSQL`` or ``数据库``.
    """
    terms: list[str] = []
    for word in _WORD.findall(query):
        if word.isascii() or not _CJK_RUN.search(word):
            terms.append(_quoted(word))
            continue
        at = 0
        for run in _CJK_RUN.finditer(word):
            if run.start() > at:
                terms.append(_quoted(word[at : run.start()]))
            chars = run.group()
            if len(chars) == 1:
                terms.append(_quoted(chars) + "*")
            else:
                terms.append(
                    _quoted(" ".join(chars[i : i + 2] for i in range(len(chars) - 1)))
                )
            at = run.end()
        if at < len(word):
            terms.append(_quoted(word[at:]))
    return " OR ".join(terms) if terms else None


def _quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'
