"""Daily notes: which lines are entries, what an entry carries, and that no text
breaks the parser (see docs/design.md)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gardener.formats.dailynote import parse_note, split_front_matter
from gardener.formats.entryline import render_entry
from gardener.model.kinds import KIND_ALIASES, KINDS

DAY = date(2026, 1, 5)
PATH = "memory/2026-01-05.md"


def parse(text: str):
    return parse_note(PATH, DAY, text)


def texts(text: str) -> list[str]:
    return [e.text for e in parse(text).entries]


def only(text: str):
    """The one entry of a note that must hold exactly one."""
    entries = parse(text).entries
    assert len(entries) == 1, entries
    return entries[0]


# --- which lines are entries -------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "- a fact",
        "* a fact",
        "+ a fact",
        "1. a fact",
        "2) a fact",
        "10. a fact",
        " - a fact",  # one space of indent is still top level
        "   - a fact",  # up to three, when no entry is open
        "-\ta fact",
    ],
)
def test_top_level_list_items_are_entries(line):
    entry = only(line + "\n")
    assert entry.text == "a fact"
    assert entry.line == 1
    assert entry.path == PATH
    assert entry.day == DAY


@pytest.mark.parametrize(
    "line",
    [
        "-no space after the dash",
        "---",
        "#hashtag",
        "1.5 is a number",
        "prose - with a dash",
        "**bold** prose",
        "| - cell | b |",
        "    - four spaces is an indented code block",
        "\t- a tab too",
        "> - quoted",
    ],
)
def test_other_lines_are_not_entries(line):
    assert texts(line + "\n") == []


@pytest.mark.parametrize("indent", ["  ", "   ", "    ", "\t", "\t\t"])
def test_nested_items_belong_to_their_entry(indent):
    note = f"- parent\n{indent}- child\n{indent}{indent}- grandchild\n- sibling\n"
    parent, sibling = parse(note).entries
    assert parent.nested == (f"{indent}- child", f"{indent}{indent}- grandchild")
    assert parent.value == "parent"
    assert (sibling.text, sibling.line, sibling.nested) == ("sibling", 4, ())


def test_nested_items_after_a_blank_line_and_continuations_belong_to_the_entry():
    note = "- parent\n\n  - child after a blank line\n  wrapped continuation\n- next\n"
    parent, following = parse(note).entries
    assert parent.nested == ("  - child after a blank line", "  wrapped continuation")
    assert following.text == "next"


def test_an_unindented_line_after_a_blank_line_ends_the_entry():
    note = "- parent\n\nprose after the list\n  - indented, but the list has ended\n"
    entries = parse(note).entries
    assert [(e.text, e.nested) for e in entries] == [
        ("parent", ()),
        ("indented, but the list has ended", ()),
    ]


# --- hard-wrapped items ------------------------------------------------------


@pytest.mark.parametrize("indent", ["", "  ", "   ", "    ", "\t"])
def test_a_wrapped_line_goes_on_the_entry_text(indent):
    entry = only(f"- Mira prefers\n{indent}dark mode for the dashboard\n")
    assert entry.value == "Mira prefers dark mode for the dashboard"
    assert entry.text == entry.value
    assert (entry.line, entry.nested) == (1, ())


def test_a_wrapped_entry_keeps_its_time_kind_key_and_trailers():
    note = "- 10:20 decision: **database**:\n  SQLite for the\n  dashboard (source: chat)\n"
    entry = only(note)
    assert (entry.time, entry.kind, entry.key) == ("10:20", "decision", "database")
    assert (entry.value, entry.source) == ("SQLite for the dashboard", "chat")


def test_nested_items_after_a_wrapped_line_stay_nested():
    note = "- parent goes\n  on here\n  - child\n  child wrapped\n- next\n"
    parent, following = parse(note).entries
    assert parent.value == "parent goes on here"
    assert parent.nested == ("  - child", "  child wrapped")
    assert (following.text, following.line) == ("next", 5)


@pytest.mark.parametrize(
    "after",
    [
        "> a quote",
        "| a | table |",
        "<!-- html -->",
        "---",
        "* * *",
        "===",
        "1. an ordered item",
        "+ another item",
    ],
)
def test_a_block_that_interrupts_a_paragraph_is_not_a_wrapped_line(after):
    entry = parse(f"- the item\n{after}\n").entries[0]
    assert entry.value == "the item"


def test_after_a_blank_line_an_indented_line_is_nested_not_wrapped():
    entry = only("- the item\n\n  a paragraph of its own\n")
    assert (entry.value, entry.nested) == ("the item", ("  a paragraph of its own",))


def test_a_one_line_entry_keeps_its_ledger_mark():
    # promote's ledger names an entry by the digest of its text: the entries
    # of notes written before wrapped lines were read must keep theirs
    import hashlib

    from gardener.model.marks import entry_marks

    note = parse("- 10:20 decision: **db**: SQLite\n  - why: small\n- plain\n")
    digests = [
        hashlib.sha1(t.encode()).hexdigest()[:16]
        for t in ("10:20 decision: **db**: SQLite", "plain")
    ]
    assert entry_marks(note) == [f"{PATH}\t{d}" for d in digests]


# --- headings ----------------------------------------------------------------


def test_headings_give_the_nearest_heading_above():
    note = "\n".join(
        [
            "- before any heading",
            "# 2026-01-05",
            "- under the title",
            "## Decisions",
            "- a decision",
            "### Database",
            "- deeper",
            "## Log",
            "- a sibling section replaces the deeper one",
            "",
        ]
    )
    assert [(e.text, e.heading) for e in parse(note).entries] == [
        ("before any heading", None),
        ("under the title", "2026-01-05"),
        ("a decision", "Decisions"),
        ("deeper", "Database"),
        ("a sibling section replaces the deeper one", "Log"),
    ]


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("## Decisions", "Decisions"),
        ("##   Decisions   ", "Decisions"),
        ("## Decisions ##", "Decisions"),
        ("###### Six", "Six"),
        ("## C#", "C#"),  # a closing sequence needs a space before it
        ("  ## Indented", "Indented"),
    ],
)
def test_heading_text(heading, title):
    assert only(f"{heading}\n- x\n").heading == title


def test_a_heading_ends_the_entry_above_it():
    note = "- first\n## Later\n  - not nested under first\n"
    assert [(e.text, e.heading, e.nested) for e in parse(note).entries] == [
        ("first", None, ()),
        ("not nested under first", "Later", ()),
    ]


# --- code fences, tables, prose ---------------------------------------------


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        ("```\n- in code\n```\n- out\n", ["out"]),
        ("~~~\n- in code\n~~~\n- out\n", ["out"]),
        ("```python\n- in code\n```\n- out\n", ["out"]),
        # a fence closes only with its own character ...
        ("~~~\n```\n- in code\n~~~\n- out\n", ["out"]),
        # ... at least as long as it opened (regression: closed at the inner ```)
        ("````md\n```\n- in code\n```\n````\n- out\n", ["out"]),
        # ... and without an info string (regression: ```python closed the fence)
        ("```python\n- in\n```python\n- still in\n```\n- out\n", ["out"]),
        ("- before\n```\n- in code\n```\n- after\n", ["before", "after"]),
        ("```\n- a fence never closed hides the rest\n- of the file\n", []),
    ],
)
def test_list_items_inside_a_fence_are_not_entries(note, expected):
    assert texts(note) == expected


def test_a_fence_nested_in_an_entry_belongs_to_it():
    note = "- entry\n  ```\n  - not an entry\n  ```\n- next\n"
    entry, following = parse(note).entries
    assert entry.nested == ("  ```", "  - not an entry", "  ```")
    assert following.text == "next"


def test_tables_and_prose_are_not_entries():
    note = "\n".join(
        [
            "Some prose with - dashes - in it.",
            "",
            "| kind | value |",
            "|------|-------|",
            "| - x  | y     |",
            "",
            "> a quote",
            "- the only entry",
            "",
        ]
    )
    assert texts(note) == ["the only entry"]


# --- the entry syntax --------------------------------------------------------

FIELDS = ("time", "kind", "key", "value", "source", "by", "expires", "checkbox")


def fields(entry) -> dict[str, object]:
    return {name: getattr(entry, name) for name in FIELDS}


def expect(**given: object) -> dict[str, object]:
    base: dict[str, object] = {name: None for name in FIELDS}
    base["checkbox"] = False
    base.update(given)
    return base


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "- 09:30 decision: **database**: SQLite (source: standup) (by: mira) (expires: 2026-12-31)",
            expect(
                time="09:30",
                kind="decision",
                key="database",
                value="SQLite",
                source="standup",
                by="mira",
                expires="2026-12-31",
            ),
        ),
        ("- plain text", expect(value="plain text")),
        ("- 09:30 deployed", expect(time="09:30", value="deployed")),
        ("- 9:05 deployed", expect(time="09:05", value="deployed")),
        ("- 23:59 - late note", expect(time="23:59", value="late note")),
        ("- **14:00** fact: x", expect(time="14:00", kind="fact", value="x")),
        ("- 24:00 is not a time", expect(value="24:00 is not a time")),
        ("- fact: the sky is blue", expect(kind="fact", value="the sky is blue")),
        ("- **fact**: x", expect(kind="fact", value="x")),
        ("- note: not a kind", expect(value="note: not a kind")),
        ("- **database**: SQLite", expect(key="database", value="SQLite")),
        ("- **database:** SQLite", expect(key="database", value="SQLite")),
        ("- **Bold label**: text", expect(key="Bold label", value="text")),
        (
            "- v (source: the pricing sheet)",
            expect(value="v", source="the pricing sheet"),
        ),
        ("- v (Source:  doc )", expect(value="v", source="doc")),
        ("- v (by: bob)", expect(value="v", by="bob")),
        ("- v (expires: 2026-02-01)", expect(value="v", expires="2026-02-01")),
        ("- v (expires: soon)", expect(value="v")),  # not a date: dropped
        (
            "- v (expires: 2026-02-01) (source: s)",  # any order
            expect(value="v", source="s", expires="2026-02-01"),
        ),
        ("- see (source: x) later", expect(value="see (source: x) later")),
        ("- [ ] call the vendor", expect(value="call the vendor", checkbox=True)),
        ("- [x] done", expect(value="done", checkbox=True)),
        ("- [X] done", expect(value="done", checkbox=True)),
        (
            "- [ ] 10:00 todo: call",
            expect(time="10:00", kind="todo", value="call", checkbox=True),
        ),
    ],
)
def test_entry_syntax(line, expected):
    entry = only(line + "\n")
    assert fields(entry) == expected
    assert entry.text == line[2:]


@pytest.mark.parametrize(
    ("word", "kind"),
    [
        *[(k, k) for k in KINDS],
        ("pref", "preference"),
        ("now", "state"),
        ("PREF", "preference"),
        ("Now", "state"),
        ("Decision", "decision"),
        ("FACT", "fact"),
    ],
)
def test_kinds_and_their_aliases_are_case_insensitive(word, kind):
    assert only(f"- {word}: x\n").kind == kind


def test_by_defaults_to_the_notes_agent():
    note = "---\nagent: main\ntimezone: Europe/Berlin\n---\n- one\n- two (by: mira)\n"
    one, two = parse(note).entries
    assert (one.by, two.by) == ("main", "mira")
    assert one.timezone == "Europe/Berlin"
    assert parse("---\nby: helper\n---\n- x\n").entries[0].by == "helper"


# --- front matter ------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "name", "value"),
    [
        ("time: 10:00", "time", "10:00"),  # not 600 (YAML 1.1 sexagesimal)
        ("flag: no", "flag", "no"),  # not False
        ("zip: 0123", "zip", "0123"),  # not 83 or 123
        ("date: 2026-01-05", "date", "2026-01-05"),  # not a date
        ("ratio: 1.50", "ratio", "1.50"),
        ("nothing: null", "nothing", "null"),
        ("empty:", "empty", ""),
        ("list: [1, 2]", "list", ["1", "2"]),
    ],
)
def test_front_matter_values_stay_strings(line, name, value):
    note = parse(f"---\n{line}\n---\n- x\n")
    assert note.front[name] == value
    assert note.entries[0].line == 4


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        # not YAML at all: the file is read as if it had no front matter
        ("---\nkey: [unclosed\n---\n- a\n", [("a", 4)]),
        # YAML, but not a mapping: a body that opens with a --- rule
        ("---\n- a\n- b\n---\n- c\n", [("a", 2), ("b", 3), ("c", 5)]),
        # never closed
        ("---\n- a\n- b\n", [("a", 2), ("b", 3)]),
    ],
)
def test_an_invalid_front_matter_block_is_read_as_body(note, expected):
    parsed = parse(note)
    assert dict(parsed.front) == {}
    assert [(e.text, e.line) for e in parsed.entries] == expected


def test_front_matter_of_only_comments_is_empty_not_body():
    # regression: it was read as body, and "# a comment" became a heading
    note = parse("---\n# a comment\n---\n- a\n")
    assert dict(note.front) == {}
    assert [(e.text, e.line, e.heading) for e in note.entries] == [("a", 4, None)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("---\na: b\n---\nbody", ("a: b", 3)),
        ("---\na: b\n...\nbody", ("a: b", 3)),
        ("\ufeff---\na: b\n---\n", ("a: b", 3)),
        ("---\r\na: b\r\n---\r\n", ("a: b", 3)),
        ("---\n---\n", ("", 2)),
        ("body\n---\na: b\n---\n", (None, 0)),
        ("---\na: b\n", (None, 0)),
        ("", (None, 0)),
    ],
)
def test_split_front_matter(text, expected):
    assert split_front_matter(text) == expected


# --- odd files ---------------------------------------------------------------


def test_bom_crlf_and_no_final_newline():
    note = parse("\ufeff---\r\nagent: main\r\n---\r\n- a\r\n  - nested\r\n- b")
    assert note.front == {"agent": "main"}
    assert [(e.text, e.line, e.nested) for e in note.entries] == [
        ("a", 4, ("  - nested",)),
        ("b", 6, ()),
    ]


def test_bom_without_front_matter():
    assert [(e.text, e.line) for e in parse("\ufeff- a\n").entries] == [("a", 1)]


@pytest.mark.parametrize(
    "value",
    [
        "🌱 planted the garden 🌻",
        "中文条目：数据库用 SQLite",
        "日本語のメモ",
        "👩‍💻 zwj",
    ],
)
def test_emoji_and_cjk(value):
    assert only(f"## 見出し 🌱\n- {value}\n").value == value
    assert only(f"## 見出し 🌱\n- {value}\n").heading == "見出し 🌱"


@pytest.mark.parametrize(
    "line",
    [
        "- " + "x" * 100_000,
        "- " + "word " * 20_000,
        # runs of spaces once took quadratic or cubic time in the parser
        "- a" + " " * 100_000 + "(source: s)",
        "- a (source: s" + " " * 100_000 + "t)",
        "# a" + " " * 100_000 + "b\n- x",
    ],
    ids=["letters", "words", "spaces-before-trailer", "spaces-in-trailer", "heading"],
)
def test_a_100k_character_line(line):
    note = parse(line)  # once quadratic or cubic; timings live in bench/
    assert len(note.entries) == 1
    assert note.entries[0].text in line


@pytest.mark.parametrize("text", ["", "\n", "\r\n", "   \n\n", "\ufeff"])
def test_empty_files(text):
    note = parse(text)
    assert note.entries == ()
    assert dict(note.front) == {}


@pytest.mark.parametrize("text", ["---\nagent: main\n---\n", "---\nagent: main\n---"])
def test_a_file_that_is_only_front_matter(text):
    note = parse(text)
    assert note.front == {"agent": "main"}
    assert note.entries == ()


# --- render_entry, read back -------------------------------------------------


@pytest.mark.parametrize("key", ["state", "Now", "PREF", "todo", "fact"])
def test_a_key_named_like_a_kind_stays_a_key(key):
    entry = only(render_entry("x", key=key) + "\n")
    assert (entry.kind, entry.key, entry.value) == (None, key, "x")


# --- properties --------------------------------------------------------------

# printable (str.isprintable: the only space is " "), one line, no parentheses
# (they delimit trailers), and no '*' in names
_PRINTABLE = st.characters(
    whitelist_categories=("L", "M", "N", "P", "S"),
    whitelist_characters=" ",
    blacklist_characters="()",
)
_NAME = st.text(
    alphabet=st.characters(
        whitelist_categories=("L", "M", "N", "P", "S"),
        whitelist_characters=" ",
        blacklist_characters="()*",
    ),
    min_size=1,
    max_size=20,
).filter(str.strip)
_VALUE = st.text(alphabet=_PRINTABLE, min_size=1, max_size=60).filter(
    lambda v: v.strip() and "**" not in v
)
# A value that itself opens like a time, a kind or a checkbox reads as one
# when nothing precedes it: that is the syntax, not a round-trip failure.
_OPENS_LIKE_SYNTAX = re.compile(
    rf"^(?:[-–—:]|\[[ xX]\]|\d{{1,2}}:\d{{2}}|(?:{'|'.join([*KINDS, *KIND_ALIASES])})\s*:)",
    re.IGNORECASE,
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    value=_VALUE,
    time_of_day=st.none() | st.times().map(lambda t: f"{t.hour:02d}:{t.minute:02d}"),
    kind=st.none() | st.sampled_from([*KINDS, *KIND_ALIASES]),
    key=st.none() | _NAME,
    source=st.none() | _NAME,
    by=st.none() | _NAME,
    expires=st.none() | st.dates().map(date.isoformat),
)
def test_render_then_parse_round_trips(
    value, time_of_day, kind, key, source, by, expires
):
    assume(not _OPENS_LIKE_SYNTAX.match(value.strip()))
    line = render_entry(
        value,
        time=time_of_day,
        kind=kind,
        key=key,
        source=source,
        by=by,
        expires=expires,
    )
    entry = only(line + "\n")
    assert entry.value == value.strip()
    assert entry.time == time_of_day
    assert entry.kind == (KIND_ALIASES.get(kind, kind) if kind else None)
    assert entry.key == (key.strip() if key else None)
    assert entry.source == (source.strip() if source else None)
    assert entry.by == (by.strip() if by else None)
    assert entry.expires == expires


_FRAGMENTS = st.sampled_from(
    [
        "- ", "* ", "+ ", "1. ", "2) ", "  ", "    ", "\t", "# ", "## ", "###### ",
        "```", "````", "~~~", "---", "...", "\n", "\r\n", "\r", "**", "[ ] ", "[x] ",
        "(source: ", "(by: ", "(expires: ", "2026-01-05", ")", "09:30 ", "25:61 ",
        "fact: ", "pref: ", "now: ", "correction: ", "key", ": ", "|", "> ", "\ufeff",
        "x", "🌱", "中文", " ", "agent: a", "timezone: ", "{", "[", "&", "\x00",
    ]
)  # fmt: skip
_MARKDOWNISH = st.lists(_FRAGMENTS | st.text(max_size=6), max_size=80).map("".join)


def _check_entries_point_at_their_lines(text: str) -> None:
    note = parse(text)
    body = text[1:] if text.startswith("\ufeff") else text
    lines = body.split("\n")
    numbers = [e.line for e in note.entries]
    assert numbers == sorted(set(numbers))
    for entry in note.entries:
        assert 1 <= entry.line <= len(lines)
        # a hard-wrapped item's text goes on over the lines after its first
        assert entry.text in " ".join(x.strip() for x in lines[entry.line - 1 :])
        assert entry.kind is None or entry.kind in KINDS
        assert entry.time is None or re.fullmatch(r"\d\d:\d\d", entry.time)
        assert entry.expires is None or re.fullmatch(r"\d{4}-\d\d-\d\d", entry.expires)


@settings(max_examples=300)
@given(st.text())
def test_parse_never_raises_on_any_text(text):
    _check_entries_point_at_their_lines(text)


@settings(max_examples=500)
@given(_MARKDOWNISH)
def test_parse_never_raises_on_markdownish_text(text):
    _check_entries_point_at_their_lines(text)


_WORD = st.text(
    alphabet=st.characters(
        whitelist_categories=("L", "N", "P", "S"), blacklist_characters="()[]"
    ),
    min_size=1,
    max_size=8,
)
# a line may start with these and go on an item's text (not a list marker,
# quote, table, HTML, heading or fence)
_WRAPS_AT = re.compile(r"^[^\W_](?<!\d)|^\d+(?![.)\d])")


@settings(max_examples=300, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    words=st.lists(_WORD, min_size=1, max_size=12),
    time_of_day=st.none() | st.just("10:20"),
    kind=st.none() | st.sampled_from(["decision", "pref"]),
    key=st.none() | st.just("dashboard theme"),
    breaks=st.lists(st.integers(min_value=1, max_value=20), max_size=5),
    indent=st.sampled_from(["", " ", "  ", "    ", "\t"]),
)
def test_a_wrapped_item_reads_as_the_unwrapped_one(
    words, time_of_day, kind, key, breaks, indent
):
    value = " ".join(words)
    assume(not _OPENS_LIKE_SYNTAX.match(value))
    line = render_entry(value, time=time_of_day, kind=kind, key=key)
    tokens = line.split(" ")
    # break before a token that starts like prose, never before the first word
    cuts = sorted(
        {b for b in breaks if 1 < b < len(tokens) and _WRAPS_AT.match(tokens[b])}
    )
    pieces = [
        " ".join(tokens[a:b])
        for a, b in zip([0, *cuts], [*cuts, len(tokens)], strict=True)
    ]
    wrapped = "\n".join([pieces[0], *(indent + p for p in pieces[1:])])
    one, many = only(line + "\n"), only(wrapped + "\n")
    assert " ".join(many.value.split()) == " ".join(one.value.split())
    assert (many.time, many.kind, many.key) == (one.time, one.kind, one.key)
    assert (many.line, many.nested) == (1, ())
