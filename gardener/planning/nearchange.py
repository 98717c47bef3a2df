"""A durable entry that reads as a change and shares words with a current
fact the rules did not tie it to (pure): the judge is asked whether it
replaces that fact.

Real changes are seldom written as "X switched to Y": "Fallback: kimi-k2.5"
under "Switched to Ollama as primary model" replaces "GPT-4o: complex
programming (fallback)", and only a reader can say so. The rules file such an
entry beside the old fact, so two values pile up as current; here it waits
for the judge instead, with the fact it may replace (docs/design.md, The
judge: near changes). Asked only of an entry with a mark of change (a lexicon
``change_verbs`` or ``change_words`` phrase, in the entry or its heading) whose
key, if any, holds no current value, so a pass asks this of few entries.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gardener.lexicon.words import Words
from gardener.model.facts import Entry, Fact
from gardener.planning.asserted import asserts
from gardener.planning.classify import Classified
from gardener.planning.restate import FactWords, marks_of_change

# words of four letters or more (their first five letters), and two-character
# runs of Chinese and Japanese: what two sentences about one thing share
_WORD = re.compile(r"[^\W\d_]{4,}|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]{2,}")
_COMMON = 200  # facts sharing a word past which it tells nothing
_MIN_SHARED = 2
_MIN_SHARE = 0.4  # of the shorter side's words
_CODE = re.compile(r"`|::|\w\.(?:py|js|ts|rs|go|rb|sh|md|json|toml|ya?ml)\b")
_ARROWS = re.compile(r"→|->|=>")
_MAX_TEXT = 400  # a longer entry is a paragraph: it names facts in passing


def stems(text: str) -> frozenset[str]:
    """The words of ``text`` two sentences about one thing share."""
    out: set[str] = set()
    for word in _WORD.findall(text.casefold()):
        if ord(word[0]) >= 0x3040:
            out.update(word[i : i + 2] for i in range(len(word) - 1))
        else:
            out.add(word[:5])
    return frozenset(out)


class FactIndex(FactWords):
    """The words (``stems``) of the pass's current facts, keyed or not, no
    events (a fact superseded in place is skipped when read)."""

    def of(self, fact: Fact) -> frozenset[str]:
        if fact.superseded or fact.kind == "event" or fact.get("until"):
            return frozenset()
        return stems(f"{fact.key or ''} {fact.value}")


def near_change(
    c: Classified,
    entry: Entry,
    since: str,
    facts: list[Fact],
    index: FactIndex,
    current: Callable[[str], Fact | None],
    words: Words,
) -> tuple[str, Fact] | None:
    """(why it waits, the fact) when the durable reading ``c`` of ``entry``
    reads as a change and shares words with one current fact that held before
    ``since`` (local "YYYY-MM-DDTHH:MM"); None otherwise. ``facts``: the pass's
    facts, indexed by ``index`` (grown here); ``current(key)``: the key's
    current fact."""
    if not c.durable or c.ends or c.replaces or c.leaves or c.judge:
        return None  # the rules name what it replaces, or the judge spoke
    if c.kind == "event":
        return None
    if c.key and current(c.key) is not None:
        return None  # the decision table settles it by its key
    text = entry.value
    if len(text) > _MAX_TEXT or not asserts(text) or _CODE.search(text):
        return None  # a log paragraph, or a file or command named in passing
    if len(_ARROWS.findall(text)) > 1:
        return None  # two arrows are a pipeline ("Clarify → Plan → Verify")
    marks = marks_of_change(words)
    if not (marks.search(text) or (entry.heading and marks.search(entry.heading))):
        return None
    mine = stems(f"{entry.heading or ''} {text}")
    if len(mine) < _MIN_SHARED:
        return None
    index.grow(facts)
    shared: dict[int, int] = {}
    for w in mine:
        posted = index.by_stem.get(w, ())
        if len(posted) > _COMMON:
            continue
        for at in posted:
            shared[at] = shared.get(at, 0) + 1
    named = stems(c.key.rsplit(" / ", 1)[-1]) if c.key else frozenset()
    ranked: list[tuple[float, int, int]] = []
    for at, n in shared.items():
        fact = facts[at]
        if n < _MIN_SHARED or fact.superseded or fact.get("until") or not fact.id:
            continue
        if fact.since and fact.since[:16] > since[:16]:
            continue
        score = n / min(len(mine), len(index.words[at]))
        if score >= _MIN_SHARE:
            # a tie goes to the fact that names the entry's own label
            # ("Fallback: kimi-k2.5" and "GPT-4o: ... (fallback)")
            ranked.append((-score, -len(named & index.words[at]), at))
    if not ranked:
        return None
    ranked.sort()
    olds = [facts[at] for _, _, at in ranked[:3]]
    also = "".join(f", or {f.id}" for f in olds[1:])
    why = (
        f"near: it reads as a change and shares words with {olds[0].id}"
        f" ({olds[0].value[:60]!r}){also}; does it replace one?"
    )
    return why, olds[0]
