"""Slot changes: a sentence that restates a current fact with one place
changed replaces it when it says so ("now") or when the place is a quantity;
otherwise it only asks the judge (docs/design.md, "Changes and removals")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gardener import Workspace
from gardener.lexicon.words import lexicon
from gardener.model.facts import Fact
from gardener.planning.slotchange import SlotReader, slot_change
from tests.helpers import write

WORDS = lexicon()


@pytest.mark.parametrize(
    ("old", "new", "slot"),
    [
        ("PRs should stay under 400 lines", "PRs should stay under 250 lines now",
         ("400", "250", True, True)),
        ("Dana prefers status updates on Mondays", "Dana: prefers status updates on Fridays",
         ("mondays", "fridays", False, True)),
        ("Kiesel bevorzugt schwarzen Tee am Morgen", "Kiesel bevorzugt jetzt grünen Tee am Morgen",
         ("schwarzen", "grünen", True, False)),
        ("Mira likes green tea in the afternoon", "Mira likes mint tea in the afternoon",
         ("green", "mint", False, False)),
        ("周报每周一发给团队", "周报每周五发给团队", ("一", "五", False, True)),
    ],
)  # fmt: skip
def test_one_place_changed_is_a_slot(old, new, slot):
    found = slot_change(new, old, WORDS)
    assert found is not None
    assert (found.old, found.new, found.marked, found.measured) == slot


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("We use Postgres", "We use Postgres"),  # a repeat has no slot
        ("Sam likes tea", "Mira hates coffee"),  # no frame
        (
            "Deploys go out on Tuesdays after lunch",
            "Standups are on Tuesdays after the review",
        ),
        ("the staging host is in Frankfurt", "prefers dark mode everywhere"),
    ],
)
def test_no_slot_without_a_frame(old, new):
    assert slot_change(new, old, WORDS) is None


_word = st.text(alphabet="abcdefghij", min_size=1, max_size=6)


@given(st.lists(_word, min_size=1, max_size=12))
def test_a_sentence_never_changes_itself(words):
    text = " ".join(words)
    assert slot_change(text, text, WORDS) is None


@given(st.lists(_word, min_size=4, max_size=10), st.data())
def test_one_number_swapped_for_another_is_measured(words, data):
    at = data.draw(st.integers(0, len(words) - 1))
    old = [*words[:at], "12", *words[at + 1 :]]
    new = [*words[:at], "34", *words[at + 1 :]]
    found = slot_change(" ".join(new), " ".join(old), WORDS)
    assert (
        found is not None and found.measured and (found.old, found.new) == ("12", "34")
    )
    worded = slot_change(" ".join(new), " ".join(words), WORDS)
    assert worded is not None and not worded.measured  # a word for a number


def test_the_reader_skips_superseded_and_prefers_a_replaceable_fact():
    facts = [
        Fact("PRs should stay under 400 lines", id="a", section="Decisions",
             attrs={"since": "2026-05-01"}),
        Fact("PRs should stay under 300 lines", id="b", section="Decisions",
             attrs={"since": "2026-04-01", "until": "2026-05-01"}, struck=True),
    ]  # fmt: skip
    reader = SlotReader(facts, "2026-05-09", WORDS)
    found = reader.find("PRs should stay under 250 lines")
    assert found is not None and found[0].id == "a"
    # a fact filed later in the same pass is found too
    facts.append(
        Fact("Nightly backups run at 02:00", id="c", attrs={"since": "2026-05-02"})
    )
    found = reader.find("Nightly backups run at 03:30")
    assert found is not None and found[0].id == "c" and found[1].measured


@pytest.mark.now("2026-05-09T12:00")
def test_an_unmarked_swap_waits_for_the_judge_and_says_near(ws: Workspace):
    write(ws, "2026-05-04.md", "- Mira really likes green tea in the afternoon\n")
    ws.promote()
    write(ws, "2026-05-08.md", "- Mira really likes mint tea in the afternoon\n")
    queue = ws.review()
    whys = [str(item["why"]) for item in queue.items]
    assert any(w.startswith("near:") and "'green' as 'mint'" in w for w in whys), whys
