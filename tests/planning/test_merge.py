"""The three-way merge of MEMORY.md's block: by entry id, supersession chains
ordered again by valid time, conflicts only for an entry changed differently."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.formats.memoryfile import BEGIN, END, render_block
from gardener.model.facts import Fact
from gardener.planning.merge import BlockMerge, merge_facts

POSTGRES = Fact("Postgres", "database", "ma1", "Decisions",
                {"since": "2026-01-12T10:15", "from": "memory/2026-01-12.md"})  # fmt: skip


def file(*lines: str, head: str = "# Memory\n\n", tail: str = "") -> str:
    return head + "\n".join([BEGIN, *lines, END]) + "\n" + tail


def superseded(old: Fact, new: Fact) -> tuple[Fact, Fact]:
    """``old`` superseded by ``new``, as promote writes them."""
    since = new.since or ""
    gone = old.moved(
        "Superseded", True, until=since, superseded_by=new.id, kind=old.kind
    )
    return gone, new.with_attrs(supersedes=old.id)


def value(name: str, ident: str, since: str, key: str = "database") -> Fact:
    return Fact(name, key, ident, "Decisions", {"since": since})


def block(merged: BlockMerge) -> list[str]:
    return render_block(merged.facts, merged.stray)


def test_two_sides_that_each_superseded_one_value_make_one_timeline():
    sqlite = value("SQLite", "mb2", "2026-01-16T16:40")
    mysql = value("MySQL", "mc3", "2026-01-20T09:00")
    ours = superseded(POSTGRES, sqlite)
    theirs = superseded(POSTGRES, mysql)
    for a, b in ((ours, theirs), (theirs, ours)):
        merged = merge_facts([POSTGRES], a, b)
        assert not merged.conflicts
        assert block(merged) == [
            "## Decisions",
            "- **database**: MySQL {#mc3 since=2026-01-20T09:00 supersedes=mb2}",
            "",
            "## Superseded",
            "- ~~**database**: Postgres~~ {#ma1 since=2026-01-12T10:15"
            " until=2026-01-16T16:40 from=memory/2026-01-12.md superseded-by=mb2"
            " kind=decision}",
            "- ~~**database**: SQLite~~ {#mb2 since=2026-01-16T16:40"
            " until=2026-01-20T09:00 supersedes=ma1 superseded-by=mc3 kind=decision}",
        ]


def test_two_current_values_added_on_both_sides_keep_the_later_one_current():
    a = [value("Postgres", "ma1", "2026-01-12T10:15")]
    b = [value("SQLite", "mb2", "2026-01-16T16:40")]
    merged = merge_facts([], a, b)
    current = [f.value for f in merged.facts if not f.superseded]
    assert current == ["SQLite"]


def test_a_multi_valued_key_keeps_both_values():
    a = [value("Ana", "ma1", "2026-01-12", "team / member")]
    b = [value("Bo", "mb2", "2026-01-16", "team / member")]
    merged = merge_facts([], a, b, multi=lambda key: key.endswith("member"))
    assert sorted(f.value for f in merged.facts if not f.superseded) == ["Ana", "Bo"]


def test_an_edit_on_one_side_wins_and_a_removal_goes():
    editor = value("vim", "md4", "2026-01-10", "editor")
    shell = value("zsh", "me5", "2026-01-10", "shell")
    edited = Fact("neovim", "editor", "md4", "Decisions", {"since": "2026-01-10"})
    merged = merge_facts([editor, shell], [edited, shell], [editor])
    assert [f.value for f in merged.facts] == ["neovim"]


def test_one_id_for_two_different_entries_gives_theirs_a_new_one():
    a = [value("vim", "mabcde", "2026-01-10", "editor")]
    b = [value("zsh", "mabcde", "2026-01-11", "shell"),
         value("x", "mf", "2026-01-12", "shell").with_attrs(supersedes="mabcde")]  # fmt: skip
    merged = merge_facts([], a, b)
    ids = [f.id for f in merged.facts]
    assert len(set(ids)) == 3 and "mabcde" in ids
    new = dict(merged.renamed)["mabcde"]
    assert {f.value: f.id for f in merged.facts}["zsh"] == new
    assert all(
        f.get("supersedes") != "mabcde" for f in merged.facts if f.value != "vim"
    )


def test_one_entry_filed_under_two_ids_is_kept_once():
    a = [Fact("vim", "editor", "md4", "Facts", {"since": "2026-01-10", "from": "n"})]
    b = [Fact("vim", "editor", "md4a", "Facts", {"since": "2026-01-10", "from": "n"})]
    merged = merge_facts([], a, b)
    assert [f.id for f in merged.facts] == ["md4"]


# -- properties ------------------------------------------------------------------

KEYS = ["database", "editor", "theme"]
VALUES = ["Postgres", "SQLite", "MySQL", "vim", "dark"]


@st.composite
def sides(draw: st.DrawFn) -> tuple[list[Fact], list[Fact], list[Fact]]:
    """A base and two sides made from it by adds (a supersession when the key
    has a current value), edits and removals; each side mints its own ids."""
    base: list[Fact] = []
    for n, key in enumerate(
        draw(st.lists(st.sampled_from(KEYS), max_size=3, unique=True))
    ):
        base.append(
            value(draw(st.sampled_from(VALUES)), f"mo{n}", f"2026-01-0{n + 1}", key)
        )
    out = [base]
    for side in "ab":
        facts = list(base)
        for n in range(draw(st.integers(0, 4))):
            op = draw(st.sampled_from(["add", "edit", "remove"]))
            if op == "add":
                key = draw(st.sampled_from(KEYS))
                day = draw(st.integers(10, 28))
                new = value(
                    draw(st.sampled_from(VALUES)), f"m{side}{n}", f"2026-01-{day}", key
                )
                now = [
                    i for i, f in enumerate(facts) if f.key == key and not f.superseded
                ]
                if now and (facts[now[0]].since or "") >= (new.since or ""):
                    continue
                if now:
                    facts[now[0]], new = superseded(facts[now[0]], new)
                facts.append(new)
            elif facts:
                at = draw(st.integers(0, len(facts) - 1))
                if op == "remove":
                    facts.pop(at)
                else:
                    old = facts[at]
                    facts[at] = Fact(draw(st.sampled_from(VALUES)) + "!", old.key, old.id,
                                     old.section, old.attrs, old.struck)  # fmt: skip
        out.append(facts)
    return out[0], out[1], out[2]


@settings(max_examples=150, deadline=None)
@given(sides())
def test_merging_a_side_with_itself_or_with_the_base_gives_that_side(three):
    o, a, b = three
    assert render_block(merge_facts(o, a, a).facts) == render_block(a)
    assert render_block(merge_facts(o, o, b).facts) == render_block(b)
    assert render_block(merge_facts(o, a, o).facts) == render_block(a)


@settings(max_examples=150, deadline=None)
@given(sides())
def test_the_merge_is_symmetric_up_to_conflicts(three):
    o, a, b = three
    ab, ba = merge_facts(o, a, b), merge_facts(o, b, a)
    assert len(ab.conflicts) == len(ba.conflicts)
    if not ab.conflicts:
        assert render_block(ab.facts) == render_block(ba.facts)
        ids = [f.id for f in ab.facts]
        assert len(ids) == len(set(ids))


def test_a_link_to_an_entry_one_side_removed_goes_in_either_order():
    """Hypothesis found it: ours superseded #mo0 by #ma0, theirs removed #mo0
    and added the same value as #mb0 (kept once, as #ma0); the link to #mo0
    went in one merge order and stayed in the other."""
    base = [Fact("Postgres", "database", "mo0", "Decisions", {"since": "2026-01-01"})]
    ours = [
        Fact("Postgres", "database", "mo0", "Superseded",
             {"since": "2026-01-01", "until": "2026-01-10", "superseded-by": "ma0",
              "kind": "decision"}, True),
        Fact("Postgres", "database", "ma0", "Decisions",
             {"since": "2026-01-10", "supersedes": "mo0"}),
    ]  # fmt: skip
    theirs = [
        Fact("Postgres", "database", "mb0", "Decisions",
             {"since": "2026-01-10", "supersedes": "mo0"}),
    ]  # fmt: skip
    ab, ba = merge_facts(base, ours, theirs), merge_facts(base, theirs, ours)
    assert render_block(ab.facts) == render_block(ba.facts)
