"""Sentence frames of change, removal and negation (pure).

"switched the database to SQLite", "replaced Postgres with SQLite", "X → Y"
change a value; "we no longer use Redis", "dropped the Redis cache" end one;
"decided against Vercel" rejects one, which is then never filed as a value.
The frames are the lexicon's, in every language it holds (see docs/design.md,
"Changes and removals").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from gardener.lexicon.match import could_match, first_frame, frame_regex, unspaced
from gardener.lexicon.words import Words

_ARTICLES = (
    "the ",
    "a ",
    "an ",
    "our ",
    "my ",
    "its ",
    "their ",
    "your ",
    "all ",
    "her ",
    "his ",
)
_MAX_WORDS = 8  # a value or subject longer than this is a clause, not a name


@dataclass(frozen=True)
class Frame:
    """What one frame read in an entry.

    kind: "change", "removal" or "negation"; strong: a frame that states a
    decision on its own ("no longer use X", "switched X to Y"), not one that
    may be an event or a number's change ("removed X", "X → Y", "from 5 to
    7"); subject/old/new: the frame's groups, articles dropped; whole: the
    frame begins the text and what follows it, if anything, is another clause;
    rest: the clause after the frame's, past a comma or semicolon ("la CI
    tourne sur GitLab CI" after "Nous n'utilisons plus Woodpecker, "), ""
    when there is none.
    """

    kind: str
    subject: str | None = None
    old: str | None = None
    new: str | None = None
    strong: bool = True
    whole: bool = False
    rest: str = ""


def bare(phrase: str | None) -> str | None:
    """``phrase`` without a leading article or possessive, trailing stop and
    markup; None if empty or longer than a name."""
    if phrase is None:
        return None
    # bold inside a name is markup, not part of it: "**Pro** plan" is Pro plan
    text = phrase.replace("**", "").strip().strip("*`\"'“”「」『』").strip()
    low = text.casefold()
    for article in _ARTICLES:
        if low.startswith(article):
            text, low = text[len(article) :], low[len(article) :]
    text = text.rstrip(".。!！").strip()
    if unspaced(text[:1]) and text[:1] in "了过過着著":
        text = text[1:].strip()  # an aspect particle of the verb before: 迁移到了X is X
    if unspaced(text[-1:]):
        # an adverb of the verb after: "数据库已迁移到 TiDB" is about 数据库
        text = re.sub(r"(?:已经|已經|已|都|也|就|才|正在)$", "", text)
    if not text or len(text.split()) > _MAX_WORDS or not _closed(text):
        return None
    return text


def _closed(text: str) -> bool:
    """No code span or bracket left open: a frame that ends inside one
    ("with `list(dict.fromkeys(...))`" cut at its first stop) read no value."""
    return (
        text.count("`") % 2 == 0
        and text.count("(") == text.count(")")
        and text.count("[") == text.count("]")
    )


def _untimed(phrase: str | None, time_words: tuple[str, ...]) -> str | None:
    """``phrase`` without a trailing word of time: "Woodpecker last night" is
    Woodpecker (when it changed is the note's valid time, not the value)."""
    if not phrase:
        return phrase
    low = phrase.casefold().rstrip(" .!")
    for word in sorted(time_words, key=len, reverse=True):
        if low.endswith(" " + word.casefold()):
            return phrase[: len(low) - len(word)].rstrip(" ,")
    return phrase


# a clause of reason or purpose after a value: "to 3000 so it matches the
# callback URL", "auf 25 Sekunden, weil ...", "à 8443 parce que ..."
_REASON = re.compile(
    r"\s+(?:so that|so|because|since|as|weil|damit|da|parce que|car|pour que|"
    r"porque|para que|ya que|потому что|так как|чтобы)\s.*$",
    re.IGNORECASE | re.DOTALL,
)


def _reasonless(phrase: str | None) -> str | None:
    """``phrase`` without a clause of reason after it."""
    return _REASON.sub("", phrase) if phrase else phrase


def _unmarked(phrase: str | None, change_words: tuple[str, ...]) -> str | None:
    """``phrase`` without a word of change at either end: "ab jetzt Podman"
    and "Fly.io now" are Podman and Fly.io (that the value holds from now on
    is what the frame already says)."""
    if not phrase:
        return phrase
    words = sorted(change_words, key=len, reverse=True)
    for _ in range(2):  # "from now on" then "now": at most two marks a side
        low = phrase.casefold()
        for word in words:
            w = word.casefold()
            if low.startswith(w + " ") or low.startswith(w + ","):
                phrase = phrase[len(w) :].lstrip(" ,")
                break
            if low.rstrip(" .!").endswith(" " + w):
                phrase = phrase[: len(low.rstrip(" .!")) - len(w)].rstrip(" ,")
                break
        else:
            break
    return phrase


def _name_like(phrase: str | None) -> bool:
    """Whether a frame's subject can name a thing: no clause punctuation, no
    bracket left open (None, no subject group, is fine)."""
    if phrase is None:
        return True
    if any(c in phrase for c in ",;，；、"):
        return False
    return phrase.count("(") == phrase.count(")") and phrase.count(
        "（"
    ) == phrase.count("）")


_NAME_MARK = re.compile(r"\d|\w[-._/]\w")


def named(value: str) -> bool:
    """Whether ``value`` is written as a name or a number ("Postgres", "box-b",
    "3.12", "GitLab CI"), not as a state ("green", "down", "空的")."""
    text = value.strip("*`\"'“”「」 ")
    if not text:
        return False
    if unspaced(text[0]):  # a Chinese or Japanese value: only a Latin name in it
        return bool(re.search(r"[A-Za-z0-9]", text))
    return text[0].isupper() or bool(_NAME_MARK.search(text))


def read_frame(text: str, words: Words) -> Frame | None:
    """The frame ``text`` holds: a removal, else a change, else a weak
    removal; None for none (negations are ``negated``)."""
    for kind, templates, strong in (
        ("removal", words.removals, True),
        ("change", words.changes, True),
        ("removal", words.weak_removals, False),
    ):
        found = first_frame(text, templates)
        if not found:
            continue
        template, groups, span = found
        if kind == "change":
            # an arrow, "from X to Y" or "now uses Y" may be any change of a
            # number or a plan; only a verb of change states a decision
            strong = not (
                "→" in template
                or "->" in template
                or template.startswith(("from ", "now "))
            )
        if kind == "change" and _code(groups.get("subject")):
            # "`board.py` now uses the richer data": a change log of code
            strong = False
        if not _name_like(groups.get("subject")) or (
            template.startswith("{old}") and not _name_like(groups.get("old"))
        ):
            # "pond moved to foreground, hoop pushed to ...": the words before
            # a verb are a clause, not the thing changed; the frame says nothing
            # ("moved to B, A is decommissioned": the change frame reads it)
            continue
        whole = _whole(text, span)
        frame = Frame(
            kind,
            bare(groups.get("subject")),
            bare(_first_clause(groups.get("old"))),
            bare(
                _untimed(
                    _unmarked(_reasonless(groups.get("new")), words.change_words),
                    words.time_words,
                )
            ),
            strong,
            whole,
            _rest(text, span, groups.get("old")),
        )
        if frame.new if kind == "change" else frame.old:
            return frame
    return None


_CODE = re.compile(r"`|\w\.(?:py|js|ts|rs|go|rb|sh|md|json|toml|ya?ml)\b|\(\)")


def _code(phrase: str | None) -> bool:
    """Whether a frame's subject is a piece of code (a span, a file, a call)."""
    return bool(phrase and _CODE.search(phrase))


_CLAUSE_MARK = re.compile(r"[,;，；、](?!\d)")


def _first_clause(phrase: str | None) -> str | None:
    """What a frame leaves, up to a comma: a removed name never runs past one
    ("弃用 Memcached,会话现在存在 SQLite 里" drops Memcached, not SQLite)."""
    if phrase is None:
        return None
    return _CLAUSE_MARK.split(phrase, maxsplit=1)[0]


_LEAD = " ,;:.!—–-，；：。！"


def _rest(text: str, span: tuple[int, int], old: str | None) -> str:
    """The clause after a frame's: past the comma its left value was cut at
    ("不再使用 Redis，缓存改用 LRU": the old group runs to the end, its first
    clause is Redis), or past the match when a clause mark follows it."""
    if old is not None:
        cut = _CLAUSE_MARK.split(old, maxsplit=1)
        if len(cut) == 2:
            return (cut[1] + text[span[1] :]).strip(_LEAD)
    after = text[span[1] :]
    return after.strip(_LEAD) if _CLAUSE_MARK.match(after.lstrip()) else ""


def _whole(text: str, span: tuple[int, int]) -> bool:
    rest = text[span[1] :].strip()
    return not text[: span[0]].strip(" *_-") and (
        not rest or rest[:1] in ",;:.!(—–-，；：。！（"
    )


def negated(text: str, words: Words) -> list[tuple[int, int]]:
    """The spans of ``text`` that a negation frame rejects ("decided against
    {old}", "not {old}"), each with the names of the list it opens ("ne pas
    utiliser Vercel, ni Netlify", "not Vercel or Netlify"): nothing in them is
    ever filed as a value."""
    spans = []
    lowered = text.lower()
    listed = _listed(words.conjunctions)
    for template in words.negations:
        if not could_match(template, lowered):
            continue
        for m in frame_regex(template).finditer(text):
            start, end = m.span("old")
            while listed and (more := listed.match(text, end)):
                end = more.end()
            spans.append((start, end))
    return spans


@lru_cache(maxsize=8)
def _listed(conjunctions: tuple[str, ...]) -> re.Pattern[str] | None:
    """A list's next name after a conjunction (", nor Netlify", "、也不用 Y")."""
    if not conjunctions:
        return None
    # a spaced word stands whole ("and", not "band"); 和 or 也不 needs no space
    joined = "|".join(
        rf"(?<!\w){re.escape(c)}\b" if not unspaced(c) else re.escape(c)
        for c in sorted(conjunctions, key=len, reverse=True)
    )
    return re.compile(
        rf"[ \t]*[,，、/]?[ \t]*(?:{joined})[ \t]*[^\s,，、;；。.!?！？和或与]+", re.I
    )
