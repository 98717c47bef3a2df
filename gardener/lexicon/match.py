"""Matching the lexicon's phrases and frames against an entry's text (pure).

Spaced scripts match whole words (``(?<!\\w)...(?!\\w)``), so "we" is not found
in "weather". Chinese and Japanese have no spaces, so their phrases match as
substrings; the few that hide inside longer words are listed in
``Words.exclusions`` and masked out first (see docs/design.md, "Languages").
A heading or label word also matches its plural ("lesson" in "Lessons").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from gardener.lexicon.wordindex import WordFilter

# Han, kana, Hangul: scripts written without spaces between words
_UNSPACED = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]"
)
_MASK = "\x00"


def unspaced(text: str) -> bool:
    """Whether ``text`` holds Chinese, Japanese or Korean characters."""
    return _UNSPACED.search(text) is not None


def _alternative(phrase: str, plural: bool) -> str:
    body = r"\s+".join(re.escape(word) for word in phrase.split())
    if unspaced(phrase):
        return body
    tail = r"(?:s|es)?" if plural and phrase[-1:].isalpha() else ""
    return body + tail


@lru_cache(maxsize=256)
def phrase_regex(
    phrases: tuple[str, ...], plural: bool = False
) -> re.Pattern[str] | None:
    """One regex for ``phrases`` (casefolded), longest first; None for none.

    The whole-word guards stand once around all spaced phrases, not around
    each: 200 alternatives each behind a lookbehind cost ~25x more to search.
    Chinese and Japanese phrases go first; where one and a spaced phrase both
    match at a place, the spaced one is a prefix of it (shorter), so the
    order is still longest first.
    """
    if not phrases:
        return None
    ordered = sorted(
        {p.casefold() for p in phrases if p.strip()}, key=len, reverse=True
    )
    loose = [_alternative(p, plural) for p in ordered if unspaced(p)]
    spaced = [_alternative(p, plural) for p in ordered if not unspaced(p)]
    groups = []
    if loose:
        groups.append("|".join(loose))
    if spaced:
        groups.append(rf"(?<!\w)(?:{'|'.join(spaced)})(?!\w)")
    return re.compile("|".join(groups))


def masked(text: str, exclusions: Mapping[str, tuple[str, ...]]) -> str:
    """``text`` with every excluded longer word blanked, positions kept."""
    for words in exclusions.values():
        for word in words:
            if word in text:
                text = text.replace(word, _MASK * len(word))
    return text


_TOKEN = re.compile(r"\w+")


class _Needs:
    """What a text must hold for one of a set of phrases to match (pure).

    A spaced phrase's match starts on a word boundary with the phrase's
    leading run of word characters, and that run ends the text's word there
    (a space or a mark follows it in the phrase, or the end guard does), so
    the text has that very word (with ``plural``, a one-word phrase's word
    may end in -s or -es), and each of the phrase's words as written. A
    Chinese or Japanese phrase holds its longest word as written. ``find``
    asks this before its regex: most texts hold none of a tier's phrases,
    and a word set is cheaper to ask than a regex of hundreds of
    alternatives is to run (docs/internals.md, "Work in proportion to what
    changed").
    """

    __slots__ = ("always", "heads", "ascii_loose", "other_loose")

    def __init__(self, phrases: tuple[str, ...], plural: bool) -> None:
        ordered = {p.casefold() for p in phrases if p.strip()}
        # a list of blank phrases compiles to the empty regex: it matches
        self.always = not ordered
        heads: dict[str, list[tuple[str, ...]]] = {}
        ascii_loose: list[str] = []
        other_loose: list[str] = []
        for phrase in ordered:
            words = phrase.split()
            if unspaced(phrase):
                needle = max(words, key=len)
                (ascii_loose if needle.isascii() else other_loose).append(needle)
                continue
            lead = _TOKEN.match(words[0])
            if lead is None:  # it opens with a mark: no word to ask for
                self.always = True
                continue
            head = lead.group()
            # and every word of the phrase, as written, is in the text
            rest = tuple(w for w in words if w != head)
            forms = [head]
            if (
                len(words) == 1
                and head == words[0]
                and plural
                and phrase[-1:].isalpha()
            ):
                forms += (head + "s", head + "es")
            for form in forms:
                heads.setdefault(form, []).append(rest)
        self.heads = {h: tuple(rests) for h, rests in heads.items()}
        self.ascii_loose = tuple(ascii_loose)
        self.other_loose = tuple(other_loose)

    def possible(self, text: str) -> bool:
        """False when no phrase can match ``text`` (as ``find`` reads it)."""
        if self.always:
            return True
        for needle in self.ascii_loose:
            if needle in text:
                return True
        if self.other_loose and not text.isascii():
            for needle in self.other_loose:
                if needle in text:
                    return True
        heads = self.heads
        for word in _tokens(text) & heads.keys():
            for rest in heads[word]:
                for w in rest:
                    if w not in text:
                        break
                else:
                    return True
        return False


# by plural, then by the phrases tuple's id (it is held, so the id is not reused)
_NEEDS: tuple[dict[int, tuple[tuple[str, ...], _Needs]], ...] = ({}, {})


def _needs(phrases: tuple[str, ...], plural: bool) -> _Needs:
    """``_Needs`` of ``phrases``, kept by the tuple's identity: hashing a
    tuple of 300 phrases on every call would cost more than the regex it
    spares."""
    kept = _NEEDS[plural]
    held = kept.get(id(phrases))
    if held is not None and held[0] is phrases:
        return held[1]
    if len(kept) > 256:
        kept.clear()
    needs = _Needs(phrases, plural)
    kept[id(phrases)] = (phrases, needs)
    return needs


# the last text asked, its words and its masked form: a classification asks
# the same text of each tier of cue phrases in turn
_LAST_WORDS: list[tuple[str, frozenset[str]]] = [("", frozenset())]
_LAST_MASKED: list[tuple[str, object, str]] = [("", None, "")]


def _tokens(text: str) -> frozenset[str]:
    held = _LAST_WORDS[0]
    if held[0] is text or held[0] == text:
        return held[1]
    words = frozenset(_TOKEN.findall(text))
    _LAST_WORDS[0] = (text, words)
    return words


def _masked_once(text: str, exclusions: Mapping[str, tuple[str, ...]]) -> str:
    held = _LAST_MASKED[0]
    if held[1] is exclusions and (held[0] is text or held[0] == text):
        return held[2]
    out = masked(text, exclusions)
    _LAST_MASKED[0] = (text, exclusions, out)
    return out


def could_find(text: str, phrases: tuple[str, ...], plural: bool = False) -> bool:
    """False when ``phrase_regex(phrases, plural)`` cannot match ``text``
    (casefolded): none of the phrases' words is in it (``_Needs``)."""
    return _needs(phrases, plural).possible(text)


def find(
    text: str,
    phrases: tuple[str, ...],
    exclusions: Mapping[str, tuple[str, ...]] | None = None,
    plural: bool = False,
) -> re.Match[str] | None:
    """The first of ``phrases`` in ``text`` (already casefolded), or None."""
    if not phrases:
        return None
    if exclusions:
        text = _masked_once(text, exclusions)
    if not _needs(phrases, plural).possible(text):
        return None  # the regex is not even compiled
    regex = phrase_regex(phrases, plural)
    return regex.search(text) if regex is not None else None


def first_kind(
    text: str,
    table: Mapping[str, tuple[str, ...]],
    exclusions: Mapping[str, tuple[str, ...]] | None = None,
    plural: bool = False,
) -> tuple[int, str] | None:
    """(position, kind) of the earliest phrase of any kind in ``table``."""
    best: tuple[int, str] | None = None
    for kind, phrases in table.items():
        m = find(text, phrases, exclusions, plural)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), kind)
    return best


