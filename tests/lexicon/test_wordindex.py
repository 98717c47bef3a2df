"""WordFilter: the items whose words are all in a text, as asking each would find."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gardener.lexicon.match import _by_specificity, first_frame, frame_regex
from gardener.lexicon.wordindex import WordFilter
from gardener.lexicon.words import lexicon

_WORD = st.text(alphabet="abcto ", min_size=1, max_size=4)
_ITEMS = st.lists(st.one_of(st.none(), st.lists(_WORD, max_size=3)), max_size=12)


@given(_ITEMS, st.text(alphabet="abcto ", max_size=30))
def test_the_candidates_are_the_items_each_check_would_keep(items, low):
    kept = [
        i for i, words in enumerate(items) if not words or all(w in low for w in words)
    ]
    assert WordFilter(items).candidates(low) == kept


def test_an_item_without_words_is_always_a_candidate():
    assert WordFilter([None, ["zzz"], []]).candidates("abc") == [0, 2]


def _first_frame_one_by_one(text: str, templates: tuple[str, ...]):
    """first_frame as it was: each template asked in turn, most specific first."""
    lowered = text.lower()
    for template, word in _by_specificity(templates):
        if word not in lowered:
            continue
        m = frame_regex(template).search(text)
        if m:
            groups = {k: v.strip() for k, v in m.groupdict().items() if v}
            if all(groups.values()):
                return template, groups, m.span()
    return None


def test_first_frame_answers_as_asking_each_frame_in_turn():
    words = lexicon(("en", "de", "zh"))
    texts = [
        "switched CI from Woodpecker to GitHub Actions",
        "we no longer use Redis for the queue",
        "wir sind von MySQL auf Postgres umgestiegen",
        "从 MySQL 迁移到 PostgreSQL",
        "lunch with Mira",
        "moved the standup to 10:00",
        "replaced Kimi with Ollama, the database is now Postgres",
    ]
    for text in texts:
        for templates in (words.changes, words.removals, words.weak_removals):
            want = _first_frame_one_by_one(text, templates)
            assert first_frame(text, templates) == want, text
