"""The evidence scorer alone (gardener/neverstore/evidence.py): the value it
refuses in each case of tests/neverstore/data/evidence.tsv, or nothing; and
that each row of its word tables (``credwords``) has a case."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.neverstore import credwords as cw
from gardener.neverstore.evidence import spans
from gardener.neverstore.redact import find
from tests.neverstore.corpus import load

CASES = load("evidence", "text", "value")


@pytest.mark.parametrize(("text", "value"), CASES, ids=[t[:40] for t, _ in CASES])
def test_evidence_finds_the_value_or_nothing(text: str, value: str) -> None:
    found = [text[s:e] for s, e in spans(text)]
    assert found == ([value] if value else [])


@pytest.mark.parametrize(("text", "value"), [c for c in CASES if c[1]])
def test_every_evidence_value_is_refused_by_note(text: str, value: str) -> None:
    at = text.index(value)
    assert any(f.start <= at and at + len(value) <= f.end for f in find(text))


def _has_case(alternatives: str, refused: bool) -> bool:
    pattern = re.compile(f"(?i:{alternatives})")
    return any(pattern.search(t) and bool(v) == refused for t, v in CASES)


@pytest.mark.parametrize(
    "row", cw.CRED_WORDS, ids=[f"{r[0]}-{r[1]}" for r in cw.CRED_WORDS]
)
def test_every_credential_word_row_has_a_refused_case(
    row: tuple[str, str, str],
) -> None:
    assert _has_case(row[2], True), f"no refused case in evidence.tsv for {row}"


@pytest.mark.parametrize("row", cw.SENSES, ids=[f"{r[0]}-{r[1]}" for r in cw.SENSES])
def test_every_sense_row_has_a_passing_case(row: tuple[str, str, str, str]) -> None:
    words = f"{row[2]} {row[3]}".split()
    cases = [t for t, v in CASES if not v and re.search(f"(?i:{row[1]})", t)]
    assert any(
        any(re.search(rf"(?i)\b{re.escape(w)}\b", t) for w in words) for t in cases
    )


@pytest.mark.parametrize("row", cw.CHANGE_WORDS, ids=[r[0] for r in cw.CHANGE_WORDS])
def test_every_change_row_has_a_refused_case(row: tuple[str, str]) -> None:
    assert _has_case(row[1], True), f"no refused case in evidence.tsv for {row}"


def test_pair_after_a_colon_needs_a_strong_password() -> None:
    text = "- gym app: pekka.v / Kuusi#Metsa55"
    assert [text[s:e] for s, e in spans(text)] == ["Kuusi#Metsa55"]
    assert spans("- versions: v1.2 / v1.3 compared") == []
    assert spans("- routes: /api / Home-Page") == []


_WORDS = [
    "account",
    "login",
    "user",
    "creds",
    "wifi",
    "WLAN",
    "Konto",
    "password",
    "PIN",
]
_PIECES = [
    " ", " / ", ": ", " is ", " = ", "\n", ". ", ", ", "(", ")", '"', "-", "to ",
    "02866", "Ines", "Tq8#vLm2!pZr", "hunter22", "Blåbärssylt-42", "kiwi-lantern-1987",
    "4AGZU3PEJRTUKGKTHZLEAXXA2VIOXJ2R", "ab12cd34", "AB12CD34ef", "changed", "set",
    "pekka.v", "Kuusi#Metsa55", "in the vault", "ask Sam", "436y fk5q kotl skfe",
    "psk=Älgstig!93", "12345678", "x" * 9, "/", "06717/", "数据", "list", "price**:",
    "abcd efgh ijkl 1234", "9k2m 4p7q", "raspberry42", "«", "`", "Ab3/", "\t",
]  # fmt: skip


@given(
    st.lists(
        st.one_of(
            st.sampled_from(_WORDS), st.sampled_from(_PIECES), st.text(max_size=4)
        ),
        min_size=1,
        max_size=14,
    )
)
@settings(max_examples=400, deadline=None)
def test_pruned_scoring_is_the_scoring_of_every_candidate(parts):
    # ``consider`` skips the shapes of an unpaired login or network word's
    # values that could not count: the best value is the one the slow path
    # (every candidate shaped) finds, for each word of each kind
    from gardener.neverstore.evidence import STEMS, _kinds_of, windowed

    text = "".join(parts)
    low = text.lower()
    if len(low) != len(text):
        return
    for m in re.finditer(STEMS, low):
        for kind in _kinds_of(m.group()):
            fast = windowed(text, m.start(), m.end(), kind)
            slow = windowed(text, m.start(), m.end(), kind, prune=False)
            assert fast == slow, (text, m.group(), kind)
