"""Find problems in a workspace's files (pure): what ``gardener check`` reports."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from gardener.formats.blocks import opens_front, split_front_matter, tail
from gardener.formats.entryline import FUTURE_SLACK_S
from gardener.formats.memoryfile import render_fact
from gardener.model.config import Config, multi_valued
from gardener.model.facts import Fact, Memory, Problem
from gardener.model.validtime import (
    format_instant,
    is_current,
    is_instant,
    parse_instant,
)
from gardener.neverstore import redact
from gardener.planning.polarity import polarity


def secret_problems(path: str, text: str, config: Config) -> list[Problem]:
    """One problem per never-store finding in a file's text (never the secret itself)."""
    return [
        Problem(
            "secret",
            path,
            f.line,
            f"never-store rule '{f.rule}' matches here; remove it, then run `gardener check`",
        )
        for f in redact.find(text, config.never_store, config.allow)
    ]


def memory_problems(
    memory: Memory, config: Config, now: datetime, path: str = "MEMORY.md"
) -> list[Problem]:
    """Conflicting current values, duplicate or dangling ids, bad dates, size budget."""
    problems: list[Problem] = []
    today = format_instant(now)
    current: dict[str, list[int]] = defaultdict(list)
    ids: dict[str, int] = {}
    if memory.begin == "":  # see formats.memoryfile._lost_begin
        problems.append(
            Problem(
                "parse",
                path,
                memory.facts[0].line if memory.facts else 1,
                "the gardener:begin marker above the managed entries was deleted;"
                " the next promote puts it back (the entries are kept)",
            )
        )
    for fact in memory.facts:
        if fact.superseded and not fact.id and not fact.get("until"):
            # a hand-written entry under "## Superseded" (at the block's end,
            # just above its end marker) is never current: say so
            problems.append(
                Problem(
                    "parse",
                    path,
                    fact.line,
                    "this entry is under Superseded, so it is not current and recall"
                    " never answers it; to make it current, move it above"
                    " '## Superseded'",
                )
            )
        if not fact.id and _UNREAD_ATTRS.search(fact.value):
            # "{#m9156e since=x foo {{ ...}": the braces were edited into
            # something that is no metadata, so it reads as the value
            problems.append(
                Problem(
                    "parse",
                    path,
                    fact.line,
                    "this entry's {#id ...} metadata does not read (a brace, quote"
                    " or space out of place), so it is part of the value and the"
                    " entry has no id: write it as {#id name=value ...}",
                )
            )
        if fact.id:
            if fact.id in ids:
                problems.append(
                    Problem(
                        "parse",
                        path,
                        fact.line,
                        f"id #{fact.id} is also used on line {ids[fact.id]}",
                    )
                )
            ids.setdefault(fact.id, fact.line)
        for name in ("since", "until", "expires"):
            value = fact.get(name)
            if value is not None and not is_instant(value):
                problems.append(
                    Problem(
                        "parse",
                        path,
                        fact.line,
                        f"{name}={value!r} is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM)",
                    )
                )
        problems += _inverted(fact, path)
        problems += _future(fact, now, path)
        if fact.key and is_current(fact, today) and not multi_valued(fact.key, config):
            current[fact.norm_key or ""].append(fact.line)
    by_id = {f.id: f for f in memory.facts if f.id}
    for fact in memory.facts:
        problems += _tied(fact, by_id, path)
        for name in ("supersedes", "superseded-by"):
            target = fact.get(name)
            if target and target not in ids:
                problems.append(
                    Problem(
                        "reference",
                        path,
                        fact.line,
                        f"{name}={target} names no entry (it was deleted); the next"
                        " `gardener promote` drops the link",
                    )
                )
    for lines in current.values():
        if len(lines) > 1:
            first = next(f for f in memory.facts if f.line == lines[0])
            others = ", ".join(str(n) for n in lines[1:])
            problems.append(
                Problem(
                    "conflict",
                    path,
                    lines[0],
                    f"key '{first.key}' has {len(lines)} current values (also line {others}); keep one, or list the attribute under multi_valued in rules.md",
                )
            )
    problems += contradictions(memory, today, path)
    problems += _budget(memory, config, today, path)
    return problems


def _tied(fact: Fact, by_id: Mapping[str, Fact], path: str) -> list[Problem]:
    """A value superseded by another of the same ``since`` from another note
    (two machines filed the key for one minute): which is right is no rule's
    to say, so the merge's order decided; a person or the judge should."""
    newer = by_id.get(fact.get("superseded-by") or "")
    since = fact.get("since")
    if newer is None or not since or newer.get("since") != since:
        return []
    if fact.get("from") == newer.get("from") or fact.get("reason") == "corrected":
        return []
    return [
        Problem(
            "conflict",
            path,
            newer.line,
            f"'{newer.key or newer.value[:30]}' took two values at {since}"
            f" ({fact.value[:30]!r} from {fact.get('from') or '?'} and"
            f" {newer.value[:30]!r} from {newer.get('from') or '?'}): the later"
            " line won; keep the right one current",
        )
    ]


def _inverted(fact: Fact, path: str) -> list[Problem]:
    """A ``until`` before the entry's ``since`` (typed by hand: the gardener
    never writes one): the entry holds at no time, so recall never finds it."""
    since, until = fact.get("since"), fact.get("until")
    if not (since and until and is_instant(since) and is_instant(until)):
        return []
    if parse_instant(until) >= parse_instant(since):
        return []
    return [
        Problem(
            "parse",
            path,
            fact.line,
            f"until={until} is before since={since}: the entry holds at no time"
            " (recall never finds it); fix either date",
        )
    ]


