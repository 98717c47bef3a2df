"""'<key> is now <value>' in every language of the lexicon: a change frame
read from the copulas and the change words, no template per language."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gardener.lexicon.words import lexicon
from gardener.planning.copulachange import copula_change, named, unmarked

WORDS = lexicon()


@pytest.mark.parametrize(
    ("text", "subject", "new", "strong"),
    [
        ("The deploy target is now box-b", "deploy target", "box-b", True),
        ("Der Linter ist jetzt Ruff", "Linter", "Ruff", True),
        ("La CI est désormais GitLab CI", "CI", "GitLab CI", True),
        ("El linter ahora es Ruff", "linter", "Ruff", True),
        ("База данных теперь — Postgres", "База данных", "Postgres", True),
        ("数据库现在是 Postgres", "数据库", "Postgres", True),
        ("データベースは今はPostgres", "データベース", "Postgres", True),
        ("Python version is 3.12 from now on", "Python version", "3.12", True),
        ("The build is now green", "build", "green", False),
        ("The latency is now 80ms", "latency", "80ms", False),
    ],
)
def test_a_copula_with_a_change_word_is_a_change(text, subject, new, strong):
    frame = copula_change(text, WORDS)
    assert frame is not None
    assert (frame.kind, frame.subject, frame.new, frame.strong) == (
        "change", subject, new, strong,
    )  # fmt: skip


@pytest.mark.parametrize(
    "text",
    ["The deploy target is box-b", "The known issue is nowhere near fixed", "now"],
)
def test_no_change_word_no_change(text):
    assert copula_change(text, WORDS) is None


@given(st.text(alphabet="abcdefgh XYZ-12.", max_size=40))
def test_text_without_a_change_word_is_never_a_change(text):
    assert copula_change(text + " is " + text, WORDS) is None


@pytest.mark.parametrize(
    ("value", "left"),
    [("3.12 from now on", "3.12"), ("jetzt Ruff", "Ruff"), ("now", "now"),
     ("Nowhere Man", "Nowhere Man"), ("改用 uv", "uv")],
)  # fmt: skip
def test_unmarked_drops_a_change_word_at_either_edge(value, left):
    assert unmarked(value, WORDS) == left


@pytest.mark.parametrize(
    ("value", "is_named"),
    [("Postgres", True), ("box-b", True), ("stg2", True), ("fly.io", True),
     ("green", False), ("in review", False), ("空的", False), ("达梦 DM8", True)],
)  # fmt: skip
def test_a_name_is_written_as_one(value, is_named):
    assert named(value) is is_named


_CHANGE = sorted({w for c in WORDS.change_words for w in (c, c.upper(), c.title())})


@given(
    st.lists(
        st.one_of(
            st.sampled_from(_CHANGE),
            st.sampled_from([" ", "  ", "\n", ",", "x", "Ruff", "数据库", "ſ", "K"]),
            st.text(max_size=3),
        ),
        max_size=6,
    )
)
def test_the_marks_drop_and_find_what_their_regexes_do(parts):
    # the anchored searches (``_Marks``) against the whole-text regexes
    import re

    from gardener.planning.copulachange import _any_mark, _marks, any_mark

    text = "".join(parts)
    words = sorted(WORDS.change_words, key=len, reverse=True)
    ends = "|".join(re.escape(w) + ("" if _cjk(w[-1]) else r"(?!\w)") for w in words)
    starts = "|".join(("" if _cjk(w[0]) else r"(?<!\w)") + re.escape(w) for w in words)
    opens = re.compile(rf"^\s*(?:{ends})[\s,:，]*", re.IGNORECASE)
    closes = re.compile(rf"(?:{starts})\s*$", re.IGNORECASE)
    marks = _marks(WORDS.change_words)
    assert marks.drop_open(text) == opens.sub("", text, count=1)
    assert marks.drop_close(text) == closes.sub("", text, count=1)
    found = _any_mark(WORDS.change_words).search(text) is not None
    assert any_mark(text, WORDS.change_words) is found


def _cjk(ch: str) -> bool:
    from gardener.lexicon.match import unspaced

    return unspaced(ch)
