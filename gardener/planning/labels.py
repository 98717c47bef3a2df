"""Label bullets: ``**Key**: value``, ``**Key:** value`` and ``Key: value``,
and what their label is (pure).

A label names a kind ("Decision:", "Lesson:"), a state or event ("Status:",
"10:30 UTC:", "Step 2:", "User:", "WARN:"), a generic slot that is never a
key on its own ("Note:", "Context:"), or else a key ("Database:"). See
docs/design.md, "Label bullets".
"""

from __future__ import annotations

import re
from functools import lru_cache

from gardener.lexicon.match import phrase_regex, unspaced
from gardener.lexicon.words import Words

# "Label: value" with an ASCII or full-width colon; no sentence stop or code in
# the label, and the colon is followed by a space (ASCII) or anything (full-width)
# "`name`: value": a label that is one code span (a file, a function, a flag)
_CODE_LABEL = re.compile(r"^\*{0,2}`([^`\s][^`]{0,78})`\*{0,2}\s*(?::\s+|：\s*)(\S.*)$")
_PLAIN = re.compile(r"^([^:：.!?`\[\]()（）]{1,60}?)\s*(?::\s+|：\s*)(\S.*)$")
# status tags, as a label ("DONE:") or opening a label's value ("✅ PASSED - ...")
_TAGS = (
    "OK|FAIL|FAILED|PASS|PASSED|PARTIAL|SUCCESS|DONE|TODO|BLOCKED|WIP|WORKING"
    "|BROKEN|PENDING|SKIPPED|RUNNING"
)
_TRANSIENT_SHAPE = re.compile(
    r"""^(?:
        (?:[01]?\d|2[0-3])[:h.][0-5]\d(?:[:.][0-5]\d)?(?:\s*[A-Za-z]{2,4})?
        | \d{1,2}\s?(?:am|pm)
        | \d{4}-\d{2}-\d{2}.*
        | (?:INFO|DEBUG|WARN|WARNING|ERROR|ERR|FATAL|TRACE|CRITICAL|FIXME
           |"""
    + _TAGS
    + r""")   # a log level or a status tag
        | \S+\s+\#?\d+(?:[./]\d+)? | \S+\#\d+   # a numbered step: Step 2, Run #3
        | [\u3040-\u30ff\u3400-\u9fff]+\d+(?:[./]\d+)?   # ステップ1, 步骤2
        | [QA]\d*
        | \#\d+
    )$""",
    re.VERBOSE,
)
# a line or a value opened by a status mark: "✅ Backups running", "⚠️ PARTIAL"
_STATUS_MARK = re.compile(
    r"^\s*(?:[\u2705\u2714\u2611\u274C\u274E\u2716\u26A0\u26D4\U0001F6AB"
    r"\U0001F7E2\U0001F7E1\U0001F534\U0001F7E0\u23F3\U0001F6A7]\uFE0F?)"
)
_STATUS_WORD = re.compile(r"^(?:" + _TAGS + r")\b")
# "Clawk reply (c204cf6a): ...", "Run (#12): ...": a record of a log, named by an id
_RECORD = re.compile(
    r"^[^:()（）]{1,40}[(（][^)）]*(?:\b[0-9a-f]{6,}\b|#\d+)[^)）]*[)）]\s*[:：]", re.I
)
# a label that is a recurrence states a schedule ("Every 6 hours:", "Nightly:",
# "Täglich:", "每天："): a standing fact, not a clock time of one day
_RECURRENCE = re.compile(
    r"""^(?:
        (?:every|each)\s+(?:\d+\s+)?\w+(?:\s+\w+)? | hourly | daily | nightly | weekly
        | monthly | yearly | weekdays | weekends
        | (?:jede[nrs]?|alle)\s+(?:\d+\s+)?\w+ | stündlich | täglich | nächtlich
        | wöchentlich | monatlich
        | (?:tous\s+les|toutes\s+les|chaque)\s+(?:\d+\s+)?\w+ | quotidien(?:ne)?
        | hebdomadaire | mensuel(?:le)?
        | (?:cada|todos\s+los|todas\s+las)\s+(?:\d+\s+)?\w+ | diario | semanal | mensual
        | (?:каждый|каждую|каждое|каждые)\s+(?:\d+\s+)?\w+ | ежедневно | еженедельно
        | ежечасно | ежемесячно
        | 每[天日周週月年]|每\d*个?小时|每隔.{1,4} | 毎[日週月年朝晩]|毎時|\d+時間(?:ごと|おき)
    )$""",
    re.VERBOSE | re.IGNORECASE,
)
_OWNER = re.compile(
    r"\s+(?:from|for|of|by|von|für|vom|de|du|des|pour|para|por|del|от|для)\s+\S.*$"
)
_URL = re.compile(r"https?://|www\.", re.IGNORECASE)
_NUMBER = re.compile(r"^[~≈<>+-]?\s*[\d.,]+\s*(?:%|[a-zA-Zµ×]{0,4})(?:\s|$|/)")


