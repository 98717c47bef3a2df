"""The loss budget reads only the facts a pass touched, with the same answer."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.model.facts import Fact
from gardener.planning.prune import lost_current, standing
from gardener.verbs.budget import _touched

TODAY = "2026-07-01T20:00"
IDS = st.sampled_from([None, "a1", "a2", "a3", "a4"])
ATTRS = st.dictionaries(
    st.sampled_from(["until", "superseded-by", "since"]),
    st.sampled_from(["2026-06-01", "2026-08-01", "a1", "a2", "a3"]),
    max_size=2,
)
FACTS = st.builds(
    Fact,
    value=st.sampled_from(["x", "y"]),
    key=st.sampled_from([None, "k"]),
    id=IDS,
    section=st.sampled_from(["Facts", "Superseded"]),
    attrs=ATTRS,
)


@settings(max_examples=300, deadline=None)
@given(
    before=st.lists(FACTS, max_size=8),
    keep=st.lists(st.booleans(), min_size=8, max_size=8),
    new=st.lists(FACTS, max_size=5),
    order=st.randoms(use_true_random=False),
)
def test_touched_gives_lost_current_answer(before, keep, new, order):
    # a pass keeps some facts as they were (the same objects), drops others
    # and adds new ones, ids repeated and successors named at random
    current = [f for f in before if standing(f, TODAY)]
    after = [f for f, k in zip(before, keep, strict=False) if k] + new
    order.shuffle(after)
    assert lost_current(*_touched(current, after), TODAY) == lost_current(
        current, after, TODAY
    )


def test_a_pass_that_kept_every_fact_reads_none():
    facts = [Fact(f"v{i}", f"k{i}", f"id{i}") for i in range(100)]
    assert _touched(facts, [*facts, Fact("new", "k", "n1")]) == ([], [])