@lru_cache(maxsize=1024)
def frame_regex(template: str) -> re.Pattern[str]:
    """A frame (``switched {subject} from {old} to {new}``) as a regex whose
    groups are the placeholders; spaces match runs of spaces, and in spaced
    scripts a frame starts and ends on word boundaries."""
    pieces = re.split(r"(\{(?:subject|old|new)\})", template.strip())
    regex = ""
    for piece in pieces:
        if piece in ("{subject}", "{old}", "{new}"):
            regex += rf"(?=\S)(?P<{piece[1:-1]}>.+?)(?<!\s)"
        elif piece:
            words = piece.split()
            body = r"\s+".join(re.escape(w) for w in words)
            # Chinese and Japanese put spaces around Latin words: "从 MySQL 迁移到"
            loose = unspaced(piece)
            lead = r"\s*" if loose or piece[:1].isspace() or not words else ""
            trail = r"\s*" if loose or piece[-1:].isspace() else ""
            # a word of the frame is a whole word: "moved {subject} to" never
            # reads "moved to top" as subject "to" and "to" in "top", nor " to"
            # as the end of "photo" (an arrow needs no spaces: "A→B")
            if not loose and words and words[0][:1].isalnum():
                lead = (r"\s+" if piece[:1].isspace() else lead) + r"(?<!\w)"
            if not loose and words and words[-1][-1:].isalnum():
                trail = r"(?!\w)" + trail
            regex += lead + body + trail
    spaced = not unspaced(template)
    start = r"(?<!\w)" if spaced and not template.startswith("{") else ""
    end = r"(?!\w)" if spaced and not template.endswith("}") else ""
    # a trailing placeholder runs to the end of the clause
    if template.endswith("}"):
        # (a stop inside a word is not one: "Fly.io", "v2.1")
        end = r"(?=\s*(?:$|[.;:!?](?!\w)|[。；：！？]|,\s|，|、|\s[-–—]\s|\s\())"
    return re.compile(start + regex + end, re.IGNORECASE)


