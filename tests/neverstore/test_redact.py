"""The public calls: find, redact, find_each, custom and allow patterns, markers.

Every value here is fake and invented for these tests.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gardener.neverstore import redact as redacting
from gardener.neverstore.redact import (
    Finding,
    compile_patterns,
    find,
    find_each,
    redact,
)
from tests.neverstore.corpus import BENIGN, REFUSED


def test_line_numbers_and_describe() -> None:
    text = "notes\n\nthe password is hunter2\nmail carol@example.net\n"
    found = find(text)
    assert [(f.rule, f.line) for f in found] == [("password", 3), ("email", 4)]
    assert found[0].describe() == "password (line 3)"
    assert all("hunter2" not in f.describe() for f in found)
    assert isinstance(found[0], Finding)


def test_redact_output() -> None:
    clean, found = redact("db: postgres://app:Hunt3r2pw@db/x, mail dan@example.com")
    assert clean == (
        "db: postgres://app:[REDACTED:connection-string]@db/x, mail [REDACTED:email]"
    )
    assert [f.rule for f in found] == ["connection-string", "email"]


def test_a_marker_exposing_a_neighbour_is_handled_in_one_go() -> None:
    # The first key swallows the second's "rk"; what is left is only judged on its
    # own once the first is a marker, and find reports it in this text's offsets.
    key = "rk_live_" + "ueQpBenQtYh5Xj8TPQxjq4i9"
    text = f"keys {key}{key} end"
    found = find(text)
    assert [f.rule for f in found] == ["stripe-key", "high-entropy"]
    assert found[0].end == found[1].start == 5 + len(key) + 2
    clean, _ = redact(text)
    assert clean == "keys [REDACTED:stripe-key][REDACTED:high-entropy] end"


def test_custom_patterns_and_value_group() -> None:
    extra = [("codename", r"Project Nightjar"), ("badge", r"badge #(?P<value>\d{5})")]
    text = "Project Nightjar ships; badge #40417 at the desk"
    found = find(text, extra)
    assert [f.rule for f in found] == ["custom:codename", "custom:badge"]
    assert text[found[1].start : found[1].end] == "40417"
    clean, _ = redact(text, extra)
    marked = "[REDACTED:custom:codename] ships; badge #[REDACTED:custom:badge]"
    assert clean == marked + " at the desk"
    assert redact(clean, extra) == (clean, [])


def test_allowlist_drops_covered_findings() -> None:
    text = "mail alice@example.com or bob@corp.example"
    assert [f.rule for f in find(text, allow=[r"[\w.]+@example\.com"])] == ["email"]
    assert find("password: hunter2", allow=["hunter2"]) == []
    assert find("password: hunter2", allow=["hunt"]) != []  # must cover the whole span


def test_bad_pattern_is_named() -> None:
    with pytest.raises(ValueError, match="broken"):
        compile_patterns([("broken", "(unclosed")])
    with pytest.raises(ValueError):
        find("x", allow=["[z-a]"])
    assert compile_patterns([("ok", "a+")])[0][0] == "custom:ok"


RULES = sorted({rule for _, rule in REFUSED})


LABELS = [
    "",
    "password: ",
    "the token is ",
    "New password is: ",
    "| password | ",
    "--password ",
    "secret_key_base: ",
    "backup codes: ",
    "Authorization: Bearer ",
    "PIN: ",
    "postgres://app:",
    "密码是",
]


@pytest.mark.parametrize("rule", [*RULES, "custom:codename"])
def test_a_line_whose_only_secret_is_a_marker_is_not_flagged(rule: str) -> None:
    marker = f"[REDACTED:{rule}]"
    for label in LABELS:
        line = label + marker
        for text in (line, f"{line} |", f"{line}@db/x", f'"{line}"', line + marker):
            assert find(text) == [], text


@pytest.mark.parametrize(
    "unit",
    [
        " ".join(t.replace("\n", " ") for t in [*(t for t, _ in REFUSED), *BENIGN, ""]),
        "pw:x7Kp-fake-22:",  # each label's value holds the next label: no quadratic work
    ],
    ids=["every-test-line", "repeated-label"],
)
def test_a_long_line_is_read_to_its_end(unit: str) -> None:
    # once quadratic (a rule read on to the line's end from each of its words);
    # its time on a megabyte line is `python -m bench.longline`, so this line
    # is only long enough to hold four copies of the unit: what is checked is
    # that the copies in the middle are read as each other, and the last too
    copies = max(4, 120_000 // len(unit))
    line = unit * copies
    found = find(line)
    assert found
    assert found[-1].end > len(unit) * (copies - 1)  # read to the last copy
    each = [
        [(f.rule, f.start - k * len(unit), f.end - k * len(unit)) for f in found
         if k * len(unit) <= f.start < (k + 1) * len(unit)]
        for k in range(copies)
    ]  # fmt: skip
    assert each[1] == each[copies - 2]


FRAGMENTS = [t for t, _ in REFUSED] + BENIGN + [" ", "\n", ":", "=", "[", "]", "@"]


mixed_text = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=8), max_size=8).map(
    "".join
)


def _check_spans(text: str, found: list[Finding]) -> None:
    last = 0
    for f in found:
        assert 0 <= last <= f.start < f.end <= len(text)
        assert f.line == text.count("\n", 0, f.start) + 1
        last = f.end


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_find_never_raises_and_spans_are_sane(text: str) -> None:
    _check_spans(text, find(text))


@settings(max_examples=300, deadline=None)
@given(mixed_text)
def test_spans_are_sane_on_secret_laden_text(text: str) -> None:
    _check_spans(text, find(text))


@settings(max_examples=300, deadline=None)
@given(st.text() | mixed_text)
@example(
    "PASSWORT: 0< 0000000A 0000000A 0000000A 0000000A"
)  # CI: each round exposed one more
def test_redact_is_idempotent(text: str) -> None:
    once, _ = redact(text)
    twice, found = redact(once)
    assert twice == once
    assert found == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text() | mixed_text, max_size=12))
@example(["PASSORD[REDACTED:A]000000:A"])  # CI: a value read past a marker
def test_find_each_is_find_for_each_text(texts: list[str]) -> None:
    assert find_each(texts) == [find(t) for t in texts]


def test_find_each_on_the_suites_and_with_rules_md_patterns() -> None:
    texts = [t for t, _ in REFUSED] + BENIGN + ["", "\n", "plain words"]
    assert find_each(texts) == [find(t) for t in texts]
    extra = [("codename", r"Blue(?P<value>bird)"), ("empty", r"x*")]
    allow = [r"AKIA[A-Z0-9]{16}"]
    assert find_each(texts, extra, allow) == [find(t, extra, allow) for t in texts]


def test_redact_settles_what_a_marker_exposes_to_detect_secrets() -> None:
    """Regression: a marker made a UUID run into a label look like an IBM key."""
    text = "password: hunter2ID 550E8400-E29B-41D4-A716-446655440000password: hunter2"
    once = redact(text)[0]
    assert redact(once) == (once, [])


@pytest.mark.parametrize(
    ("line", "value"),
    [
        (
            "- the admin password: [REDACTED:password] Hunter2Hunter2x",
            "Hunter2Hunter2x",
        ),
        ("- token [REDACTED:secret]=Tr0ub4dor&3xQ", "Tr0ub4dor&3xQ"),
    ],
)
def test_a_value_written_after_a_marker_is_found(line, value):
    """An agent that copies a redacted line and adds the value again, or a
    person typing it after the marker: the value is what follows the marker."""
    (found,) = find(line)
    assert line[found.start : found.end] == value


@pytest.mark.parametrize(
    "line",
    [
        "password: [REDACTED:password] deploy friday",
        "API key: [REDACTED:secret] lives in the gateway's systemd unit",
        "password: [REDACTED:password] (rotated on Monday)",
        "password: [REDACTED:password] [REDACTED:password]",
    ],
)
def test_the_words_after_a_marker_stay(line):
    assert find(line) == []


def _unscanned_by_sets(text: str, committed: str, scanned, context: int) -> str:
    """``redact.unscanned`` as it reads a text that changed anywhere."""
    lines = text.split("\n")
    held = set(committed.split("\n"))
    fresh = [i for i, line in enumerate(lines) if line not in held]
    return redacting._runs(lines, fresh, 0, scanned, context)


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(["a", "b", "", "key: v", "x y"]), max_size=30),
    st.lists(st.sampled_from(["a", "new", "", "token=zz", "b"]), max_size=70),
    st.booleans(),
    st.integers(0, 10),
)
def test_a_grown_text_is_read_as_a_changed_one(old, new, cut, context) -> None:
    """The append-only shortcut of ``unscanned`` (no split of the whole text,
    new lines looked up in the committed one) gives what the sets give."""
    committed = "\n".join(old) + ("" if cut else "\n")
    text = committed + "\n".join(new)
    for scanned in ((), ("new",)):
        assert redacting._appended(
            text, committed, scanned, context
        ) == _unscanned_by_sets(text, committed, scanned, context)