def _future(fact: Fact, now: datetime, path: str) -> list[Problem]:
    """A ``since`` later than ``now`` (past the hour of slack promote allows):
    a machine whose clock ran ahead filed it, and until then it wins over
    every value of its key, on every clone."""
    since = fact.get("since")
    if not (since and is_instant(since)):
        return []
    if parse_instant(since) <= now + timedelta(seconds=FUTURE_SLACK_S):
        return []
    return [
        Problem(
            "future",
            path,
            fact.line,
            f"since={since} is in the future (the clock of the machine that filed it"
            " ran ahead?): it outranks every other value of its key until then;"
            " fix the date by hand",
        )
    ]


def _budget(memory: Memory, config: Config, today: str, path: str) -> list[Problem]:
    """A budget problem only when the current entries alone exceed it (prune
    takes superseded history out first; current entries never leave for
    size), naming the largest keys."""
    budget = config.memory_budget_chars
    if len(memory.text) <= budget:
        return []
    current = [f for f in memory.facts if not f.superseded and is_current(f, today)]
    size = sum(len(render_fact(f)) + 1 for f in current)
    if size <= budget:
        return []
    largest = sorted(current, key=lambda f: -len(render_fact(f)))[:3]
    names = ", ".join(
        f"{f.key or f.value[:30]} ({len(render_fact(f))})" for f in largest
    )
    return [
        Problem(
            "budget",
            path,
            None,
            f"the current entries alone are {size} characters, over the budget of"
            f" {budget} (memory_budget_chars in rules.md); the largest: {names}",
        )
    ]


def contradictions(
    memory: Memory, today: str, path: str = "MEMORY.md"
) -> list[Problem]:
    """Two current entries that say the opposite of one another: the same
    subject and object, opposite polarity ("Sam loves coffee" / "Sam hates
    coffee", see ``gardener.planning.polarity``). One problem of kind
    "conflict" per pair, at the first line, naming the other. ``today`` is a
    valid-time string (local time)."""
    seen: dict[tuple[str, str], dict[int, Fact]] = defaultdict(dict)
    problems: list[Problem] = []
    for fact in memory.facts:
        if not is_current(fact, today):
            continue
        said = polarity(fact.value)
        if said is None:
            continue
        subject, thing, sign = said
        sides = seen[(subject, thing)]
        other = sides.get(-sign)
        if other is not None and sign not in sides:
            problems.append(
                Problem(
                    "conflict",
                    path,
                    other.line,
                    f"{other.value!r} contradicts line {fact.line}: {fact.value!r};"
                    " keep the one that holds, and forget (gardener forget TEXT) or edit the other",
                )
            )
        sides.setdefault(sign, fact)
    return problems


def sort_problems(problems: Iterable[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.path, p.line or 0, p.kind))


def by_file(problems: Iterable[Problem]) -> Mapping[str, list[Problem]]:
    grouped: dict[str, list[Problem]] = defaultdict(list)
    for p in problems:
        grouped[p.path].append(p)
    return grouped


def fence_problems(path: str, text: str) -> list[Problem]:
    """A problem if the daily note ``text`` ends inside a code fence: every
    line after its opening is code, so no entry written there is read."""
    _, fence = tail(text)
    if fence is None:
        return []
    line, indent, marker = fence
    below = text.count("\n") + (not text.endswith("\n")) - line
    return [
        Problem(
            "parse",
            path,
            line,
            f"this code fence ({marker}) is never closed: the {below} line(s) after"
            f" it are read as code, and no entry among them is filed or recalled;"
            f" close it with a line `{indent}{marker}` after the code",
        )
    ]


def front_problems(path: str, text: str) -> list[Problem]:
    """A problem if the daily note ``text`` opens a front matter (a first
    line ``---``) that no ``---`` line closes: its lines read as the note's
    body, and a line appended to a last ``---`` with no newline ("----
    **db**: Postgres") is no entry (docs/design.md, Daily notes)."""
    if not opens_front(text) or split_front_matter(text)[0] is not None:
        return []
    return [
        Problem(
            "parse",
            path,
            1,
            "this front matter (---) is never closed: its lines are read as the"
            " note's text, and a line run into a last `---` is no entry; close it"
            " with a line `---` of its own, or delete the opening one",
        )
    ]


_UNREAD_ATTRS = re.compile(r"\{#[^\s{}]")
_OURS = re.compile(r"^<{7}(?: |$)")
_THEIRS = re.compile(r"^>{7}(?: |$)")


def conflict_problems(path: str, text: str) -> list[Problem]:
    """A problem per unresolved merge conflict in a memory file: a
    ``<<<<<<<`` line with a ``>>>>>>>`` line after it (a lone ``=======`` is
    a Markdown heading's underline). Committed, the markers reach every clone
    and both sides read as current (docs/design.md, Several machines)."""
    if "<<<<<<<" not in text:
        return []
    lines = text.split("\n")
    last = max((n for n, x in enumerate(lines) if _THEIRS.match(x)), default=-1)
    out = []
    for n, line in enumerate(lines[:last]):
        if _OURS.match(line):
            out.append(
                Problem(
                    "conflict",
                    path,
                    n + 1,
                    "an unresolved merge conflict (<<<<<<< ... >>>>>>>): keep what"
                    " is right, delete the marker lines, then commit",
                )
            )
    return out
