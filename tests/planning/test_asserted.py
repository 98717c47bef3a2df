"""asserted's phrase tables as one regex each: the same answers as the regex
of one guarded alternative per phrase it replaced."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.lexicon.match import unspaced
from gardener.planning import asserted as a

TABLES = (a.QUESTION_OPENERS, a.HEDGES, a.CONDITIONS, a.HISTORY, a.LIMITED, a.NOT_DONE)
_PHRASES = sorted({p for t in TABLES for p in t})


def _slow(said: tuple[str, ...]) -> re.Pattern[str]:
    parts = []
    for phrase in sorted(said, key=len, reverse=True):
        p = re.escape(phrase)
        if unspaced(phrase[:1]) or not phrase[:1].isalnum():
            parts.append(p)
        else:
            parts.append(rf"(?<!\w){p}")
    return re.compile("|".join(parts), re.IGNORECASE)


@given(
    st.lists(
        st.one_of(
            st.sampled_from(_PHRASES),
            st.sampled_from([" ", "x", "_", "9", "é", "?", "K", "ſ", "数", "\n", "-"]),
            st.text(max_size=3),
        ),
        max_size=8,
    )
)
@settings(max_examples=500)
def test_each_table_matches_where_its_guarded_alternatives_do(parts):
    text = "".join(parts)
    for table in TABLES:
        fast, slow = a._phrases(table), _slow(table)
        for t in (text, text.casefold()):
            assert bool(fast.search(t)) == bool(slow.search(t)), (table[:2], t)
            assert bool(fast.match(t)) == bool(slow.match(t)), (table[:2], t)


def test_the_tables_stay_compiled():
    assert all(a._phrases(t) is a._phrases(t) for t in TABLES)
