"""Which sentence patterns a text is tried against (``keying._PatternFilter``):
never fewer than those whose regex matches it, and in rules order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gardener.lexicon.words import lexicon
from gardener.planning import keying

# the lexicon's patterns and a rules.md's one per relation (bench/relations.py's shape)
_RULES = {
    "capital": ("the capital of {subject} is {value}",),
    "party": ("{subject} is a member of the political party {value}",),
    "school": ("{subject} was educated at {value}",),
    "owner": ("{subject}'s owner is {value}", "{key}: {value}"),
    "host": ("the {subject} host is {value}.",),
}
_PATTERNS = {**_RULES, **lexicon().patterns}
_TRIED, _FILTER = keying._plan(_PATTERNS, True)
_WORDS = sorted(
    {w for _, t, _, _ in _TRIED for w in t.replace("{", " {").split() if "{" not in w}
)


@given(
    st.lists(
        st.one_of(
            st.sampled_from(_WORDS),
            st.sampled_from(["Sam", "box-3", "Ines", "(", ".", "'s", ":", "-"]),
            st.text(alphabet="abcXYZ .,'()_-", max_size=5),
        ),
        min_size=1,
        max_size=9,
    ),
    st.sampled_from([" ", "  ", ""]),
)
def test_every_template_that_matches_is_tried(parts, glue):
    text = glue.join(parts)
    if not text.isascii():
        return
    tried = _FILTER.candidates(text.lower())
    assert tried == sorted(set(tried))
    for i, (_, template, _, _) in enumerate(_TRIED):
        if keying.compile_template(template)[0].search(text):
            assert i in tried, template


def test_a_template_whole_word_is_spaced_on_both_sides():
    assert keying.whole_word("the capital of {subject} is {value}") == "capital"
    assert keying.whole_word("{subject}'s owner is {value}") == "owner"
    assert keying.whole_word("{key}: {value}") is None
    assert keying.whole_word("x{value}") is None
    assert keying.whole_word("我叫{value}") is None
