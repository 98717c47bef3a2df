"""A note's dated title says nothing about the kind of what is under it."""

from gardener.lexicon.words import lexicon
from gardener.planning.headings import read_headings

WORDS = lexicon(("en", "zh", "ja", "de", "fr", "es", "ru"))


def test_dated_title_is_not_a_log_section() -> None:
    path = ("2026-02-11 - Voice, trust & models", "Link checking protocol")
    assert read_headings(path, {}, WORDS) == (None, "Link checking protocol", False)


def test_dated_title_naming_a_log_still_is_one() -> None:
    assert read_headings(("2026-02-01 Daily log",), {}, WORDS)[0] == "event"


def test_a_deeper_dated_heading_is_a_log_section() -> None:
    path = ("Project notes", "2026-02-11 deploy to staging")
    assert read_headings(path, {}, WORDS)[0] == "event"


def test_a_timed_title_is_a_log_section() -> None:
    assert read_headings(("2026-02-11 14:30 heartbeat run",), {}, WORDS)[0] == "event"


def test_the_first_heading_word_decides_whichever_list_holds_it() -> None:
    # rules.md lists "now" as a state heading word; the lexicon's "lessons" comes first
    extra = {"state": ("now", "status")}
    path = ("Render session", "Key lessons (now in the skill file)")
    assert read_headings(path, extra, WORDS)[0] == "fact"
    assert read_headings(("Status now",), extra, WORDS)[0] == "state"


def test_a_generic_heading_names_no_subject() -> None:
    # "## Notes" / "- **Team lead:** Priya" is ``Team lead``, not ``Notes / Team lead``
    for heading in ("Notes", "Misc", "Notizen", "其他"):
        assert read_headings(("2026-03-05", heading), {}, WORDS)[1] is None
    assert read_headings(("Staging",), {}, WORDS)[1] == "Staging"


def test_japanese_learnings_heading() -> None:
    assert read_headings(("2026-03-05", "学んだこと"), {}, WORDS)[0] == "fact"
