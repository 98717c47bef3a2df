"""The compact mark set: the same answers as the set of strings it stands for."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gardener.model.markset import Growing, Marks

PATH = "memory/2026-06-30.md"


def mark(value: int, n: int = 0) -> str:
    return f"{PATH}\t{value:016x}" + (f"#{n}" if n else "")


def test_a_mark_spelled_otherwise_is_another_mark():
    # the collision-safety rule: a mark is kept as its own digits, never as a
    # hash of itself, so no other spelling of "the same" digest answers for it
    # (a false "processed" would leave an entry unpromoted, and prune would
    # later delete its note): each of these is a mark of its own
    canonical = mark(0xAB)
    others = [
        f"{PATH}\t00000000000000AB",  # capitals
        f"{PATH}\t0x000000000000ab",  # int(..., 16) reads a prefix
        f"{PATH}\t000000_0000000ab",  # and underscores
        f"{PATH}\t +00000000000ab ",  # and a sign and spaces
        f"{PATH}\t00000000000000ab#0",
        f"{PATH}\t00000000000000ab#01",
        f"{PATH}\t00000000000000ab#+1",
        f"{PATH}\t00000000000000ab\theld",
        f"other/{PATH}\t00000000000000ab",
    ]
    for other in others:
        alone = Marks([other])
        assert other in alone and canonical not in alone, other
        assert Marks([canonical]) == {canonical} and other not in Marks([canonical])
    both = Marks([canonical, *others])
    assert len(both) == len(others) + 1
    assert sorted(both) == sorted([canonical, *others])


def test_repeats_and_odd_marks_round_trip():
    marks = {mark(5), mark(5, 1), mark(5, 12), mark(3), f"{PATH}\tsettled:" + "a" * 40}
    got = Marks(sorted(marks, reverse=True))  # out of order: sorted on build
    assert got == marks and marks == got and set(got) == marks
    assert set(got.of_path(PATH)) == marks and not set(got.of_path("x"))
    assert got.odd() == {f"{PATH}\tsettled:" + "a" * 40}


def test_a_long_array_is_looked_up_through_its_index():
    values = list(range(0, 2**64 - 1, 2**64 // 50_000))
    got = Marks(mark(v) for v in values)
    assert all(mark(v) in got for v in values[::97])
    assert not any(mark(v + 1) in got for v in values[::97])
    assert mark(2**64 - 1) not in got and mark(0) in got


digests = st.integers(0, 2**64 - 1) | st.integers(0, 40)
marks_st = st.builds(mark, digests, st.integers(0, 3)) | st.sampled_from(
    [f"{PATH}\tsettled:x", f"{PATH}\t00000000000000AB", "memory/b.md\t0000000000000001"]
)


@given(st.lists(marks_st), st.lists(marks_st), st.lists(marks_st))
def test_the_set_operations_agree_with_frozenset(
    a: list[str], b: list[str], q: list[str]
):
    left, right = Marks(a), Marks(b)
    fa, fb = frozenset(a), frozenset(b)
    assert left == fa and len(left) == len(fa)
    assert left.union(right) == fa | fb and left.union(b) == fa | fb
    assert left.difference(right) == fa - fb and left.difference(b) == fa - fb
    assert (left - right) == fa - fb and (left | right) == fa | fb
    assert all((m in left) == (m in fa) for m in [*q, *b])
    groups = left.split(lambda path: path[:8])
    assert {k: frozenset(v) for k, v in groups.items()} == {
        k: frozenset(m for m in fa if m.partition("\t")[0][:8] == k)
        for k in {m.partition("\t")[0][:8] for m in fa}
    }


@given(st.lists(marks_st), st.lists(st.tuples(st.booleans(), marks_st)))
def test_a_growing_set_is_a_set(base: list[str], steps: list[tuple[bool, str]]):
    grow, plain = Growing(Marks(base)), set(base)
    for add, m in steps:
        if add:
            grow.add(m)
            plain.add(m)
        else:
            grow.discard(m)
            plain.discard(m)
        assert (m in grow) == (m in plain)
    assert grow.frozen() == plain and len(grow) == len(plain) and set(grow) == plain
    # every mark not of the compact kind is among the odd ones (settle reads those)
    assert {m for m in plain if m in Marks([m]).odd()} <= set(grow.odd())
