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

from gardener.model.facts import Fact, normalize_key
from gardener.planning.classify import Classified
from gardener.planning.ending import names
from gardener.planning.keying import copula_split

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


def replacing(c: Classified, current: Iterable[Fact]) -> Classified:
    """``c`` replacing (or, a removal, ending) the one current unkeyed fact
    that names the value it leaves ("Fluentd is gone, we use Vector for log
    shipping" after "Logs are shipped with Fluentd."; "cancelled Pingdom"
    after "Uptime checks via Pingdom"), or ``c`` unchanged (nothing left,
    none or several such facts)."""
    if not c.leaves or c.replaces or len(c.leaves.split()) > _NAME_WORDS:
        return c
    found = [
        f
        for f in current
        if not f.key and not f.superseded and f.kind != "event" and f.id
        and names(f.value, c.leaves)
    ]  # fmt: skip
    if len(found) != 1:
        return c
    (fact,) = found
    return replace(c, replaces=fact.id, value=restated(fact.value, c))


def restated(old: str, c: Classified) -> str:
    """The value of ``c`` replacing the unkeyed sentence ``old``: when ``c``'s
    value is only the new name ("Standup moved from 9:30 to 10:00" leaves
    10:00), ``old`` with what it leaves in its place ("Standup is at 10:00
    every weekday"), since a bare "10:00" says nothing once its note is
    gone; else ``c``'s value as it is (a sentence of its own, a removal)."""
    if c.ends or not c.leaves or c.key or len(c.value.split()) > _NAME_WORDS:
        return c.value
    at = _whole(old, c.leaves)
    if at is None:
        return c.value
    return old[: at[0]] + c.value + old[at[1] :]


def _whole(text: str, name: str) -> tuple[int, int] | None:
    """(start, end) of the one place ``name`` stands in ``text`` as whole
    words (case-insensitive), or None when it stands in none or several."""
    spots = [
        m.span()
        for m in re.finditer(rf"(?<!\w){re.escape(name.strip())}(?!\w)", text, re.I)
    ]
    return spots[0] if len(spots) == 1 else None


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


def by_subject(
    c: Classified, current: Callable[[str], Fact | None], copulas: tuple[str, ...]
) -> Classified:
    """``c`` keyed by the current fact whose key is the subject of its first
    copula ("Korrektur: Der Staging-Host ist stg2" after "**Staging-Host:**
    stg1": ``Staging-Host``, stg2; "the staging host is stg3" after
    ``staging / host``), or ``c`` unchanged (keyed already, an event, no
    copula, the subject names no current key)."""
    if c.key or c.ends or c.kind == "event" or not c.durable:
        return c
    split = copula_split(c.value, copulas)
    if split is None:
        return c
    subject, value = split
    words = subject.replace("-", " ").split()  # "Staging-Host" is two words
    # "staging host" is also the key a pattern writes, ``staging / host``
    tried = (
        [subject, f"{' '.join(words[:-1])} / {words[-1]}"]
        if len(words) > 1
        else [subject]
    )
    for key in tried:
        fact = current(key)
        if fact is not None and fact.key and fact.kind != "event":
            return replace(c, key=fact.key, value=value, keyed_by="subject")
    return c
