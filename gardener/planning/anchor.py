"""Anchor a change or removal that names no key by the value it leaves
(pure): "replaced Kimi with Ollama" supersedes the current fact whose value
is Kimi; "we no longer use Mailgun" ends the one holding Mailgun.

The anchor must be unambiguous: exactly one current keyed fact whose value
the sentence names (see docs/design.md, "Changes and removals").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from gardener.model.facts import Fact
from gardener.planning.classify import Classified
from gardener.planning.ending import names

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