def split_label(text: str) -> tuple[str, str] | None:
    """(label, rest) of a ``Label: value`` text, or None when it is no label
    (a label is at most six words, or twelve characters of Chinese or
    Japanese, and is no URL)."""
    code = _CODE_LABEL.match(text)
    if code:  # "`merger.py::dedupe`: keeps the newest row": the code it names
        return code.group(1), code.group(2).strip()
    m = _PLAIN.match(text)
    if not m:
        return None
    label, rest = m.group(1).strip().strip("*_ "), m.group(2).strip()
    if not label or _URL.search(label) or label.endswith(("http", "https")):
        return None
    size = len(label) if unspaced(label) else len(label.split())
    if size > (12 if unspaced(label) else 6):
        return None
    return label, rest


def folded(label: str) -> str:
    """A label compared: casefolded, spaces and markup squeezed, a plural
    ``s`` dropped (``Notes`` is ``note``)."""
    low = " ".join(label.casefold().replace("*", " ").replace("_", " ").split())
    return low.rstrip(":：").strip()


def _among(label: str, phrases: tuple[str, ...], compounds: bool = False) -> bool:
    if label in phrases:
        return True
    for tail in ("es", "s"):
        if label.endswith(tail) and label[: -len(tail)] in phrases:
            return True
    # a compound ending in a listed word: "deploy status", "next step notes"
    last = label.rsplit(" ", 1)[-1]
    return compounds and " " in label and last in phrases


def label_class(
    label: str, words: Words, value: str | None = None
) -> tuple[str, str | None]:
    """("kind", kind) | ("transient", None) | ("generic", None) | ("key", None).

    ``value``, when given, is what the label introduces: a compound that is
    transient only by its head noun ("Review time:", "Backup time:") is a key
    when its value states a schedule ("mornings", "nightly", "Fridays")."""
    if _RECURRENCE.match(folded(label)):
        return "kind", "fact"
    if _KEY_FORM.match(label.strip()):
        return "key", None  # "Dana / review time:": the gardener's own key form
    if _TRANSIENT_SHAPE.match(label.strip()):
        return "transient", None
    low = folded(label)
    # "Important working rule from Sam": the head noun stands before its "from"
    head = _OWNER.sub("", low)
    last = head.rsplit(" ", 1)[-1]
    for kind, labels in words.kind_labels.items():
        if head in labels or (head.endswith("s") and head[:-1] in labels):
            return "kind", kind
        # "Collaboration rule:", "Key insight:": one of many, never a key
        if " " in head and (last in labels or last.rstrip("s") in labels):
            return "kind", kind
    if _among(low, words.transient_labels, compounds=True):
        compound = not _among(low, words.transient_labels)
        if compound and value is not None and schedule(value, words):
            return "key", None
        return "transient", None
    if _among(low, words.generic_labels):
        return "generic", None
    return "key", None


# "Subject / attribute": a label written as a key (docs/design.md, Key)
_KEY_FORM = re.compile(r"^[^/:]{1,60}\S\s/\s\S[^/:]{0,60}$")


