"""The judge's part of promotion (pure): which entries wait for a judgment,
how a judgment is read and checked, and what it makes of its entry.

An entry waits ("pending") when no rule placed it (undecided), when the rules
keyed it with low confidence (only the sentence's voice placed it, and a key
inferred from its words would replace a different current value), or, with ``judge_scope: all``, whenever the rules
would file it. A judgment never writes text of its own: its value must be
words of the entry, and it is filed through the same decision table as every
other entry (docs/design.md, The judge).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from gardener.lexicon.words import lexicon
from gardener.model.config import Config
from gardener.model.facts import Entry, Fact, normalize_key
from gardener.planning.classify import Classified
from gardener.planning.frames import negated
from gardener.planning.keying import topic_of
from gardener.planning.labels import split_label
from gardener.planning.nearchange import stems
from gardener.planning.sameness import same_value

# "[REDACTED:password]": what a redaction leaves (gardener.neverstore.engine)
_MARKER = re.compile(r"\[REDACTED(?::[^\]\n]{0,80})?\]")
_ANY_WORD = re.compile(r"\w")

VERDICTS = ("durable", "transient", "correction", "ends")
TRANSIENT_KINDS = ("event", "state", "todo")
# keys the rules inferred from the wording alone ("the Postgres pool is 20"),
# on an entry only the sentence's voice placed (no cue, label or heading):
# when one would replace a different current value, the judge confirms it
INFERRED_KEYS = frozenset({"topic", "copula"})
WEAK_RULES = frozenset({"statement", "result", "rule voice", "attitude"})
MAX_KEY_CHARS = 120
# what a key may not hold: MEMORY.md's line syntax, and its markers ("<!--
# gardener:end -->" in a key came through a breaker's decide)
_BAD_KEY = re.compile(r"[\n\r\t{}\[\]]|\*\*|`|<!--|-->")
_SPACE = re.compile(r"\s+")
# what MEMORY.md's entry line reads at its start: a key, a strike, a list mark
_LINE_SYNTAX = re.compile(
    r"(?:\*\*[^*\n]+\*\*\s*[:：]|\*\*[^*\n]+[:：]\*\*|~~|[-*+]\s)"
)


@dataclass(frozen=True, slots=True)
class Waiting:
    """One entry waiting for the judge.

    ``id``: what ``review`` shows and ``decide`` takes (``marks.pending_id``);
    ``mark``: its ledger mark; ``since``: its valid time as written (local);
    ``guess``: the rules' reading; ``why``: "undecided", "low confidence: ..."
    or "confirm: ..."; ``action``: what the rules would do ("skip", "add",
    "supersede", "reject"); ``current``: the key's current fact, if any.
    """

    id: str
    mark: str
    entry: Entry
    since: str
    guess: Classified
    why: str
    action: str
    current: Fact | None = None


@dataclass(frozen=True, slots=True)
class Judgment:
    """One answer: ``verdict`` is one of ``VERDICTS``; ``kind``, ``key`` and
    ``value`` are optional (None: the rules' guess; ``key=""``, or ``null``
    in JSON: unkeyed); ``replaces``: the id of a current fact the entry
    replaces (durable) or ends (``ends``), keyed or not."""

    id: str
    verdict: str
    kind: str | None = None
    key: str | None = None
    value: str | None = None
    replaces: str | None = None


def waits(
    c: Classified,
    config: Config,
    current: Callable[[str], Fact | None],
) -> tuple[str, Fact | None] | None:
    """Why the rules' reading ``c`` waits for the judge, and the current fact
    of its key; None when the rules' verdict stands (or no judge is set).
    ``current(key)`` is the key's current fact at this point of the pass."""
    if config.judge == "none" or c.judge is not None:
        return None
    # the current fact is looked up only when it matters: a pass asks this of
    # every entry (docs/design.md, The judge)
    if c.undecided:
        return "undecided", current(c.key) if c.key else None
    if not c.durable:
        if c.kind == "state" and c.rule == "heading":
            # a status section ("## System Health" / "**Model**: Kimi K2.5",
            # "running on local Ollama") holds settings as often as passing
            # states: only a heading word made it transient (measured in
            # bench/README.md, Beliefs: 13 more questions, 5 more durable)
            return "low confidence: transient only by its status heading", None
        return None
    if config.judge_scope == "all":
        return "confirm: judge_scope is all", current(c.key) if c.key else None
    if c.ends:
        if c.key is None and c.replaces is None:
            return (
                f"low confidence: it ends {c.value!r}, but no current value is named so",
                None,
            )
        return None
    if c.keyed_by not in INFERRED_KEYS or c.rule not in WEAK_RULES or not c.key:
        return None
    now = current(c.key)
    if now is None or now.kind == "event" or same_value(now.value, c.value):
        return None
    return (
        f"low confidence: the key {c.key!r} is inferred from the wording and"
        f" would replace {now.value!r}",
        now,
    )


