"""MEMORY.md: parse/render round-trips, hand edits, markers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.errors import ParseError
from gardener.formats.memoryfile import (
    BEGIN,
    END,
    NEW_FILE,
    parse_fact,
    parse_memory,
    render_fact,
    render_memory,
)
from gardener.model.facts import Fact
from gardener.model.kinds import SUPERSEDED

CANONICAL = f"""# Memory

Text a person wrote, kept as it is.

{BEGIN}
## Identity
- **name**: Sam {{#m3f9c since=2026-01-12 from=memory/2026-01-12.md by=main}}

## Decisions
- **database**: SQLite {{#m77d0 since=2026-06-26 from=memory/2026-06-26.md supersedes=m5e21}}

## Superseded
- ~~**database**: Postgres~~ {{#m5e21 since=2026-06-22 until=2026-06-26 superseded-by=m77d0}}
{END}

## My own section
- kept byte for byte
"""


def test_canonical_file_round_trips():
    memory = parse_memory(CANONICAL)
    assert render_memory(memory) == CANONICAL
    assert [f.key for f in memory.facts] == ["name", "database", "database"]
    assert memory.facts[2].superseded and memory.facts[2].struck
    assert memory.facts[1].line == 10


def test_crlf_and_text_outside_block_are_kept():
    text = CANONICAL.replace("\n", "\r\n")
    memory = parse_memory(text)
    assert memory.newline == "\r\n"
    assert render_memory(memory) == text


def test_hand_written_lines_parse_tolerantly():
    text = f"{BEGIN}\n## Facts\n- plain line without attributes\n- **key**: value\n  - a nested note\nsome prose\n{END}\n"
    memory = parse_memory(text)
    assert [f.value for f in memory.facts] == ["plain line without attributes", "value"]
    assert memory.facts[1].tail == ("  - a nested note",)
    assert memory.stray == (("Facts", "some prose"),)
    rendered = render_memory(memory)
    for line in ("plain line without attributes", "  - a nested note", "some prose"):
        assert line in rendered


def test_begin_without_end_is_an_error_with_a_line():
    with pytest.raises(ParseError) as info:
        parse_memory(f"# Memory\n\n{BEGIN}\n- x\n")
    assert info.value.line == 3


def test_file_without_block_gets_one_appended():
    memory = parse_memory("# Notes by hand\nno final newline")
    out = render_memory(
        memory,
        [
            Fact(
                value="v",
                key="k",
                id="m1",
                section="Facts",
                attrs={"since": "2026-01-01"},
            )
        ],
    )
    assert out.startswith("# Notes by hand\nno final newline\n\n")
    assert "- **k**: v {#m1 since=2026-01-01}" in out


def test_attribute_values_with_spaces_are_quoted():
    fact = Fact(value="x", key="k", id="m1", attrs={"source": 'pricing sheet "v2"'})
    line = render_fact(fact)
    assert line == '- **k**: x {#m1 source="pricing sheet \\"v2\\""}'
    back = parse_memory(f"{BEGIN}\n## Facts\n{line}\n{END}\n").facts[0]
    assert back.attrs["source"] == 'pricing sheet "v2"'


_text = (
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc")),
        min_size=1,
        max_size=30,
    )
    .map(lambda s: " ".join(s.split()))
    .filter(
        lambda s: (
            s
            and "**" not in s
            and "~~" not in s
            and "{" not in s
            and "}" not in s
            and not s.startswith(("#", "-", "*", "+", "<!--"))
        )
    )
)
_date = st.dates().map(lambda d: d.isoformat())
_fact = st.builds(
    lambda key, value, ident, since, section: Fact(
        value=value,
        key=key,
        id=ident,
        section=section,
        attrs={"since": since, **({"until": since} if section == SUPERSEDED else {})},
        struck=section == SUPERSEDED,
    ),
    key=st.one_of(st.none(), _text.filter(lambda s: ":" not in s)),
    value=_text,
    ident=st.from_regex(r"m[0-9a-f]{5}", fullmatch=True),
    since=_date,
    section=st.sampled_from(
        ["Identity", "Preferences", "Decisions", "Facts", SUPERSEDED]
    ),
)


@settings(max_examples=200)
@given(
    st.lists(_fact, max_size=12),
    st.text(max_size=80).filter(lambda s: "gardener:" not in s),
    st.text(max_size=80).filter(lambda s: "gardener:" not in s),
)
def test_render_parse_render_is_byte_exact(facts, head, tail):
    base = parse_memory(
        head.replace("\r", "")
        + ("\n" if head and not head.endswith("\n") else "")
        + BEGIN
        + "\n"
        + END
        + "\n"
        + tail
    )
    once = render_memory(base, facts)
    again = render_memory(parse_memory(once))
    assert again == once
    assert once.startswith(base.head) and once.endswith(tail)


@given(st.text(max_size=400))
def test_parse_never_raises_anything_but_parse_error(text):
    try:
        memory = parse_memory(text)
    except ParseError:
        return
    if not memory.has_block:
        assert (
            render_memory(memory, memory.facts).startswith(memory.head.rstrip("\n"))
            or memory.head == ""
        )


def test_new_file_is_canonical():
    assert render_memory(parse_memory(NEW_FILE)) == NEW_FILE


def _reference_attributes(body: str) -> tuple[str | None, dict[str, str], str]:
    """parse_fact's attribute split by the regex alone (what the fast path must equal)."""
    from gardener.formats.memoryfile import ATTRS, parse_attributes

    found = ATTRS.search(body)
    if not found:
        return None, {}, body
    ident, attrs = parse_attributes(body[found.start() :])
    return ident, attrs, body[: found.start()].rstrip()


@pytest.mark.parametrize(
    "body",
    [
        "v {#m1 since=2026-01-01 from=memory/2026-01-01.md}",
        "v {#m1 a_b-c=x=y}",
        "v { #m1}",
        "v {#}",
        "v {=x}",
        "v {a=}",
        "v {é=1 ·=2}",
        "v {a.b=1}",
        'v {#m1 reason="two words"}',
        "v {x} {#m1}",
        "v {#m1 a=b} {#m2}",
        "v {#m1 a=b }",
        "v {#m1\u00a0a=b}",
        "v {#m1 a=b\\c}",
        "{#m1}",
        "v }",
    ],
)
def test_plain_attributes_read_as_the_regex_reads_them(body: str):
    fact = parse_fact(f"- {body}", "Facts")
    assert fact is not None
    ident, attrs, rest = _reference_attributes(body)
    assert (fact.id, dict(fact.attrs), fact.value) == (ident, attrs, rest.strip())
