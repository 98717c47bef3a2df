"""MEMORY.md's text merged around the block, conflict markers only around a
conflicting entry; set-like files merged as sets."""

from __future__ import annotations

from hypothesis import given, settings

from gardener.formats.memoryfile import parse_memory, render_block
from gardener.git.mergefile import merge_file
from gardener.planning.merge import merge_facts
from gardener.planning.mergetext import merge_lines, merge_memory
from tests.planning.test_merge import file, sides


def test_different_edits_of_one_entry_are_a_conflict_with_markers_around_it():
    o = file("## Facts", "- **editor**: vim {#md4}", "- **shell**: zsh {#me5}")
    a = o.replace("vim", "neovim")
    b = o.replace("vim", "helix")
    done = merge_memory(o, a, b, merge_file)
    assert [c.shown.id for c in done.conflicts] == ["md4"]
    assert done.text == file(
        "## Facts",
        "<<<<<<< ours",
        "- **editor**: neovim {#md4}",
        "=======",
        "- **editor**: helix {#md4}",
        ">>>>>>> theirs",
        "- **shell**: zsh {#me5}",
    )


def test_an_entry_edited_on_one_side_and_removed_on_the_other_is_a_conflict():
    o = file("## Facts", "- **editor**: vim {#md4}")
    done = merge_memory(o, o.replace("vim", "neovim"), file("## Facts"), merge_file)
    assert len(done.conflicts) == 1 and "=======\n>>>>>>> theirs" in done.text


def test_text_outside_the_block_merges_line_by_line():
    o = file("## Facts", "- a {#m1}", head="# Memory\n\nintro\n", tail="\nbye\n")
    a = o.replace("intro", "intro, edited")
    b = o.replace("bye", "goodbye").replace("- a {#m1}", "- a {#m1}\n- b {#m2}")
    done = merge_memory(o, a, b, merge_file)
    assert done.clean
    assert done.text == file("## Facts", "- a {#m1}", "- b {#m2}",
                             head="# Memory\n\nintro, edited\n", tail="\ngoodbye\n")  # fmt: skip


def test_set_like_files_merge_as_sets():
    o = "a\tx\nb\tx\n"
    assert merge_lines(o, "a\tx\nb\tx\nc\tx\n", "b\tx\nd\tx\n") == "b\tx\nc\tx\nd\tx\n"


@settings(max_examples=100, deadline=None)
@given(sides())
def test_the_merged_file_parses_back_to_the_merged_facts(three):
    o, a, b = (file(*render_block(side)) for side in three)
    done = merge_memory(o, a, b, merge_file)
    if done.clean:
        again = parse_memory(done.text)
        assert render_block(again.facts) == render_block(
            merge_facts(*(parse_memory(t).facts for t in (o, a, b))).facts
        )