def guessed_action(c: Classified, current: Fact | None) -> str:
    """What the rules would do with ``c``, roughly (for the judge to read)."""
    if not c.durable:
        return "skip"
    if c.ends:
        return "end"
    if current is None:
        return "add"
    return "reject" if same_value(current.value, c.value) else "supersede"


def read_judgments(data: object) -> list[Judgment]:
    """Judgments from parsed JSON: ``{"decisions": [...]}`` or a bare list,
    each ``{"id", "verdict", "kind"?, "key"?, "value"?, "replaces"?}`` (a durable kind as
    the verdict means durable of that kind). Raises ValueError naming the
    first bad one (``decision 2: ...``, counted from 1)."""
    items = data.get("decisions") if isinstance(data, Mapping) else data
    if not isinstance(items, list):
        raise ValueError('expected {"decisions": [...]} or a list of decisions')
    out: list[Judgment] = []
    for n, item in enumerate(items, 1):
        if not isinstance(item, Mapping):
            raise ValueError(f"decision {n}: expected an object")
        fields = {}
        for name in ("id", "verdict", "kind", "key", "value", "replaces"):
            value = item.get(name)
            if value is not None and not isinstance(value, str):
                raise ValueError(f"decision {n}: {name} must be a string")
            fields[name] = value.strip() if name != "value" and value else value
        if "key" in item and item["key"] is None:
            fields["key"] = ""  # "key": null says it has no key, not "the guess"
        ident, verdict = fields["id"], (fields["verdict"] or "").casefold()
        if not ident:
            raise ValueError(f"decision {n}: no id")
        kind = fields["kind"].casefold() if fields["kind"] else None
        if verdict not in VERDICTS and kind is None and verdict:
            verdict, kind = "durable", verdict  # {"verdict": "fact"}
        if verdict not in VERDICTS:
            raise ValueError(
                f"decision {n} ({ident}): verdict must be one of {', '.join(VERDICTS)}"
            )
        replaces = fields["replaces"] or None
        if replaces and verdict not in ("durable", "ends"):
            raise ValueError(
                f"decision {n} ({ident}): replaces goes with verdict durable or ends"
            )
        out.append(
            Judgment(ident, verdict, kind, fields["key"], fields["value"], replaces)
        )
    return out


