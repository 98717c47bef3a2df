"""A three-way merge of MEMORY.md's managed block, by entry id (pure; see
docs/design.md, Several machines).

``merge_facts`` merges the facts of a common ancestor and two sides: an entry
added on either side is kept, one removed on a side and left alone on the other
goes, an edit on one side wins, and different edits of one entry on both sides
are a ``Conflict``. The links a supersession writes (``until``,
``superseded-by``, ``supersedes``, the move to Superseded) are derived from the
timeline, so two sides that each filed a new value of one key do not conflict
over the old value: the key's timeline is ordered again by ``since`` instead.
``lost_in_merge`` finds the entries a merge's result dropped, ``restore`` puts
them back. The file's text: ``gardener.planning.mergetext``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from gardener.formats.memoryfile import render_fact
from gardener.model.facts import Fact, normalize_key, normalize_value
from gardener.model.kinds import SECTION_OF_KIND, SUPERSEDED
from gardener.model.validtime import is_instant, parse_instant

# the links of a supersession: derived from the timeline, merged by ordering it
_LINKS = ("supersedes", "superseded-by")
OURS, THEIRS = "ours", "theirs"  # the conflict markers' labels


@dataclass(frozen=True)
class Conflict:
    """One entry both sides changed differently (None: that side deleted it)."""

    ours: Fact | None
    theirs: Fact | None

    @property
    def shown(self) -> Fact:
        """The version the merged facts hold in its place."""
        shown = self.ours or self.theirs
        assert shown is not None  # an entry both sides deleted is no conflict
        return shown


@dataclass(frozen=True)
class BlockMerge:
    """The merged facts (a conflict's entry held by ours' version, or theirs'
    when ours deleted it), the conflicts, and theirs' ids given a new one
    (old id -> new) because ours used the same id for another entry."""

    facts: tuple[Fact, ...]
    stray: tuple[tuple[str, str], ...]
    conflicts: tuple[Conflict, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()


def _origin(fact: Fact) -> tuple[str, str, str, str]:
    """What an id is made of (``new_id``): two facts alike in it are one entry."""
    key = normalize_key(fact.key) if fact.key else ""
    return (key, normalize_value(fact.value), fact.since or "", fact.get("from") or "")


def _identities(facts: Sequence[Fact]) -> dict[str, Fact]:
    """Facts by id (``~`` + key and value for a hand-written line without
    one); a repeated identity gets ``#n`` so that nothing is dropped."""
    out: dict[str, Fact] = {}
    for fact in facts:
        base = fact.id or "~" + "\0".join(_origin(fact)[:2])
        ident, n = base, 0
        while ident in out:
            n += 1
            ident = f"{base}#{n}"
        out[ident] = fact
    return out


def _content(fact: Fact | None) -> tuple[str, str, tuple[str, ...]] | None:
    """A fact as written (its line number aside)."""
    if fact is None:
        return None
    return (fact.section.casefold(), render_fact(fact), fact.tail)


def _same_version(a: Fact | None, b: Fact | None) -> bool:
    """``_same``, quick for the one object or two parsed from one line."""
    if a is b:
        return True
    if a is None or b is None:
        return False
    if a.section == b.section and a.value == b.value and a.key == b.key and \
            a.id == b.id and a.attrs == b.attrs and a.struck == b.struck and \
            a.tail == b.tail:  # fmt: skip
        return True
    return _content(a) == _content(b)


def _unlinked(fact: Fact, linked: Collection[str] | None = None) -> Fact:
    """``fact`` without the links of a supersession (only those to ``linked``
    ids, if given): back in its own section, unstruck, with no ``until`` that
    the link set. A fact ended for a reason (``reason``) is left alone."""
    if fact.get("reason"):
        return fact

    def ours(name: str) -> bool:
        target = fact.get(name)
        return target is not None and (linked is None or target in linked)

    changes: dict[str, str | None] = {}
    if ours("supersedes"):
        changes["supersedes"] = None
    if not ours("superseded-by"):
        return fact.with_attrs(**changes) if changes else fact
    changes["superseded-by"] = changes["until"] = None
    if not fact.superseded:
        return fact.with_attrs(**changes)
    kind = fact.kind or "fact"
    changes["kind"] = None
    return fact.moved(SECTION_OF_KIND.get(kind, "Facts"), False, **changes)


def _same(a: Fact | None, b: Fact | None) -> bool:
    return _same_version(a, b)


def _alike(a: Fact | None, b: Fact | None) -> bool:
    """The same but for the links of a supersession."""
    if a is None or b is None:
        return a is b
    return _content(_unlinked(a)) == _content(_unlinked(b))


def _line_of(fact: Fact) -> str:
    return f"{fact.section}\n{render_fact(fact)}"


