"""The voice of a sentence the rules left undecided (pure): who says what, how.

A person's attitude anywhere in a clause ("If X breaks, Sam wants a short
note") is a preference; a rule ("retries should back off", "If X, do Y") a
fact; a lasting result ("X set to Y", "created X at `path`", "granted X") a
fact; the agent reporting what it did ("Verified ...", "X was added") an event;
a state report ("is ready", "still no ...") a state; a plain present statement
with a subject and no word of time a fact. The words are the lexicon's
(``Words.persons`` ... ``Words.copulas``), in every language it holds; see
docs/design.md, Promote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from gardener.lexicon.match import find, first_frame, unspaced
from gardener.lexicon.words import Words
from gardener.planning.frames import read_frame

__all__ = ["Voice", "durable_at", "read_voice"]


@dataclass(frozen=True, slots=True)
class Voice:
    """What the voice of a sentence says it is.

    kind: "preference", "fact", "event" or "state"; rule: "attitude", "rule
    voice", "result", "log voice", "state voice" or "statement"; at: the
    position (characters) in the text where it was read.
    """

    kind: str
    rule: str
    at: int


# a clause ends at a stop, a semicolon, a colon, a comma, or a dash between spaces
_CLAUSE = re.compile(r"[.;:!?。；：！？]\s|[;；。！？]|,\s|，|、|\s[-–—]\s")
# capitalised words that start a sentence but name no person
_NOT_NAMES = (
    "The|This|That|These|Those|It|Its|We|Our|There|Here|What|Which|Who|Nobody|"
    "Everyone|Everybody|Someone|Something|Nothing|If|When|But|And|Also|Then"
)
_NAME = rf"(?-i:(?!(?:{_NOT_NAMES})\b)[A-ZÀ-ÖØ-ÞА-ЯЁ][\w'’-]+)"
_GAP = r"(?:\s+\S+){0,6}?\s+"  # "finds … frustrating": up to six words between
# status marks of a log or status line
_STATUS = re.compile(
    "[\u2705\u274c\u2714\u2716\u26a0\u23f3\U0001f6a7\U0001f7e2\U0001f534\U0001f7e1]"
)
_SHOUT = re.compile(r"(?-i:\b[A-Z]{2,}\b)")  # "is UNFUNDED", "has ZERO": a status
_NUMBER = re.compile(r"^[\d\s.,:%/x×~+-]*\w{0,3}$")  # "5", "20 GB", "3x"
_PLACE = re.compile(r"`[^`]+`|[\w.~-]*/[\w./-]+|\b\w[\w-]*\.(?:[a-z]{1,5})\b")
_FROM_TO = re.compile(r"(?<!\w)([\w'’-]+)\s+from\s+\S.*?\sto\s+\S")
_SUBJECT = 4  # words: the subject of a plain statement is short
# a rate or a quota: a number of things per unit of time ("60 requests per
# minute", "60 Anfragen pro Minute", "每分钟 60 次", "1分あたり60回")
_RATE = re.compile(
    r"\d[\d.,]*\s*[^\W\d]+\s+(?:per|a|an|pro|je|par|por|al|в|за)\s+"
    r"(?:second|minute|hour|day|week|month|sekunde|stunde|tag|woche|monat|"
    r"seconde|heure|jour|semaine|mois|segundo|minuto|hora|día|dia|semana|mes|"
    r"секунду|минуту|час|сутки|день|неделю|месяц)s?\b"
    r"|每(?:秒|分钟|小时|天|日|周|月)\s*\d|\d[\d.,]*\s*(?:回|件|次)?\s*/\s*(?:秒|分|時間|日)"
    r"|(?:秒|分|時間|日)(?:あたり|に)\s*\d"
)
_MARKUP = re.compile(r"^[\s*_`>#-]+")
_DETERMINERS = frozenset(
    [
        "the",
        "a",
        "an",
        "this",
        "that",
        "these",
        "those",
        "its",
        "our",
        "my",
        "your",
        "their",
        "his",
        "her",
        "is",
        "are",
        "be",
        "been",
        "being",
        "very",
        "well",
        "not",
        "fully",
        "newly",
        "already",
        "get",
        "gets",
    ]
)


def _words_regex(phrases: tuple[str, ...], between: str = r"\s+") -> str:
    """An alternation of ``phrases`` (longest first), ``between`` their words;
    "…" in a phrase stands for a few words."""
    parts = []
    for phrase in sorted(
        {p.casefold() for p in phrases if p.strip()}, key=len, reverse=True
    ):
        pieces = [
            between.join(re.escape(w) for w in piece.split())
            for piece in phrase.split("…")
        ]
        parts.append(_GAP.join(pieces))
    return "|".join(parts)


@lru_cache(maxsize=16)
def _attitude_regexes(
    persons: tuple[str, ...], attitudes: tuple[str, ...], adverbs: tuple[str, ...]
) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """(spaced, unspaced) regexes of a person and an attitude."""
    spaced_p = tuple(p for p in persons if not unspaced(p))
    spaced_a = tuple(a for a in attitudes if not unspaced(a))
    dense_p = tuple(p for p in persons if unspaced(p))
    dense_a = tuple(a for a in attitudes if unspaced(a))
    spaced = None
    if spaced_a:
        who = f"{_NAME}|(?<!\\w)(?:{_words_regex(spaced_p)})" if spaced_p else _NAME
        adv = rf"(?:\s+(?:{_words_regex(adverbs)}))*" if adverbs else ""
        # "does not strongly prioritize": adverbs inside the phrase too
        inside = rf"{adv}\s+" if adverbs else r"\s+"
        spaced = re.compile(
            rf"(?:^|(?<=[\s,;:(\"“]))(?:{who}){adv}\s+"
            rf"(?:{_words_regex(spaced_a, inside)})(?!\w)",
            re.IGNORECASE,
        )
    dense = None
    if dense_p and dense_a:
        dense = re.compile(
            rf"(?:{_words_regex(dense_p)})[^。！？!?\n]{{0,40}}?(?:{_words_regex(dense_a)})"
        )
    return spaced, dense


@lru_cache(maxsize=16)
def _habit_regexes(
    persons: tuple[str, ...], habits: tuple[str, ...]
) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """(spaced, unspaced) regexes of a person and a habit begun or given up;
    in a script without spaces the habit alone ("戒了烟": quit smoking)."""
    dense_h = tuple(h for h in habits if any(unspaced(c) for c in h))
    spaced_h = tuple(h for h in habits if h not in dense_h)
    spaced_p = tuple(p for p in persons if not unspaced(p))
    spaced = dense = None
    if spaced_h:
        who = f"{_NAME}|(?<!\\w)(?:{_words_regex(spaced_p)})" if spaced_p else _NAME
        spaced = re.compile(
            rf"(?:^|(?<=[\s,;:(\"“]))(?:{who})\s+(?:{'|'.join(spaced_h)})",
            re.IGNORECASE,
        )
    if dense_h:
        dense = re.compile("|".join(f"(?:{h})" for h in dense_h))
    return spaced, dense


def habit_at(text: str, words: Words) -> int:
    """Where a person's habit begun or given up ("Sam started running", "Sam
    quit smoking") starts in ``text``, or -1."""
    if not words.habits:
        return -1
    spaced, dense = _habit_regexes(words.persons, words.habits)
    found = [m.start() for r in (spaced, dense) if r for m in [r.search(text)] if m]
    return min(found, default=-1)


