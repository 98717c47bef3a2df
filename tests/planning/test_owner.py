"""A person's own tool: "Mira uses Vim as her editor" is Mira's editor, in
every language the lexicon's purpose frames hold."""

from __future__ import annotations

import pytest

from gardener.planning.keying import owner
from tests.planning.test_status_lines import one


@pytest.mark.parametrize(
    ("text", "who"),
    [("Mira uses Vim as her editor", "Mira"), ("Sam nutzt Firefox als Browser", "Sam"),
     ("Léa utilise Vim comme éditeur", "Léa"), ("Иван использует Vim как редактор", "Иван"),
     ("We use Redis as our cache", None), ("He uses Vim", None), ("Mira likes Vim", None)],
)  # fmt: skip
def test_the_owner_is_a_name_before_a_verb_of_use(text, who):
    assert owner(text) == who


@pytest.mark.parametrize(
    ("line", "key", "value"),
    [("- Mira uses Vim as her editor", "Mira / editor", "Vim"),
     ("- Mira uses Helix as her editor now", "Mira / editor", "Helix"),
     ("- Sam nutzt Firefox als Browser", "Sam / Browser", "Firefox"),
     ("- He uses Vim as his editor", "editor", "Vim")],
)  # fmt: skip
def test_a_tool_used_as_a_role_is_keyed_by_the_role(line, key, value):
    c = one(line)
    assert (c.durable, c.key, c.value) == (True, key, value)
