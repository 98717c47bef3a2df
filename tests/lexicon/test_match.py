"""Phrase and frame matching of the built-in lexicon (see docs/design.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gardener.lexicon.match import find, first_frame, masked
from gardener.lexicon.words import LANGUAGES, Words, lexicon, merge


def test_every_language_loads_and_merges():
    words = lexicon(LANGUAGES)
    assert "决定" in words.kind_cues["decision"]
    assert "entschieden" in words.kind_cues["decision"]
    assert lexicon(("en",)).kind_cues["decision"] != words.kind_cues["decision"]
    assert lexicon(("xx",)) == Words()  # an unknown code adds nothing


def test_merge_keeps_order_without_repeats():
    a = Words(transient_cues=("now", "wip"), headings={"fact": ("facts",)})
    b = Words(transient_cues=("wip", "later"), headings={"fact": ("setup",)})
    both = merge([a, b])
    assert both.transient_cues == ("now", "wip", "later")
    assert both.headings == {"fact": ("facts", "setup")}


@pytest.mark.parametrize(
    ("text", "phrases", "found"),
    [
        ("we use sqlite", ("we use",), True),
        ("weather is nice", ("we",), False),  # whole words in spaced scripts
        ("我们决定用 sqlite", ("决定",), True),  # substrings in Chinese
        ("lessons learned", ("lesson",), False),
    ],
)
def test_phrases_match_whole_words_or_substrings(text, phrases, found):
    assert (find(text, phrases) is not None) is found


def test_plural_heading_words():
    assert find("key lessons", ("lesson",), plural=True)
    assert not find("lessonplan", ("lesson",), plural=True)


def test_exclusions_mask_the_longer_word():
    words = lexicon(("ja",))
    assert find("非常に速い", ("常に",), words.exclusions) is None
    assert find("常にテストを書く", ("常に",), words.exclusions) is not None
    assert masked("非常に", {"常に": ("非常に",)}) == "\x00\x00\x00"


@pytest.mark.parametrize(
    ("text", "templates", "groups"),
    [
        (
            "switched CI from CircleCI to GitHub Actions; cheaper",
            ("switched {subject} from {old} to {new}",),
            {"subject": "CI", "old": "CircleCI", "new": "GitHub Actions"},
        ),
        (
            "数据库从MySQL迁移到了PostgreSQL",
            ("从{old}迁移到{new}",),
            {"old": "MySQL", "new": "了PostgreSQL"},
        ),  # fmt: skip (bare() drops 了)
        (
            "数据库从MySQL迁移到PostgreSQL。",
            ("从{old}迁移到{new}",),
            {"old": "MySQL", "new": "PostgreSQL"},
        ),  # fmt: skip
        ("Redisを廃止した", ("{old}を廃止",), {"old": "Redis"}),
        ("мы отказались от Redis", ("отказались от {old}",), {"old": "Redis"}),
        (
            # " to" after a placeholder starts a word: not the end of "photo"
            "switched to pytest, and the photo tests need tmp_path",
            ("switched {subject} to {new}", "switched to {new}"),
            {"new": "pytest"},
        ),
        ("Postgres→SQLite", ("{old} → {new}",), {"old": "Postgres", "new": "SQLite"}),
    ],
)
def test_frames_read_their_groups(text, templates, groups):
    found = first_frame(text, templates)
    assert (found[1] if found else None) == groups


@given(st.text(max_size=200))
def test_frames_never_raise(text):
    words = lexicon()
    for templates in (words.changes, words.removals, words.negations):
        found = first_frame(text, templates)
        assert found is None or all(found[1].values())


def _tiers() -> list[tuple[tuple[str, ...], dict[str, tuple[str, ...]]]]:
    words = lexicon(LANGUAGES)
    tables = [*words.kind_cues.values(), *words.headings.values()]
    seqs = [words.transient_cues, words.time_words, words.correction_cues]
    seqs += [words.norms, words.copulas, words.change_words, words.attitudes]
    return [(tuple(t), dict(words.exclusions)) for t in [*tables, *seqs] if t]


_TIERS = _tiers()
_PIECES = sorted({w for phrases, _ in _TIERS for p in phrases for w in p.split()})


@given(
    st.lists(
        st.one_of(
            st.sampled_from(_PIECES),
            st.sampled_from(["s", "es", "-", "'", " ", "  ", "\n", "x", "\x00", "数"]),
            st.text(max_size=4),
        ),
        max_size=8,
    ),
    st.integers(0, len(_TIERS) - 1),
    st.booleans(),
    st.booleans(),
)
def test_find_asks_its_words_first_and_finds_what_the_regex_finds(
    parts, tier, plural, joined
):
    # the word prefilter (``_Needs``) never hides a match of the tier's regex
    from gardener.lexicon.match import phrase_regex

    phrases, exclusions = _TIERS[tier]
    text = ("" if joined else " ").join(parts).casefold()
    regex = phrase_regex(phrases, plural)
    want = regex.search(masked(text, exclusions)) if regex else None
    got = find(text, phrases, exclusions, plural)
    assert (got and (got.span(), got.group())) == (want and (want.span(), want.group()))


def test_find_with_blank_phrases_matches_as_the_empty_regex_does():
    assert find("anything", ("  ",)) is not None
    assert find("anything", ()) is None
