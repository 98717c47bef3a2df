"""One day's note merged from two machines: one front matter, both bodies."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gardener.planning.notemerge import merge_front, merge_note, split_note


def union(base: str, ours: str, theirs: str) -> str:
    """A stand-in for git's union: ours' lines, then theirs' that ours lacks."""
    lines = ours.splitlines(True)
    return "".join(lines + [x for x in theirs.splitlines(True) if x not in lines])


def test_theirs_keys_ours_lacks_are_kept_ours_win_the_rest() -> None:
    ours = "---\nagent: atlas\n---\n# d\n\n- a\n"
    theirs = "---\nagent: hermes\ntimezone: Europe/Oslo\n---\n# d\n\n- b\n"
    merged = merge_note("", ours, theirs, union)
    assert merged == "---\nagent: atlas\ntimezone: Europe/Oslo\n---\n# d\n\n- a\n- b\n"


def test_a_note_without_front_matter_is_a_plain_union() -> None:
    assert merge_note("", "- a\n", "- b\n", union) == "- a\n- b\n"
    # theirs opened one: it is the note's
    merged = merge_note("", "- a\n", "---\nagent: x\n---\n- b\n", union)
    assert merged == "---\nagent: x\n---\n- a\n- b\n"


_KEYS = st.sampled_from(["agent", "timezone", "recorded", "tags"])
_FRONT = st.lists(st.tuples(_KEYS, st.text("abc", max_size=3)), max_size=4)


@given(_FRONT, _FRONT)
def test_one_front_matter_whatever_both_sides_hold(a, b) -> None:
    ours = "---\n" + "".join(f"{k}: {v}\n" for k, v in a) + "---\n- x\n"
    theirs = "---\n" + "".join(f"{k}: {v}\n" for k, v in b) + "---\n- y\n"
    merged = merge_note("", ours, theirs, union)
    front, body = split_note(merged)
    assert front is not None and body == "- x\n- y\n"
    assert front == merge_front(split_note(ours)[0], split_note(theirs)[0])
    assert all(line in front for line in split_note(ours)[0] or [])
