"""check_dates checks each distinct date once: the same error, at the same
line, as checking every attribute of every fact."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gardener.errors import ParseError
from gardener.model.facts import Fact, Memory
from gardener.model.validtime import is_instant
from gardener.planning.promote import check_dates

_VALUES = [
    "2026-06-16",
    "2026-06-16T08:00",
    "2026-13-01",
    "yesterday",
    "2026-06-16T8:00",
    "",
]


def _slow(memory: Memory) -> tuple[str, int] | None:
    for fact in memory.facts:
        for name in ("since", "until", "expires"):
            value = fact.get(name)
            if value is not None and not is_instant(value):
                return f"{name}={value!r}", fact.line
    return None


@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(["since", "until", "expires", "from"]),
            st.one_of(st.sampled_from(_VALUES), st.text(max_size=12)),
            max_size=3,
        ),
        max_size=8,
    )
)
def test_the_first_bad_date_is_the_one_every_check_finds(attrs):
    facts = tuple(Fact(f"v{i}", attrs=a, line=i + 1) for i, a in enumerate(attrs))
    memory = Memory(head="", facts=facts)
    want = _slow(memory)
    if want is None:
        check_dates(memory)
        return
    with pytest.raises(ParseError) as got:
        check_dates(memory)
    assert got.value.line == want[1]
    assert str(got.value).startswith(f"MEMORY.md:{want[1]}: {want[0]} is not")