@lru_cache(maxsize=1024)
def _longest_word(template: str) -> str:
    """The longest word of a frame outside its placeholders, lowercased: it
    is in any text the frame matches."""
    words = re.sub(r"\{(?:subject|old|new)\}", " ", template).lower().split()
    return max(words, key=len, default="")


def could_match(template: str, lowered: str) -> bool:
    """False when ``frame_regex(template)`` cannot match the text whose
    ``str.lower()`` is ``lowered``: its longest word is missing. A frame
    that starts with a placeholder tries every start, each to the end of the
    text, so on a long entry this check is most of the saving."""
    return _longest_word(template) in lowered


@lru_cache(maxsize=64)
def _by_specificity(templates: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(template, its longest word), most literal text first."""
    ordered = sorted(
        templates, key=lambda t: len(re.sub(r"\{\w+\}", "", t)), reverse=True
    )
    return tuple((t, _longest_word(t)) for t in ordered)


@lru_cache(maxsize=64)
def _frames_filter(templates: tuple[str, ...]) -> tuple[tuple[str, ...], WordFilter]:
    """The templates by specificity, and which of them a text can match (its
    longest word is in it: ``could_match``), asked once per distinct word."""
    ordered = _by_specificity(templates)
    return (
        tuple(t for t, _ in ordered),
        WordFilter([(word,) if word else None for _, word in ordered]),
    )


def first_frame(
    text: str, templates: Iterable[str]
) -> tuple[str, dict[str, str], tuple[int, int]] | None:
    """(template, its groups stripped, the match's span) of the first template
    that matches, most literal text first (the most specific frame wins)."""
    ordered, word_filter = _frames_filter(tuple(templates))
    for i in word_filter.candidates(text.lower()):
        template = ordered[i]
        m = frame_regex(template).search(text)
        if m:
            groups = {k: v.strip() for k, v in m.groupdict().items() if v}
            if all(groups.values()):
                return template, groups, m.span()
    return None