def schedule(value: str, words: Words) -> bool:
    """Whether ``value`` opens with a recurrence ("every 2 hours", "nightly",
    "每天") or names a time that comes back ("mornings, before 10:00",
    "Fridays"): the lexicon's ``recurring``; "Monday 9:00" is one day's."""
    low = folded(value).lstrip("*_ ")
    first = re.split(r"[,;.，；。(（]", low, maxsplit=1)[0].strip()
    opening = first.split()
    if any(_RECURRENCE.match(" ".join(opening[:n])) for n in (1, 2, 3, 4)):
        return True
    regex = _recurring_regex(words.recurring)
    return regex is not None and regex.search(low) is not None


@lru_cache(maxsize=8)
def _recurring_regex(names: tuple[str, ...]) -> re.Pattern[str] | None:
    return phrase_regex(names)


# words that open a clause, not a name: "had lunch: pizza", "we tried: x"
_CLAUSE = frozenset(
    [
        "i",
        "we",
        "you",
        "he",
        "she",
        "they",
        "it",
        "had",
        "did",
        "got",
        "went",
        "was",
        "were",
        "is",
        "are",
        "tried",
        "found",
        "saw",
        "made",
        "just",
        "then",
        "also",
        "finally",
        "so",
        "but",
        "and",
        "or",
        "if",
        "when",
        "after",
        "before",
        "while",
        "because",
        "ich",
        "wir",
        "er",
        "sie",
        "es",
        "je",
        "nous",
        "il",
        "elle",
        "on",
        "yo",
        "nosotros",
        "él",
        "ella",
        "я",
        "мы",
        "он",
        "она",
        "они",
    ]
)


def names_a_slot(label: str) -> bool:
    """Whether a plain label reads as a name ("Deploy window", "Fallback")
    rather than the start of a clause ("had lunch", "we tried", "fixed it")."""
    if unspaced(label):
        return True
    words = folded(label).split()
    if not words or len(words) > 4 or words[0] in _CLAUSE:
        return False
    # "Fixed", "Deployed": a past tense opens a clause ("Staging", "Billing"
    # name things); "User confirmed", "Sam said": one closes an attribution
    # a capitalised last word is a name ("Partner Ahmed", "Contact for Jared")
    named = len(words) > 1 and label.split()[-1][:1].isupper()
    last = () if named else (words[-1],)
    return not any(_past(word) for word in (words[0], *last)) and (
        words[-1] not in _SAID
    )


def _past(word: str) -> bool:
    """A regular past tense ("fixed", "confirmed"), not a noun that ends like
    one ("speed", "breed", "embed")."""
    return (
        word.isascii()
        and len(word) > 4
        and word.endswith("ed")
        and not word.endswith(("eed", "bed"))
    )


# the verb of who said it, closing a label: "Sam said: ...", "User asked: ..."
_SAID = frozenset(
    ("said", "says", "wrote", "writes", "told", "asked", "asks", "agreed", "agrees")
)


def status_mark(text: str) -> bool:
    """Whether ``text`` opens with a status mark (✅, ❌, ⚠️, 🟢 ...): a line of
    a status report, like a ticked checkbox."""
    return bool(_STATUS_MARK.match(text))


def status_value(value: str) -> bool:
    """Whether a label's value is a status ("✅ PASSED - ...", "FAILED", "WIP")."""
    return bool(_STATUS_MARK.match(value) or _STATUS_WORD.match(value.lstrip("*_ ")))


def log_record(text: str) -> bool:
    """Whether ``text`` opens with a label naming a record by its id
    ("Clawk reply (c204cf6a): ...", "Deploy (#12): ...")."""
    return bool(_RECORD.match(text))


def counter(label: str, value: str, words: Words) -> bool:
    """Whether ``label: value`` reads as a reading of a counter (a number
    under a label of the transient list: "Followers: 120", "Latency: 80ms")."""
    return bool(_NUMBER.match(value)) and _among(folded(label), words.transient_labels)
