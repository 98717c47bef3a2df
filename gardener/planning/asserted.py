"""Whether a sentence asserts what it says of the memory (pure): a change or a
removal read in a question ("should we drop Redis", "¿Deberíamos volver a
Redis?"), a hedge ("maybe", "vielleicht", "也许"), a condition ("如果预算允许"),
history ("back in 2019 we switched ..."), a limited scope ("for the unit tests
only", "just this once", "nur heute"), or what someone else did ("Ana's team
switched to Bun", "the blog post says ...") changes no current fact. The
phrases are data, one per line, in the languages of the lexicon (see
docs/design.md, "Changes and removals")."""

from __future__ import annotations

import re
from functools import cache

from gardener.lexicon.match import unspaced

QUESTION_OPENERS = (
    "should we", "shall we", "should i", "do we", "are we", "is it worth", "can we",
    "could we", "would it", "what if", "sollen wir", "sollten wir", "müssen wir",
    "faut-il", "devrait-on", "doit-on", "est-ce qu", "deberíamos", "¿", "debemos",
    "стоит ли", "может, стоит", "может стоит", "нужно ли", "要不要", "是否", "该不该",
    "べきか", "しようか",
)  # fmt: skip
HEDGES = (
    "maybe", "might", "perhaps", "probably", "considering", "consider", "thinking about",
    "would be", "proposal", "proposed", "suggest", "was rejected", "but rejected",
    "vielleicht", "eventuell", "überlegen", "vorschlag", "vorgeschlagen", "peut-être",
    "envisage", "envisager", "proposition", "proposé", "quizás", "quizá", "tal vez",
    "propuesta", "может быть", "возможно", "предлагаю", "предложили", "也许", "可能",
    "考虑", "建议", "讨论了是否", "かもしれ", "検討", "提案",
)  # fmt: skip
CONDITIONS = ("如果", "要是", "假如", "もし", "wenn", "falls", "si ", "if ", "unless")
HISTORY = (
    "back in", "years ago", "last year", "used to", "in the past", "früher", "damals",
    "letztes jahr", "autrefois", "l'an dernier", "l'année dernière", "antes", "el año pasado",
    "раньше", "в прошлом году", "以前", "去年", "当年", "以前は", "昔は", "去年は",
)  # fmt: skip
LIMITED = (
    "for the unit tests", "for tests only", "just this once", "this once",
    "only today", "today only", "for today", "for tomorrow", "tomorrow only",
    "nur heute", "ausnahmsweise", "einmalig", "exceptionnellement",
    "juste cette fois", "solo hoy", "solo por hoy",
    "только сегодня", "разово", "这次", "仅限", "临时",
    "今回だけ", "今日だけ",
    # a one-off week or day: "standup moved to 10:15 (just this week)"
    "just this week", "this week only", "only this week", "for this week",
    "nur diese woche", "diese woche nur", "nur für diese woche",
    "juste cette semaine", "cette semaine seulement", "pour cette semaine",
    "solo esta semana", "esta semana solamente", "solo por esta semana",
    "только на этой неделе", "только эту неделю", "仅本周", "只有这周", "这周临时",
    "今週だけ", "今週のみ",
)  # fmt: skip
# "moved to 16:00 this Friday", "for 2 weeks", "diesen Freitag": one day or a
# few weeks, not from then on ("from this Friday on" is a change for good)
_ONE_OFF = re.compile(
    r"(?<!from )(?<!starting )\bthis (?:mon|tues|wednes|thurs|fri|satur|sun)day\b(?! on)"
    r"|\bfor (?:\d+|two|three|four|a few|a couple of) (?:days|weeks)\b"
    r"|(?<!ab )\bdiesen (?:montag|dienstag|mittwoch|donnerstag|freitag)\b"
    r"|\bce (?:lundi|mardi|mercredi|jeudi|vendredi)\b(?! et)"
    r"|\beste (?:lunes|martes|miércoles|jueves|viernes)\b",
    re.IGNORECASE,
)
# "for the partner API only", "for the demo only"
_FOR_ONLY = re.compile(r"\bfor\s[\w\s'-]{1,40}?\sonly\b", re.IGNORECASE)
NOT_DONE = ("最后没换", "没换", "没有换", "没改", "没有改", "やめておいた", "見送り")
# someone else's doing: a possessive subject or a reported source
_OTHERS = re.compile(
    r"^(?:[A-Z][\w-]*'s\s+(?:team|company|project|friend|colleague)|the (?:docs?|blog"
    r"(?: post)?|article|paper|vendor)\b|they say\b|同事|别人|他们|彼らは)"
    r"|\b(?:says|said|wrote|writes|reports|claims)\b",
    re.IGNORECASE,
)


# one per table: six tables used in turn thrashed a cache of four, and each
# miss escaped and compiled the phrases again; and the guard against a word
# character before a phrase stands once, not before each alternative (which
# kept the regex from ruling a position out at once: ~5x slower). Callers ask
# only whether it matches, which the old regex answers the same (a property
# test; docs/internals.md, "Work in proportion to what changed")
@cache
def _phrases(said: tuple[str, ...]) -> re.Pattern[str]:
    guarded, bare = [], []
    for phrase in sorted(said, key=len, reverse=True):
        p = re.escape(phrase)
        if unspaced(phrase[:1]) or not phrase[:1].isalnum():
            bare.append(p)
        else:
            guarded.append(p)
    parts = [rf"(?<!\w)(?:{'|'.join(guarded)})"] if guarded else []
    return re.compile("|".join(parts + bare), re.IGNORECASE)


def asks(low: str) -> bool:
    """Whether a (casefolded) text opens as a question ("should we drop
    Redis", "¿Deberíamos ...", "Может, стоит ...", "是否 ...")."""
    return bool(_phrases(QUESTION_OPENERS).match(low)) or low.startswith(("¿", "是否"))


def asserts(text: str, scoped: bool = True) -> bool:
    """Whether ``text`` asserts a change or removal of the memory's facts:
    False for a question, a hedge, a condition, history, a limited scope, a
    change that did not happen, or someone else's doing (``scoped`` False:
    a limited scope asserts, as a rule may well hold for the tests only)."""
    low = text.strip().casefold()
    first = re.split(r"(?<=[.!?。！？])\s*", low, maxsplit=1)[0]
    if first.rstrip().endswith(("?", "？")):
        return False
    if asks(low):
        return False
    if _phrases(CONDITIONS).match(low) or re.search(r"如果|要是|假如|もし", low):
        return False
    for table in (HEDGES, HISTORY, NOT_DONE, *([LIMITED] if scoped else [])):
        if _phrases(table).search(low):
            return False
    if scoped and (_FOR_ONLY.search(low) or _ONE_OFF.search(low)):
        return False
    return _OTHERS.search(text.strip()) is None
