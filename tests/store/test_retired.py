"""The register of retired daily-note entries (gardener.formats.retired)."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gardener.formats import retired

_PATH = st.from_regex(r"memory/20[0-9]{2}-[01][0-9]-[0-3][0-9]\.md", fullmatch=True)
_WHEN = st.from_regex(
    r"20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]", fullmatch=True
)
_TEXT = st.text(min_size=1).filter(lambda t: "\n" not in t and "\r" not in t)


# generating many entries is slow on a loaded machine: not a failure of the parser
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(
        st.tuples(_PATH, _TEXT),
        st.tuples(_WHEN, st.sampled_from(["retired", "erasure request"])),
    )
)
def test_render_then_parse_gives_the_entries_back(entries):
    marks = {retired.mark(path, text): value for (path, text), value in entries.items()}
    text = retired.render(marks)
    assert retired.parse(text) == marks
    assert retired.render(retired.parse(text)) == text  # rendering is canonical
    assert text == "" or text.startswith("# ")


@given(_PATH, _TEXT)
@example("memory/2026-01-01.md", "ı")  # its upper case is another letter's
def test_a_mark_names_the_text_not_the_line_and_holds_no_words(path, text):
    mark = retired.mark(path, text)
    assert mark == retired.mark(path, text)
    assert mark.startswith(path + "\t") and len(mark.split("\t")[1]) == 16
    # the words name it: case, runs of spaces and a closing stop do not count
    # (where upper case keeps the letter: the dotless 'ı' upper-cases to 'I')
    if text.upper().casefold() == text.casefold():
        assert mark == retired.mark(path, f"  {text.upper()} ".replace(" ", "  ") + ".")
    assert mark != retired.mark(path, text + " x")


def test_lines_that_are_not_entries_are_passed_over():
    text = "# a comment\n\nmemory/2026-01-01.md\nmemory/2026-01-01.md\tabc\n\tdef\n"
    assert retired.parse(text) == {"memory/2026-01-01.md\tabc": ("", "retired")}


def test_without_paths_keeps_the_others_and_the_same_text_when_none_go():
    a, b = (
        retired.mark("memory/2026-01-01.md", "x"),
        retired.mark("memory/2026-01-02.md", "y"),
    )
    text = retired.render(
        {a: ("2026-01-03T10:00", "retired"), b: ("2026-01-03T10:00", "retired")}
    )
    assert retired.without_paths(text, ["memory/2026-01-09.md"]) is text
    kept = retired.without_paths(text, ["memory/2026-01-01.md"])
    assert set(retired.parse(kept)) == {b}
    assert retired.without_paths(kept, ["memory/2026-01-02.md"]) == ""


def test_entry_text_is_what_recall_shows():
    assert retired.entry_text("10:00 a", ("  - b", "\tc ")) == "10:00 a - b c"
