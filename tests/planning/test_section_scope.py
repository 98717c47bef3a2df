"""A subject heading inside a named section is that section's: two projects'
"### Approved image" are two subjects, so their label keys never meet."""

from gardener.lexicon.words import lexicon
from gardener.planning.headings import read_headings

WORDS = lexicon(("en", "zh", "ja", "de", "fr", "es", "ru"))
TITLE = "Memory — March 19, 2026"


def subject(*path: str) -> str | None:
    return read_headings((TITLE, *path), {}, WORDS)[1]


def test_a_named_section_scopes_the_subject_below_it() -> None:
    assert (
        subject("Project Alpha", "Approved image") == "Project Alpha / Approved image"
    )


def test_the_name_ends_before_a_status_or_a_date() -> None:
    # the same project in two notes, told with another status: one subject
    a = subject("Lofi Video 2 — Image approved (2026-03-22)", "Approved image")
    b = subject("Lofi Video 2 — Animation progress", "Approved image")
    c = subject("Lofi Video 2: in progress", "Approved image")
    assert a == b == c == "Lofi Video 2 / Approved image"
    assert subject("Lofi Animation v2 — In progress", "Approved image") != a


def test_a_kind_a_session_or_a_generic_section_names_nothing() -> None:
    for outer in ("Decisions", "Session 3", "Notes", "2026-03-19", "14:30 heartbeat"):
        assert subject(outer, "Staging") == "Staging", outer


def test_the_note_title_never_scopes() -> None:
    assert read_headings(("Project notes", "Staging"), {}, WORDS)[1] == "Staging"
    assert read_headings(("Staging",), {}, WORDS)[1] == "Staging"


def test_two_projects_label_bullets_are_two_keys() -> None:
    from datetime import date

    from gardener.formats.dailynote import parse_note
    from gardener.planning.classify import classify
    from gardener.store.settings import default_config

    def key(project: str) -> str | None:
        text = f"# 2026-03-19\n## {project}\n### Approved image\n- Scene: a meadow\n"
        (only,) = parse_note("memory/2026-03-19.md", date(2026, 3, 19), text).entries
        return classify(only, default_config()).key

    assert (
        key("Project Alpha — In progress") == "Project Alpha / Approved image / Scene"
    )
    assert key("Project Alpha") != key("Project Beta")


def test_a_clock_time_heading_names_no_subject() -> None:
    # `gardener note` writes "## 13:00" above an entry under a kind heading: a
    # new user's "**Python version:** 3.12" was keyed "13:00 / Python / version"
    assert read_headings(("2026-03-04", "13:00"), {}, WORDS)[1] is None
    assert read_headings(("2026-03-04", "Staging", "13:00"), {}, WORDS)[1] == "Staging"
    assert read_headings(("2026-03-04", "Entscheidungen", "13:00"), {}, WORDS) == (
        "decision",
        None,
        False,
    )
