"""A compact set of ledger marks: 8 bytes a mark for the common kinds.

Most marks of the ledger are an entry's ``path<TAB>digest`` or, for the n-th
repeat of a line, ``path<TAB>digest#n``, the digest 16 lowercase hex digits
(``marks.entry_marks``): a month of a big note holds 500,000 of them, ~90
bytes each as Python strings with their set's table. ``Marks`` keeps those as
the digest's 64-bit value, in a sorted ``array('Q')`` per path and repeat
number (the path once), and every other mark (held, approved, settled,
hand-written lines, any other spelling) as the string it is. The encoding is
exact, not a hash of the mark: a mark is stored as its own digits, so two
different marks never share a key (``00ab`` and ``00AB`` are two marks, the
second kept as a string), and the set answers ``in`` as the set of strings
would. See docs/internals.md, "The ledger in memory". Pure."""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Set
from typing import Any

_HEX = frozenset("0123456789abcdef")


def _split(mark: str) -> tuple[tuple[str, int], int] | None:
    """``((path, n), value)`` of a mark of the compact kind, else None: ``n``
    the repeat (``#n``, 0 without), ``value`` the digest's."""
    path, tab, digest = mark.partition("\t")
    if not tab or len(digest) < 16:
        return None
    n = 0
    if len(digest) > 16:
        count = digest[17:]
        if digest[16] != "#" or not count.isascii() or not count.isdigit():
            return None
        n = int(count)
        if n < 1 or str(n) != count:  # only the spelling a pass writes: "#1"
            return None
        digest = digest[:16]
    try:
        value = int(digest, 16)
    except ValueError:
        return None
    # int() takes "0X..", "_", "+", spaces and capitals too: only the one
    # spelling it gives back is this kind (the rest stay strings, exact)
    if value < 0 or f"{value:016x}" != digest:
        return None
    return (path, n), value


def _text(key: tuple[str, int], value: int) -> str:
    """The mark ``_split`` read as ``(key, value)``."""
    path, n = key
    return f"{path}\t{value:016x}#{n}" if n else f"{path}\t{value:016x}"


def _has(values: array[int], value: int) -> bool:
    """Whether the sorted ``values`` hold ``value`` (a bisect of the whole array)."""
    i = bisect_left(values, value)
    return i < len(values) and values[i] == value


_BUCKET = 8  # values a bucket of ``_Index`` holds on average
_INDEXED = 4096  # an array this long or longer is looked up through an index