def apply_judgment(
    j: Judgment,
    w: Waiting,
    config: Config,
    judge: str,
    current: Callable[[str], Fact | None],
    fact_of: Callable[[str], Fact | None] = lambda ident: None,
) -> Classified:
    """The entry of ``w`` as ``j`` places it, judged by ``judge`` (a name).

    ``fact_of(id)`` is the current fact of that id (for ``j.replaces``).
    Raises ValueError (why, for the judge to read) for a kind that is not one
    of the workspace's durable kinds (or of event/state/todo for a transient
    one), a malformed key, a value that is not words of the entry's text, a
    correction or an end naming a key with no current value, a ``replaces``
    naming no current fact or one dated after the entry.
    """
    guess, entry = w.guess, w.entry
    if j.replaces is not None:
        return _replacing(j, w, config, judge, current, fact_of)
    if j.verdict == "transient":
        kind = j.kind or (guess.kind if guess.kind in TRANSIENT_KINDS else "event")
        if kind not in TRANSIENT_KINDS:
            raise ValueError(
                f"a transient entry's kind is one of {', '.join(TRANSIENT_KINDS)}"
            )
        return replace(
            guess, kind=kind, durable=False, rule="judge", judge=judge, ends=False
        )
    key = _key(j.key if j.key is not None else guess.key or entry.key)
    held = current(key) if key else None
    if held is not None and held.key:
        key = held.key  # the key as MEMORY.md spells it
    durable = j.kind or next(
        (
            k
            for k in (guess.kind, held.kind if held else None)
            if k in config.durable_kinds
        ),
        None,
    )
    if j.verdict in ("ends", "correction") and not durable:
        durable = "fact"  # a removal files nothing; a correction is a fact's
    if durable is None:
        raise ValueError(
            f"a durable entry needs a kind: one of {', '.join(config.durable_kinds)}"
        )
    if durable not in config.durable_kinds:
        raise ValueError(
            f"{durable!r} is not a durable kind here: one of {', '.join(config.durable_kinds)}"
        )
    text = "\n".join([entry.text, *entry.nested])
    if j.verdict == "ends":
        if key is None or current(key) is None:
            raise ValueError(f"nothing to end: {key!r} has no current value")
        value = one_line(j.value) if j.value else ""
        if value and not words_of(value, text):
            raise ValueError(f"the value {value!r} is not in the entry's text")
        return Classified(
            durable, True, False, key, value, "judge", "judge", ends=True, judge=judge
        )
    # unkeyed, the whole entry is the value; keyed, what the rules read after the key
    fallback = (
        guess.value if key is not None and (guess.key or entry.key) else entry.text
    )
    value = one_line(j.value if j.value is not None else fallback or entry.value)
    bold = split_label(value) if j.value is None and value.startswith("**") else None
    if bold is not None and key is None:
        # "**Model**: Kimi K2.5" confirmed as it stands: it is keyed by its label
        # (filed unkeyed, MEMORY.md would read the label back as a key unchecked)
        key, value = _key(bold[0]), one_line(bold[1])
        known = current(key) if key else None
        key = known.key if known is not None and known.key else key
    if not value:
        raise ValueError("no value: give the words of the entry that are the value")
    if not words_of(value, text):
        raise ValueError(
            f"the value {value!r} is not in the entry's text: a judge files the"
            " entry's own words, never new text"
        )
    if _negated(value, text, config):
        raise ValueError(
            f"the entry says not {value!r}: a negated value is never filed"
        )
    if "[REDACTED" in value and not _ANY_WORD.search(_MARKER.sub(" ", value)):
        raise ValueError(
            f"the value {value!r} is only a redacted secret: a secret is never"
            " filed, not even as its marker"
        )
    if _LINE_SYNTAX.match(value):
        raise ValueError(
            "a value may not start with **key**:, ~~ or a list mark (MEMORY.md"
            " would read its own key or strike)"
        )
    correction = j.verdict == "correction"
    if correction and (key is None or current(key) is None):
        raise ValueError(f"nothing to correct: {key!r} has no current value")
    return Classified(
        durable, True, correction, key, value, "judge", "judge", judge=judge
    )


def _replacing(
    j: Judgment,
    w: Waiting,
    config: Config,
    judge: str,
    current: Callable[[str], Fact | None],
    fact_of: Callable[[str], Fact | None],
) -> Classified:
    """``j`` naming the current fact it replaces or ends (``j.replaces``):
    read as the same answer without it, then pointed at that fact. A keyed
    fact replaced by an entry of no other key lends it its key, so the
    decision table supersedes it as any value of the key (docs/design.md, The
    judge)."""
    assert j.replaces is not None
    old = fact_of(j.replaces.lstrip("#"))
    if old is None:
        raise ValueError(f"no current entry has the id {j.replaces!r}")
    if old.since and old.since[:16] > w.since[:16]:
        raise ValueError(
            f"{old.id} holds since {old.since}, after this entry ({w.since}):"
            " an entry replaces only what held before it"
        )
    lent = old.key if old.key and not j.key else j.key
    if j.verdict == "ends":
        if old.key:  # a keyed value ends as "ends KEY" ends it
            return apply_judgment(replace(j, key=old.key, replaces=None), w, config,
                                  judge, current)  # fmt: skip
        kind = j.kind if j.kind in config.durable_kinds else "fact"
        return Classified(kind, True, False, None, "", "judge", "judge", ends=True,
                          judge=judge, replaces=old.id)  # fmt: skip
    c = apply_judgment(replace(j, key=lent, replaces=None), w, config, judge, current)
    if old.key and c.key and normalize_key(c.key) == normalize_key(old.key):
        return c  # the decision table's own supersession
    return replace(c, replaces=old.id)


def _key(key: str | None) -> str | None:
    """``key`` checked (None or "" for unkeyed). Raises ValueError."""
    if key is None or not key.strip():
        return None
    key = one_line(key)
    if len(key) > MAX_KEY_CHARS or _BAD_KEY.search(key) or not normalize_key(key):
        raise ValueError(
            f"malformed key {key[:40]!r}: one line of at most {MAX_KEY_CHARS}"
            " characters, without ** ` { } [ ] <!-- -->"
        )
    return key


