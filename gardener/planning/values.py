"""A value as a sentence gives it: the sentence's full stop taken off, an
abbreviation's stop kept ("Apple Inc.", "Washington, D.C."). Pure; used
where classify cuts a value out of a sentence (``gardener.planning.classify``).
"""

from __future__ import annotations

import re

# Words whose stop is part of the word, casefolded, without the dot: company
# forms, titles, street and place words, Latin and common short forms (en, de,
# fr, es, ru). A one-letter word is not among them: "server B." ends a sentence.
# fmt: off
ABBREVIATIONS = frozenset((
    "inc", "ltd", "co", "corp", "bros", "st", "dr", "jr", "sr", "mr", "mrs", "ms",
    "prof", "ave", "rd", "blvd", "mt", "ft", "etc", "approx", "vs", "dept", "capt",
    "lt", "sgt", "esq", "sra", "av", "str", "bzw", "usw", "ggf", "evtl", "ca",
    "mme", "mlle", "cie", "ул", "пр",
))
# fmt: on
# an initialism written with dots: D.C., U.S.A., e.g., a.m., z.B., т.д.
_INITIALISM = re.compile(r"(?:[^\W\d_]\.){2,}")
# a value that opens with a quoted name and goes on with an aside after it
_QUOTED = re.compile(r"^([\"“«「])([^\"“”«»「」]{1,80})([\"”»」])\s*(?:[,;(]|[-–—]\s)")
_APPOSITION = re.compile(r",\s+(?:the|a|an|our|my|your|their)\s+", re.IGNORECASE)
_LAST_WORD = re.compile(r"([^\s,;:()\[\]\"'«»]+)\.+$")


def strip_stop(value: str) -> str:
    """``value`` without the full stop (or stops) that end a sentence, and
    without trailing spaces; a stop that ends an abbreviation stays.

    ``"SQLite."`` -> ``"SQLite"``; ``"Apple Inc."``, ``"Washington, D.C."``,
    ``"9 a.m."`` stay as they are.
    """
    value = value.rstrip()
    if not value.endswith("."):
        return value
    m = _LAST_WORD.search(value)
    if m and not value.endswith(".."):
        word = m.group(1) + "."
        if word.rstrip(".").casefold() in ABBREVIATIONS or _INITIALISM.fullmatch(word):
            return value
    return value.rstrip(".").rstrip()


def matched_value(match: re.Match[str]) -> str:
    """The ``value`` group of a template match (``classify.compile_template``),
    stripped as ``strip_stop`` strips. The template's end takes a final stop
    off the lazy group; when the value ends the sentence, it is given back
    first, so that an abbreviation keeps it."""
    value = match.group("value").strip()
    quoted = _QUOTED.match(value)
    if quoted:  # 'named me "Anna", the new support desk': the name is quoted
        return quoted.group(2)
    # "Atlas, the release helper": an apposition says what the value is
    value = _APPOSITION.split(value, maxsplit=1)[0]
    if match.string[match.end("value") : match.end()].strip() == ".":
        value += "."
    return strip_stop(value)
