"""``gardener.model.record.Record`` builds what ``typing.NamedTuple`` builds."""

from __future__ import annotations

import copy
import keyword
import pickle
import types
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.model.record import Record


class Point(Record):
    """A point on the grid."""

    x: int
    y: int = 0
    label: str = "origin"

    def norm(self) -> int:
        """Manhattan distance from 0."""
        return abs(self.x) + abs(self.y)

    @property
    def flipped(self) -> Point:
        return self._replace(x=self.y, y=self.x)

    @classmethod
    def at(cls, x: int) -> Point:
        return cls(x, x)

    @staticmethod
    def zero() -> int:
        return 0

    def __repr__(self) -> str:
        return f"<{super().__repr__()}>"  # super() works in its methods


class TypedPoint(NamedTuple):
    """A point on the grid."""

    x: int
    y: int = 0
    label: str = "origin"


def test_a_record_is_a_namedtuple_with_the_bodys_methods():
    p = Point(3, -4)
    assert isinstance(p, tuple) and not isinstance(p, Record)
    assert type(p).__bases__ == (tuple,)
    assert p == (3, -4, "origin") and p == TypedPoint(3, -4)
    assert hash(p) == hash((3, -4, "origin"))
    assert p.norm() == 7 and p.flipped == Point(-4, 3)
    assert Point.at(2) == Point(2, 2) and Point.zero() == 0
    assert repr(p) == "<(3, -4, 'origin')>"  # tuple's, through super()
    assert p._replace(label="here") == Point(3, -4, "here")
    assert p._asdict() == {"x": 3, "y": -4, "label": "origin"}
    assert Point._make([1, 2, "a"]) == Point(1, 2, "a")
    x, y, label = p
    assert (x, y, label) == (3, -4, "origin")
    with pytest.raises(AttributeError):
        p.x = 1  # type: ignore[misc]


def test_a_record_has_namedtuples_class_attributes():
    for name in ("_fields", "_field_defaults", "__match_args__", "__slots__"):
        assert getattr(Point, name) == getattr(TypedPoint, name), name
    assert Point.__doc__ == TypedPoint.__doc__ == "A point on the grid."
    assert Point.norm.__doc__ == "Manhattan distance from 0."
    assert Point.__name__ == "Point" and Point.__qualname__ == "Point"
    assert Point.__module__ == __name__
    assert list(Point.__annotations__) == ["x", "y", "label"]


def test_a_record_pickles_and_copies():
    p = Point(1, 2, "a")
    assert pickle.loads(pickle.dumps(p)) == p
    assert type(pickle.loads(pickle.dumps(p))) is Point
    assert copy.copy(p) == copy.deepcopy(p) == p


def test_a_record_matches_by_position():
    match Point(5, 6):
        case Point(x, y):
            assert (x, y) == (5, 6)
        case _:
            pytest.fail("no match")


def test_a_field_without_default_cannot_follow_one_with():
    with pytest.raises(TypeError, match="cannot follow default field"):

        class Bad(Record):  # type: ignore[misc]
            a: int = 1
            b: int


@pytest.mark.parametrize("name", ["_replace", "_fields", "__new__", "_make"])
def test_a_body_may_not_redefine_namedtuples_own_names(name):
    with pytest.raises(AttributeError, match=name):
        body = {"__module__": __name__, name: 1}
        types.new_class("Bad", (Record,), exec_body=lambda ns: ns.update(body))


def test_a_record_inherits_from_record_alone():
    class Mixin:
        pass

    with pytest.raises(TypeError):

        class Bad(Record, Mixin):  # type: ignore[misc]
            a: int


def _make(base: type, names: list[str], defaults: list[object]) -> type:
    """A class ``Made(base)`` with fields ``names``, the last ones defaulted."""
    first = len(names) - len(defaults)

    def body(ns: dict[str, object]) -> None:
        ns["__module__"] = __name__
        ns["__annotations__"] = dict.fromkeys(names, "object")
        ns.update(zip(names[first:], defaults, strict=True))
        ns["__doc__"] = "made"
        ns["total"] = lambda self: len(self)

    return types.new_class("Made", (base,), exec_body=body)


# a keyword ("as", "if") is no field name for either: both raise
_NAME = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda s: s != "total" and not keyword.iskeyword(s)
)


@settings(max_examples=100, deadline=None)
@given(
    names=st.lists(_NAME, min_size=0, max_size=6, unique=True),
    data=st.data(),
)
def test_records_behave_as_typings_namedtuples(names, data):
    count = data.draw(st.integers(0, len(names)))
    defaults = data.draw(st.lists(st.integers(), min_size=count, max_size=count))
    ours, theirs = _make(Record, names, defaults), _make(NamedTuple, names, defaults)
    assert ours._fields == theirs._fields
    assert ours._field_defaults == theirs._field_defaults
    assert ours.__doc__ == theirs.__doc__ == "made"
    given_values = data.draw(
        st.lists(
            st.integers() | st.text(max_size=3) | st.none(),
            min_size=len(names) - count,
            max_size=len(names),
        )
    )
    a, b = ours(*given_values), theirs(*given_values)
    assert tuple(a) == tuple(b) and a == b and hash(a) == hash(b)
    assert repr(a) == repr(b) and a._asdict() == b._asdict()
    assert a.total() == b.total() == len(names)
    if names:
        new = data.draw(st.integers())
        changed = {names[-1]: new}
        assert a._replace(**changed) == b._replace(**changed)