def words_of(value: str, text: str) -> bool:
    """Whether ``value`` is written in ``text`` as whole words, ignoring case
    and runs of space. Nothing else is folded: a value assembled from a text
    split by markup or written in other characters ("sam@*example*.com",
    full-width letters) is not the text's, and never-store read the text."""
    probe, plain = _plain(value).strip(" .,;:!?"), _plain(text)
    if not probe:
        return False
    at = plain.find(probe)
    while at >= 0:
        before = plain[at - 1] if at else " "
        after = plain[at + len(probe) : at + len(probe) + 1] or " "
        # whole words in Latin, Greek and Cyrillic script ("ian 1" is not in
        # "Debian 12"); Chinese, Japanese and Korean attach particles to words
        if not (_letter(before) and _letter(probe[0])) and not (
            _letter(after) and _letter(probe[-1])
        ):
            return True
        at = plain.find(probe, at + 1)
    return False


def _negated(value: str, text: str, config: Config) -> bool:
    """Whether every place ``text`` holds ``value`` is inside a negation
    ("runs no production traffic", "decided against Vercel")."""
    spans = negated(text, lexicon(config.languages))
    low, probe = text.casefold(), value.casefold()
    places = [m.start() for m in re.finditer(re.escape(probe), low)]
    return bool(places) and all(
        any(a <= at and at + len(probe) <= b for a, b in spans) for at in places
    )


def _letter(char: str) -> bool:
    return char.isalnum() and ord(char) < 0x0530


def one_line(text: str) -> str:
    """``text`` with its runs of space (newlines too) as one space. Raises
    ValueError for a control or invisible format character (a zero-width
    space would make a look-alike key)."""
    for char in text:
        if char not in "\n\r\t" and unicodedata.category(char) in ("Cc", "Cf"):
            raise ValueError(f"invisible or control character U+{ord(char):04X}")
    return _SPACE.sub(" ", text).strip()


def _plain(text: str) -> str:
    return _SPACE.sub(" ", text.casefold())


def nearest_keys(
    key: str | None,
    text: str,
    keys: Sequence[str],
    topics: Mapping[str, tuple[str, ...]] | None = None,
    limit: int = 3,
) -> list[str]:
    """Up to ``limit`` of the current ``keys`` the judge may mean, best first,
    so that it reuses one instead of inventing a synonym: the key of a topic
    word the text names (rules.md ``topics``: "sqlite" -> database), keys
    whose name is near the rules' guess ``key`` (60 of 100 or more), and keys
    near the ``text`` itself (80 or more: rapidfuzz's WRatio, which scores a
    short key inside a long text)."""
    if not keys:
        return []
    # not at import: rapidfuzz costs ~20 ms, and only review needs it
    from rapidfuzz import fuzz, process, utils

    unique = list(dict.fromkeys(keys))
    by_norm = {normalize_key(k): k for k in unique}
    found: list[str] = []
    topic = topic_of(text, topics) if topics else None
    if topic and normalize_key(topic[0]) in by_norm:
        found.append(by_norm[normalize_key(topic[0])])
    if key and key.strip():
        found += [
            k for k, _, _ in process.extract(
                key, unique, scorer=fuzz.WRatio, processor=utils.default_process,
                limit=limit, score_cutoff=60,
            )
        ]  # fmt: skip
    if text.strip():
        found += [
            k for k, _, _ in process.extract(
                text, unique, scorer=fuzz.WRatio,
                processor=utils.default_process, limit=limit, score_cutoff=80,
            )
        ]  # fmt: skip
    return list(dict.fromkeys(found))[:limit]


def nearest_facts(
    text: str, facts: Sequence[Fact], since: str, limit: int = 3
) -> list[Fact]:
    """Up to ``limit`` of the current ``facts`` (keyed or not) that held
    before ``since`` and share words with ``text``, best first: what the
    judge may say the entry replaces. Words are compared by their first five
    letters ("updates" meets "update"; two-character runs in Chinese and
    Japanese); a fact is near when it shares two of them and at least two
    fifths of the shorter side's (a changed number or name leaves the rest)."""
    mine = stems(text)
    if len(mine) < 2:
        return []
    scored: list[tuple[float, int, Fact]] = []
    for n, f in enumerate(facts):
        if f.since and f.since[:16] > since[:16]:
            continue
        theirs = stems(f"{f.key or ''} {f.value}")
        shared = len(mine & theirs)
        if shared >= 2:
            score = shared / min(len(mine), len(theirs))
            if score >= 0.4:
                scored.append((-score, n, f))
    return [f for _, _, f in sorted(scored)[:limit]]