def attitude_at(text: str, words: Words) -> int:
    """Where a person's attitude ("Mira prefers", "Sam likes") starts in
    ``text``, or -1."""
    return _attitude_at(text, words)


def _attitude_at(text: str, words: Words) -> int:
    """Where a person's attitude starts in ``text``, or -1 (adverbs and marks
    of change may stand between: "Sam now wants updates every 2 hours")."""
    spaced, dense = _attitude_regexes(
        words.persons, words.attitudes, (*words.adverbs, *words.change_words)
    )
    found = [m.start() for r in (spaced, dense) if r for m in [r.search(text)] if m]
    return min(found, default=-1)


@lru_cache(maxsize=16)
def _conditional_regex(conditionals: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(rf"(?:{_words_regex(conditionals)})(?!\w)")


def _norm_at(text: str, low: str, words: Words) -> int:
    """Where a modal norm or a leading present-tense conditional starts, or -1
    (never in a question: "should we raise the limit?" asks, it rules nothing)."""
    if low.rstrip().endswith(("?", "？")):
        return -1
    m = find(low, words.norms, words.exclusions)
    at = m.start() if m else -1
    if at != 0 and words.conditionals:
        cond = _conditional_regex(words.conditionals).match(low)
        # "If the build fails, retry once": a rule; "When I checked, ..." a log
        if cond and re.search(r",\s|，|、", low) and not _past(low, words):
            return 0
    return at


@lru_cache(maxsize=16)
def _past_regex(
    forms: tuple[str, ...], verbs: tuple[str, ...]
) -> re.Pattern[str] | None:
    parts = [f"(?:{f})" for f in forms]
    if verbs:
        parts.append(rf"(?<!\w)(?:{_words_regex(verbs)})(?!\w)")
    return re.compile("|".join(parts)) if parts else None


def told_past(low: str, words: Words) -> bool:
    """Whether ``low`` (casefolded) holds a past-tense form anywhere."""
    return _past(low, words)


def _past(low: str, words: Words) -> bool:
    """Whether ``low`` holds a past-tense form anywhere."""
    regex = _past_regex(words.past_forms, words.log_verbs)
    return bool(regex and regex.search(low))


def _log_at(low: str, words: Words) -> int:
    """Where the agent's report of a one-off act starts, or -1: a leading past
    form with no subject ("verified ..."), or the first verb of the first
    clause a past form ("x was added", "the run succeeded")."""
    regex = _past_regex(words.past_forms, words.log_verbs)
    if regex is None:
        return -1
    body = _MARKUP.sub("", low)
    lead = len(low) - len(body)
    if unspaced(body):  # a past ending closes the sentence: 修复了, 直しました
        m = regex.search(body)
        return lead + m.start() if m else -1
    clause = _CLAUSE.split(body, maxsplit=1)[0]
    tokens = list(re.finditer(r"[\w'’.-]+|`[^`]*`", clause))
    if not tokens:
        return -1
    if re.match(r"^\S+ed\s+\w+:", body):  # "Shared goal: ...": an adjective
        return -1
    before = ""
    for t in tokens[:10]:
        word = t.group().strip(".")
        if word in words.copulas or word in ("can", "will", "should", "must", "does"):
            return -1  # the first verb is a present one
        whole = regex.fullmatch(word)
        if whole and before not in _DETERMINERS:
            return lead + t.start()
        if word in ("was", "were", "had"):
            return lead + t.start()
        before = word
    m = regex.search(clause)  # a form of several words: "habe ... geleert"
    return lead + m.start() if m and " " in m.group().strip() else -1


@lru_cache(maxsize=16)
def _state_regex(states: tuple[str, ...]) -> re.Pattern[str] | None:
    if not states:
        return None
    alts = [
        _words_regex((s,)) if unspaced(s) else rf"(?<!\w)(?:{_words_regex((s,))})(?!\w)"
        for s in states
    ]
    return re.compile("|".join(sorted(alts, key=len, reverse=True)))


def _state_at(text: str, low: str, words: Words) -> int:
    """Where a state report starts: a state phrase, a status mark, or a
    shouted word after a copula ("is DOWN"); -1 for none."""
    found = []
    regex = _state_regex(words.states)
    m = regex.search(low) if regex else None
    if m:
        found.append(m.start())
    m = _STATUS.search(text)
    if m:
        found.append(m.start())
    for m in _SHOUT.finditer(text):
        before = low[: m.start()].split()[-1:] if m.start() else []
        if before and before[0] in words.copulas:
            found.append(m.start())
            break
    return min(found, default=-1)


def _result_at(text: str, words: Words) -> int:
    """Where a lasting result starts ("X set to Y", "granted X", a change
    frame to a value that is not a number, "created X at `path`"), or -1."""
    frame = read_frame(text, words)
    if frame and frame.kind == "change" and frame.new and not _NUMBER.match(frame.new):
        if frame.strong:
            return 0
        # "reconfigured from A to B" (not "a migration from A to B")
        regex = _past_regex(words.past_forms, words.log_verbs)
        for m in _FROM_TO.finditer(text.casefold()):
            if regex and regex.fullmatch(m.group(1)):
                return 0
    if first_frame(text, words.results):
        return 0
    placed = first_frame(text, words.placements)
    if placed and _PLACE.search(placed[1].get("new", "")):
        return 0
    return -1


def _statement_at(text: str, low: str, words: Words) -> int:
    """Where the copula of a plain present statement with a subject is, or -1
    (never with a word of time or a transient cue: a state report)."""
    if len(low.split()) < 5 and not unspaced(low) or low.rstrip().endswith(("?", "？")):
        return -1
    if find(low, words.time_words, words.exclusions) or find(
        low, words.transient_cues, words.exclusions
    ):
        return -1
    clause = _CLAUSE.split(_MARKUP.sub("", low), maxsplit=1)[0]
    m = find(clause, words.copulas, words.exclusions)
    if m is None or (m.start() == 0 and not unspaced(clause)):
        return -1  # no verb, or no subject before it
    if not unspaced(clause) and len(clause[: m.start()].split()) > _SUBJECT:
        return -1  # "Tomás thinks the chart is busy": the verb of a clause inside
    if re.match(r"\s*\w+ing\b", clause[m.end() :]):
        return -1  # "is preparing a demo": an activity, not a statement
    return low.find(clause) + m.start()


def durable_at(text: str, words: Words) -> int:
    """Where the first attitude or rule of ``text`` starts, or -1: an
    earlier transient cue does not make it a state report."""
    low = text.casefold()
    found = [
        a for a in (_attitude_at(text, words), _norm_at(text, low, words)) if a >= 0
    ]
    return min(found, default=-1)


_LEAD_IN = re.compile(r"^([^:：\n]{3,80}?)[:：]\s+(?=\S)")


def read_voice(text: str, words: Words) -> Voice | None:
    """The voice of ``text`` (one entry) under ``words``, or None when it has
    none: an attitude, then a lasting result, then (of what a short lead-in
    ending in a colon introduces, else of the whole) a log line, the earlier
    of a state report and a rule, a plain statement."""
    attitude = _attitude_at(text, words)
    if attitude >= 0:
        return Voice("preference", "attitude", attitude)
    habit = habit_at(text, words)
    if habit >= 0:  # "Sam stopped running before work": a habit, not a log line
        return Voice("preference", "habit", habit)
    if _result_at(text, words) >= 0:
        return Voice("fact", "result", 0)
    lead = _LEAD_IN.match(text)
    if lead and len(lead.group(1).split()) <= 10:
        # "A lesson surfaced: retries should back off": the voice of the body
        said = _clause_voice(text[lead.end() :], words)
        if said:
            return Voice(said.kind, said.rule, said.at + lead.end())
    return _clause_voice(text, words)


def _clause_voice(text: str, words: Words) -> Voice | None:
    low = text.casefold()
    log = _log_at(low, words)
    if log >= 0:
        return Voice("event", "log voice", log)
    state = _state_at(text, low, words)
    norm = _norm_at(text, low, words)
    if state >= 0 and (norm < 0 or state <= norm):
        return Voice("state", "state voice", state)
    if norm >= 0:
        return Voice("fact", "rule voice", norm)
    said = _statement_at(text, low, words)
    if said >= 0:
        return Voice("fact", "statement", said)
    limit = _RATE.search(low)
    if limit:  # "the API allows 60 requests per minute": a limit, in any language
        return Voice("fact", "limit", limit.start())
    return None