def _pick(
    base: Fact | None, ours: Fact | None, theirs: Fact | None
) -> tuple[Fact | None, bool, bool]:
    """One entry's three versions -> (merged, conflict, its timeline to redo)."""
    if _same(ours, theirs):
        return ours, False, False
    if _same(base, ours):
        return theirs, False, False
    if _same(base, theirs):
        return ours, False, False
    if ours is not None and theirs is not None and _alike(ours, theirs):
        # links only: the same pick in either merge order
        return min(ours, theirs, key=_line_of), False, True
    if _alike(base, theirs):
        return ours, False, True
    if _alike(base, ours):
        return theirs, False, True
    return ours if ours is not None else theirs, True, False


def _renames(
    base: dict[str, Fact], ours: dict[str, Fact], theirs: dict[str, Fact]
) -> tuple[dict[str, str], dict[str, str]]:
    """Ids the sides added that must change (old -> new, ours' and theirs'):
    one entry both added under two ids takes the shorter (a pass lengthens an
    id only when its short form is taken), the same on either side; and when
    both added different entries under one id, theirs' gets a new one."""
    added_ours = {_origin(f): i for i, f in ours.items() if i not in base and f.id}
    taken = {f.id for side in (base, ours, theirs) for f in side.values() if f.id}
    mine: dict[str, str] = {}
    out: dict[str, str] = {}
    for ident, fact in theirs.items():
        if ident in base or not fact.id or "#" in ident:
            continue
        same = added_ours.get(_origin(fact))
        if same is not None and same != ident:
            keep = min(same, ident, key=lambda i: (len(i), i))
            if keep == same:
                out[ident] = same
            else:
                mine[same] = ident
        elif same is None and ident in ours:
            from gardener.planning.reconcile import new_id  # rare: not at import

            fresh = new_id(fact.key, fact.value, fact.since or "", fact.id, taken)
            taken.add(fresh)
            out[ident] = fresh
    return mine, out


def _renamed(fact: Fact, names: dict[str, str]) -> Fact:
    links = {n: names[v] for n in _LINKS if (v := fact.get(n)) in names}
    ident = names.get(fact.id or "", fact.id)
    if ident == fact.id and not links:
        return fact
    fact = fact.with_attrs(**links)
    return Fact(fact.value, fact.key, ident, fact.section, fact.attrs, fact.struck,
                fact.line, fact.tail)  # fmt: skip


def merge_facts(
    base: Sequence[Fact],
    ours: Sequence[Fact],
    theirs: Sequence[Fact],
    multi: Callable[[str], bool] = lambda key: False,
    base_stray: Sequence[tuple[str, str]] = (),
    ours_stray: Sequence[tuple[str, str]] = (),
    theirs_stray: Sequence[tuple[str, str]] = (),
) -> BlockMerge:
    """Merge two sides' facts with their common ancestor's, by entry id.

    ``multi``: whether a key may hold several current values (rules.md
    ``multi_valued``), whose timeline is never ordered into a chain. The
    stray lines (not entries) merge as sets.
    """
    o = _identities(base)
    mine, names = _renames(o, _identities(ours), _identities(theirs))
    a = _identities([_renamed(f, mine) for f in ours])
    b = _identities([_renamed(f, names) for f in theirs])
    merged: list[Fact] = []
    conflicts: list[Conflict] = []
    redo: set[str] = set()
    touched: dict[str, set[str]] = {OURS: set(), THEIRS: set()}
    came: list[set[str]] = []  # the ids of the sides each merged fact is on
    for ident in dict.fromkeys([*a, *b, *o]):
        if ident not in a and ident not in b:
            continue
        versions = (o.get(ident), a.get(ident), b.get(ident))
        for side, version in ((OURS, versions[1]), (THEIRS, versions[2])):
            if not _same(versions[0], version):
                touched[side].update(_keys(versions))
        fact, conflict, again = _pick(*versions)
        if conflict:
            conflicts.append(Conflict(versions[1], versions[2]))
        if again and fact is not None and fact.key:
            redo.add(normalize_key(fact.key))
        if fact is not None:
            merged.append(fact)
            came.append(
                (set(a) if ident in a else set()) | (set(b) if ident in b else set())
            )
    # a key both sides changed: its timeline is ordered again
    both = touched[OURS] & touched[THEIRS]
    redo |= {k for k in both if _of(ours, k) != _of(theirs, k)}
    redo = {k for k in redo if not multi(k)}
    merged = _without_dangling(merged, came)
    held = {id(c.shown) for c in conflicts}
    for key in sorted(redo):
        merged = _chain(merged, key, held)
    stray = merge_set(base_stray, ours_stray, theirs_stray)
    return BlockMerge(tuple(merged), tuple(stray), tuple(conflicts),
                      tuple(sorted(names.items())))  # fmt: skip


def _without_dangling(facts: list[Fact], came: list[set[str]]) -> list[Fact]:
    """``facts`` without the links to an entry the merge removed (the other
    side deleted it); ``came[i]``: the ids of the sides ``facts[i]`` is on
    (both, when both hold it: the same answer in either merge order). A link
    that named no entry on the fact's own sides stays, for ``check`` to report."""
    kept = {f.id for f in facts if f.id}
    out = []
    for fact, sides in zip(facts, came, strict=True):
        gone = {
            name: None
            for name in _LINKS
            if (target := fact.get(name)) and target not in kept and target in sides
        }
        out.append(fact.with_attrs(**gone) if gone else fact)
    return out