class _Index:
    """Where each top-bits bucket of a long sorted array starts: a lookup
    bisects ~8 values, not 500,000 (each compare unboxes an int: ~20 of them
    cost ~1 us). The digests are uniform, so the buckets are even.
    4 bytes a bucket: ~0.5 byte a value."""

    __slots__ = ("values", "starts", "shift")

    def __init__(self, values: array[int]) -> None:
        bits = max(1, (len(values) // _BUCKET).bit_length())
        self.values = values
        self.shift = 64 - bits
        self.starts = array(
            "I", (bisect_left(values, b << self.shift) for b in range((1 << bits) + 1))
        )

    def has(self, value: int) -> bool:
        b = value >> self.shift
        values = self.values
        i = bisect_left(values, value, self.starts[b], self.starts[b + 1])
        return i < len(values) and values[i] == value


class Marks(Set[str]):
    """An immutable set of marks (strings), compact (see the module's docstring).

    Built by ``Marks(iterable)``; answers ``in``, ``len``, iteration (each
    compact mark made as a string when reached) and the set operators of
    ``collections.abc.Set`` (their results are ``Marks``). Equal to a
    ``frozenset`` of the same strings.
    """

    __slots__ = ("_paths", "_rest", "_size", "_index")

    def __init__(self, marks: Iterable[str] = ()) -> None:
        self._index: dict[tuple[str, int], _Index] = {}  # made on first lookup
        if isinstance(marks, Marks):
            self._paths: dict[tuple[str, int], array[int]] = marks._paths
            self._rest: frozenset[str] = marks._rest
            self._size: int = marks._size
            return
        paths: dict[tuple[str, int], array[int]] = {}
        rest: set[str] = set()
        unsorted: set[tuple[str, int]] = set()
        for mark in marks:
            got = _split(mark)
            if got is None:
                rest.add(mark)
                continue
            path, value = got
            values = paths.get(path)
            if values is None:
                values = paths[path] = array("Q")
            elif values[-1] >= value:
                unsorted.add(path)  # a ledger file's lines come sorted: rarely
            values.append(value)
        for path in unsorted:
            paths[path] = _sorted(paths[path])
        self._paths = paths
        self._rest = frozenset(rest)
        self._size = len(rest) + sum(len(v) for v in paths.values())

    @classmethod
    def _from_iterable(cls, it: Iterable[Any]) -> Marks:  # type: ignore[override]
        return cls(it)

    def __contains__(self, mark: object) -> bool:
        if not isinstance(mark, str):
            return False
        got = _split(mark)
        if got is None:
            return mark in self._rest
        key, value = got
        index = self._index.get(key)
        if index is None:
            values = self._paths.get(key)
            if values is None:
                return False
            if len(values) < _INDEXED:
                return _has(values, value)
            index = self._index[key] = _Index(values)
        return index.has(value)

    def __iter__(self) -> Iterator[str]:
        for key, values in self._paths.items():
            for value in values:
                yield _text(key, value)
        yield from self._rest

    def __len__(self) -> int:
        return self._size

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Marks):
            return (
                self._size == other._size
                and self._rest == other._rest
                and self._paths == other._paths
            )
        return Set.__eq__(self, other)

    __hash__ = Set._hash

    def __repr__(self) -> str:
        return f"Marks({len(self)} marks)"

    def of_path(self, path: str) -> Iterator[str]:
        """The marks whose path (before the tab) is ``path``."""
        head = path + "\t"
        for key, values in self._paths.items():
            if key[0] == path:
                for value in values:
                    yield _text(key, value)
        for mark in self._rest:
            if mark.startswith(head):
                yield mark

    def odd(self) -> frozenset[str]:
        """The marks not of the compact kind (held, approved, settled, ``#n``...)."""
        return self._rest

    def union(self, *others: Iterable[str]) -> Marks:
        """The marks of this set and of ``others``."""
        parts = [self]
        for other in others:
            if isinstance(other, Marks):
                parts.append(other)
            elif other:
                parts.append(Marks(other))
        return parts[0] if len(parts) == 1 else _merge(parts)

    def difference(self, *others: Iterable[str]) -> Marks:
        """The marks of this set in none of ``others``."""
        out = self
        for other in others:
            if isinstance(other, Marks):
                out = _minus(out, other)
            elif other:
                drop = other if isinstance(other, Set) else set(other)
                out = Marks(m for m in out if m not in drop)
        return out

    def split(self, key: Callable[[str], str]) -> dict[str, Marks]:
        """The marks by ``key`` of their path (the text before the tab)."""
        paths: dict[str, dict[tuple[str, int], array[int]]] = {}
        rests: dict[str, set[str]] = {}
        keys: dict[str, str] = {}
        for name, values in self._paths.items():
            path = name[0]
            if path not in keys:
                keys[path] = key(path)
            paths.setdefault(keys[path], {})[name] = values
        for mark in self._rest:
            path = mark.partition("\t")[0]
            if path not in keys:
                keys[path] = key(path)
            rests.setdefault(keys[path], set()).add(mark)
        return {
            k: _made(paths.get(k, {}), frozenset(rests.get(k, ())))
            for k in {*paths, *rests}
        }


def _merge(parts: list[Marks]) -> Marks:
    """One ``Marks`` of all of ``parts``' marks (arrays shared where they can be)."""
    if len(parts) == 1:
        return parts[0]
    paths: dict[tuple[str, int], array[int]] = {}
    rest: set[str] = set()
    for part in parts:
        rest.update(part._rest)
        for path, values in part._paths.items():
            have = paths.get(path)
            if have is None:
                paths[path] = values
            elif have != values:
                paths[path] = _sorted(have + values)
    return _made(paths, frozenset(rest))


def _made(paths: dict[tuple[str, int], array[int]], rest: frozenset[str]) -> Marks:
    out = Marks()
    out._paths, out._rest = paths, rest
    out._size = len(rest) + sum(len(v) for v in paths.values())
    return out


def _sorted(values: array[int]) -> array[int]:
    """``values`` sorted, each once (a list of Python ints for a moment:
    ~36 bytes a value, the set of strings this replaces held ~90)."""
    out = array("Q")
    last = -1
    for value in sorted(values):
        if value != last:
            out.append(value)
            last = value
    return out


def _minus(left: Marks, right: Marks) -> Marks:
    """``left``'s marks not in ``right``."""
    paths: dict[tuple[str, int], array[int]] = {}
    for path, values in left._paths.items():
        drop = right._paths.get(path)
        if drop is None:
            paths[path] = values
        elif drop != values:
            kept = array("Q", (v for v in values if not _has(drop, v)))
            if kept:
                paths[path] = kept
    return _made(paths, left._rest - right._rest)


def _chain(*parts: Iterable[str]) -> Iterator[str]:
    for part in parts:
        yield from part


class Growing(Set[str]):
    """A set of marks being built over a ``Marks`` base: adds and removals
    kept beside it (a pass adds a few marks to 500,000), ``frozen`` at the end."""

    def __init__(self, base: Iterable[str] = ()) -> None:
        self.base = base if isinstance(base, Marks) else Marks(base)
        self.added: set[str] = set()
        self.removed: set[str] = set()

    def __contains__(self, mark: object) -> bool:
        if mark in self.added:
            return True
        return mark not in self.removed and mark in self.base

    def __iter__(self) -> Iterator[str]:
        for mark in self.base:
            if mark not in self.removed:
                yield mark
        yield from self.added

    def __len__(self) -> int:
        return len(self.base) - len(self.removed) + len(self.added)

    def add(self, mark: str) -> None:
        self.removed.discard(mark)
        if mark not in self.base:
            self.added.add(mark)

    def discard(self, mark: str) -> None:
        self.added.discard(mark)
        if mark in self.base:
            self.removed.add(mark)

    def difference_update(self, marks: Iterable[str]) -> None:
        for mark in marks:
            self.discard(mark)

    def odd(self) -> Iterator[str]:
        """The marks not of the compact kind, and every mark added."""
        for mark in self.base.odd():
            if mark not in self.removed:
                yield mark
        yield from self.added

    def frozen(self) -> Marks:
        """The marks now, as a ``Marks``."""
        if not self.added and not self.removed:
            return self.base
        if not self.removed:
            return self.base.union(self.added)
        return Marks(iter(self))
