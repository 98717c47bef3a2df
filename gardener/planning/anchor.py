"""Anchor a change or removal that names no key by the value it leaves
(pure): "replaced Kimi with Ollama" supersedes the current fact whose value
is Kimi; "we no longer use Mailgun" ends the one holding Mailgun. A key that
names a topic takes the spelling of the current fact naming it in another
language (``aliased``).

The anchor must be unambiguous: exactly one current keyed fact whose value
the sentence names (see docs/design.md, "Changes and removals").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import lru_cache

from gardener.lexicon.match import unspaced
from gardener.model.facts import Fact, normalize_key
from gardener.planning.classify import Classified
from gardener.planning.ending import names
from gardener.planning.values import strip_stop

_NAME_WORDS = 4  # a value longer than a name anchors nothing: too many near-matches


def anchored(c: Classified, current: Iterable[Fact]) -> Classified:
    """``c`` keyed by the one current fact whose value ``c.leaves`` names,
    or ``c`` unchanged (keyed already, nothing left, none or several match)."""
    if c.key or not c.leaves or len(c.leaves.split()) > _NAME_WORDS:
        return c
    found = {
        f.norm_key: f
        for f in current
        if f.key
        and not f.superseded
        and f.kind != "event"
        and len(f.value.split()) <= _NAME_WORDS
        and names(f.value, c.leaves)
        and names(c.leaves, f.value)
    }
    if len(found) != 1:
        return c
    (fact,) = found.values()
    if c.ends:
        return replace(c, key=fact.key, value=fact.value, keyed_by="anchor")
    return replace(c, key=fact.key, keyed_by="anchor")


def topic_names(
    topics: Iterable[str], names: Mapping[str, tuple[str, ...]]
) -> dict[str, tuple[str, ...]]:
    """Normalized key -> the normalized names of its topic, for each of
    ``topics`` (rules.md's) and its names in the lexicon's languages
    ("datenbank" -> ("database", "datenbank", "db", ...))."""
    out: dict[str, tuple[str, ...]] = {}
    for topic in topics:
        all_names = tuple(
            dict.fromkeys(normalize_key(n) for n in (topic, *names.get(topic, ())))
        )
        for name in all_names:
            out.setdefault(name, all_names)
    return out


def aliased(
    c: Classified,
    current: Callable[[str], Fact | None],
    named: Mapping[str, tuple[str, ...]],
) -> Classified:
    """``c`` keyed as the current fact that names the same topic in another
    word ("**Paketmanager:** pip", then "nutzen wir uv statt pip", keyed
    ``package manager``: the new value goes under ``Paketmanager``), or ``c``
    unchanged. ``current``: normalized key -> its current fact;
    ``named``: as ``topic_names`` returns."""
    if not c.key or not named:
        return c
    mine = normalize_key(c.key)
    if mine not in named or current(mine) is not None:
        return c
    for name in named[mine]:
        fact = current(name) if name != mine else None
        if fact is not None and fact.key:
            return replace(c, key=fact.key)
    return c


# articles of a subject before its copula, in the languages of the lexicon
_SUBJECT_ARTICLE = re.compile(
    r"^(?:the|a|an|our|der|die|das|unser|unsere|le|la|les|l'|notre|el|los|las|"
    r"nuestro|nuestra)\s*(?<=\s|')",
    re.IGNORECASE,
)
# a dash between spaces ("тестовый сервер — test2") and は ("ステージングは X") are
# copulas too; a trailing copula or past ending of Japanese is not the value
_DASH = r"\s+[—–]\s+"
_ASIDE = re.compile(r"\s*[（(][^()（）]*[)）]\s*[。.!]?\s*$|[，、][^，、]*$")
_TAIL = re.compile(r"\s*(?:だった|でした|です|である|だ)?\s*[。！]?\s*$")
_SUBJECT_WORDS, _VALUE_WORDS = 5, 8


@lru_cache(maxsize=8)
def _copula_regex(copulas: tuple[str, ...]) -> re.Pattern[str]:
    spaced = [re.escape(c) for c in copulas if not any(unspaced(ch) for ch in c)]
    dense = [re.escape(c) for c in copulas if any(unspaced(ch) for ch in c)]
    parts = [_DASH, "は", *dense]
    if spaced:
        parts.insert(0, rf"\s+(?:{'|'.join(spaced)})\s+")
    return re.compile("|".join(parts), re.IGNORECASE)


def by_subject(
    c: Classified, current: Callable[[str], Fact | None], copulas: tuple[str, ...]
) -> Classified:
    """``c`` keyed by the current fact whose key is the subject of its first
    copula ("Korrektur: Der Staging-Host ist stg2" after "**Staging-Host:**
    stg1": ``Staging-Host``, stg2), or ``c`` unchanged (keyed already, an
    event, no copula, the subject names no current key)."""
    if c.key or c.ends or c.kind == "event" or not c.durable:
        return c
    m = _copula_regex(copulas).search(c.value)
    if m is None or m.start() == 0:
        return c
    subject = _SUBJECT_ARTICLE.sub("", c.value[: m.start()].strip(" *_`")).strip()
    # "X (hatte mich verlesen)", "X，之前记错了": the aside is not the value
    value = strip_stop(_TAIL.sub("", _ASIDE.sub("", c.value[m.end() :].strip())))
    if not subject or not value:
        return c
    if len(subject.split()) > _SUBJECT_WORDS or len(value.split()) > _VALUE_WORDS:
        return c
    fact = current(subject)
    if fact is None or not fact.key or fact.kind == "event":
        return c
    return replace(c, key=fact.key, value=value, keyed_by="subject")