def _keys(versions: Sequence[Fact | None]) -> set[str]:
    return {normalize_key(f.key) for f in versions if f is not None and f.key}


def _of(facts: Sequence[Fact], key: str) -> list[tuple[object, ...] | None]:
    """The facts of ``key`` as written, in a comparable order."""
    found = [_content(f) for f in facts if f.key and normalize_key(f.key) == key]
    return sorted(found, key=repr)


def _chain(facts: list[Fact], key: str, held: set[int]) -> list[Fact]:
    """``facts`` with ``key``'s values ordered again by valid time: each holds
    until the next one's ``since`` and moves to Superseded; the latest stays
    current. Only values that ended by a supersession, or not at all, take
    part (not events, not those ended for a reason, nor a conflict's)."""
    at = [
        i
        for i, f in enumerate(facts)
        if f.key
        and normalize_key(f.key) == key
        and f.since
        and is_instant(f.since)
        and f.id
        and not f.get("reason")
        and f.kind != "event"
        and id(f) not in held
    ]
    ids: set[str] = {i for i in (facts[n].id for n in at) if i}
    # a value superseded by an entry outside the chain (a correction) stays out
    at = [i for i in at if facts[i].get("superseded-by") in (None, *ids)]
    ids = {i for i in (facts[n].id for n in at) if i}
    if len(at) < 2:
        return facts
    line = sorted(
        ((facts[i], i) for i in at),
        key=lambda pair: (parse_instant(pair[0].since or ""), pair[0].id or ""),
    )
    out = list(facts)
    chained = [_unlinked(f, ids) for f, _ in line]
    for n, fact in enumerate(chained):
        links: dict[str, str | None] = {}
        if n:
            links["supersedes"] = chained[n - 1].id
        if n + 1 < len(chained):
            later = chained[n + 1]
            links.update(until=later.since, superseded_by=later.id, kind=fact.kind)
            fact = fact.moved(SUPERSEDED, True, **links)
        elif links:
            fact = fact.with_attrs(**links)
        out[line[n][1]] = fact
    return out


def merge_set(
    base: Sequence[tuple[str, str]],
    ours: Sequence[tuple[str, str]],
    theirs: Sequence[tuple[str, str]],
) -> list[tuple[str, str]]:
    """Lines merged as a set, in ours' order then theirs' new ones: a line one
    side removed goes."""
    gone = (set(base) - set(ours)) | (set(base) - set(theirs))
    kept = [line for line in dict.fromkeys([*ours, *theirs]) if line not in gone]
    return kept


def lost_in_merge(
    base: Sequence[Fact], parents: Sequence[Sequence[Fact]], merged: Sequence[Fact]
) -> list[Fact]:
    """The entries a parent of a merge added since their ``base`` that the
    merge's result holds neither by id nor by what its id is made of: what
    taking one side (or a bad resolution) dropped. In the first parent's
    order, then the others'."""
    known_ids = {f.id for f in base if f.id}
    known = {_origin(f) for f in base}
    kept_ids = {f.id for f in merged if f.id}
    kept = {_origin(f) for f in merged}
    lost: dict[str, Fact] = {}
    for side in parents:
        for fact in side:
            if not fact.id or fact.id in known_ids or _origin(fact) in known:
                continue
            if fact.id in kept_ids or _origin(fact) in kept or fact.id in lost:
                continue
            lost[fact.id] = fact
    return list(lost.values())


def restore(
    facts: Sequence[Fact], lost: Sequence[Fact], multi: Callable[[str], bool]
) -> list[Fact]:
    """``facts`` with the ``lost`` entries back (``lost_in_merge``), each
    key's timeline ordered again by valid time; an entry whose id another
    entry took meanwhile gets a new one."""
    out = list(facts)
    taken = {f.id for f in out if f.id}
    origins = {_origin(f) for f in out}
    back: list[Fact] = []
    for fact in lost:
        if _origin(fact) in origins:
            continue
        if fact.id in taken:
            from gardener.planning.reconcile import new_id  # rare: not at import

            fresh = new_id(fact.key, fact.value, fact.since or "", fact.id or "", taken)
            fact = _renamed(fact, {fact.id or "": fresh})
        back.append(fact)
        taken.add(fact.id or "")
    # a link of an entry brought back to one that is not here goes
    for fact in back:
        gone = {n: None for n in _LINKS if fact.get(n) and fact.get(n) not in taken}
        out.append(fact.with_attrs(**gone) if gone else fact)
    keys = {normalize_key(f.key) for f in back if f.key}
    for key in sorted(k for k in keys if not multi(k)):
        out = _chain(out, key, set())
    return out
