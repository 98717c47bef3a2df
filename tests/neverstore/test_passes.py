"""Where rules run: the word prefilter and camelCase labels change no finding."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gardener.neverstore.passes as passes_module
from gardener.neverstore.redact import find
from gardener.neverstore.rules import TABLE
from tests.neverstore.corpus import BENIGN, REFUSED

FRAGMENTS = [t for t, _ in REFUSED] + BENIGN + [" ", "\n", ":", "=", "[", "]", "@"]
mixed_text = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=8), max_size=8).map(
    "".join
)


# A short text with none of a pass's words skips that pass's regex (and its
# compiling); with the prefilter off, every regex runs: the findings agree.
_WORDS = sorted({w for r in TABLE for w in r.words.replace("|", " ").split()})


_FOLDS = ["ſ", "İ", "K", "ß", "Σ", "ﬁ"]  # case folds that are not one ASCII letter


worded_text = st.lists(
    st.sampled_from(_WORDS).map(lambda w: w.capitalize())
    | st.sampled_from(_WORDS)
    | st.sampled_from(_WORDS).map(str.upper)
    | st.sampled_from(FRAGMENTS + _FOLDS)
    | st.text(max_size=6),
    max_size=10,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(worded_text | mixed_text)
def test_the_word_prefilter_changes_no_finding(text: str) -> None:
    for variant in (text, "db" + text.replace("s", "ſ")):  # "ſ" matches "s" in (?i)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(passes_module, "PREFILTER", -1)
            every_regex = find(variant)
        assert find(variant) == every_regex


@pytest.mark.parametrize(
    ("label", "value"),
    [
        ("dbPaſſword", "=hunter2hunter2x"),
        ("myPİN", "=4821"),
        ("apiKey", "=hunter2hunter2x"),
    ],
)
def test_a_camel_label_matched_through_a_case_fold_is_found(
    label: str, value: str
) -> None:
    """Regression (found by the prefilter property): "dbPaſſword" matched the
    camelCase regex case-insensitively ("ſ" folds to "s") but lowercases to
    "paſſword", which no rule is routed by: find raised KeyError."""
    plain = find(label.replace("ſ", "s").replace("İ", "I") + value)
    assert plain
    folded = find(label + value)
    assert [f.rule for f in folded] == [f.rule for f in plain]
