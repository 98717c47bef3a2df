"""Near changes: a durable entry that reads as a change and shares words with
a current fact the rules did not tie it to waits for the judge, who may say
it replaces that fact (docs/design.md, The judge: near changes)."""

from __future__ import annotations

import pytest

from gardener import Workspace
from gardener.model.facts import Fact
from gardener.planning.nearchange import FactIndex, stems
from tests.helpers import write

DAY1 = "# Models\n- Kimi: main reasoning\n- GPT-4o: complex programming (fallback)\n"
DAY2 = (
    "## Switched to Ollama as primary model\n- Fallback: kimi-k2.5 (if local fails)\n"
)


def _near(ws: Workspace) -> list[dict[str, object]]:
    return [i for i in ws.review().items if "reads as a change" in str(i["why"])]


@pytest.mark.now("2026-05-09T12:00")
def test_a_change_under_a_changing_heading_asks_which_fact_it_replaces(ws: Workspace):
    write(ws, "2026-05-04.md", DAY1)
    ws.promote()
    write(ws, "2026-05-08.md", DAY2)
    ws.promote()
    items = _near(ws)
    assert len(items) == 1, ws.review().items
    old = next(f for f in ws.read_memory().facts if "fallback" in f.value)
    # the tie between the two shared facts goes to the one naming its label
    assert f"shares words with {old.id}" in str(items[0]["why"])
    done = ws.decide(
        [
            {
                "id": items[0]["id"],
                "verdict": "durable",
                "kind": "fact",
                "replaces": old.id,
            }
        ],  # fmt: skip
        by="test",
    )
    assert done.applied
    facts = ws.read_memory().facts
    current = [f.value for f in facts if not f.superseded]
    assert any("kimi-k2.5" in v for v in current)
    assert not any("complex programming" in v for v in current)
    gone = next(f for f in facts if "complex programming" in f.value)
    assert gone.until == "2026-05-08"


@pytest.mark.now("2026-05-09T12:00")
@pytest.mark.parametrize(
    "day2",
    [
        # no mark of change: the rules' add stands
        "## Notes\n- Fallback model stays GPT-4o for complex programming\n",
        # a pipeline of arrows is no change of a value
        "- Loop for complex programming: Plan → Execute → Verify → fallback\n",
        # a file or command named in passing
        "- new fallback for complex programming in `router.py`\n",
        # a question asks, it changes nothing
        "- switch the fallback for complex programming to Kimi?\n",
    ],
)
def test_what_does_not_read_as_a_change_is_not_asked(ws: Workspace, day2: str):
    write(ws, "2026-05-04.md", DAY1)
    ws.promote()
    write(ws, "2026-05-08.md", day2)
    ws.promote()
    assert _near(ws) == []


@pytest.mark.now("2026-05-09T12:00")
def test_a_key_with_a_current_value_is_settled_by_the_table(ws: Workspace):
    write(ws, "2026-05-04.md", "- **Fallback model**: GPT-4o for complex programming\n")
    ws.promote()
    write(
        ws,
        "2026-05-08.md",
        "- **Fallback model**: switched to Kimi for complex programming\n",
    )
    ws.promote()
    assert _near(ws) == []
    current = [f.value for f in ws.read_memory().facts if not f.superseded]
    assert any("Kimi" in v for v in current) and not any("GPT-4o" in v for v in current)


def test_stems_fold_inflections_and_split_cjk_runs():
    assert stems("Updates updated") == {"updat"}
    assert stems("数据库迁移") == {"数据", "据库", "库迁", "迁移"}
    assert stems("a 42 of to") == frozenset()


def test_the_index_skips_superseded_and_events_and_grows():
    facts = [
        Fact("daily standup at 09:30", id="a", attrs={"since": "2026-05-01"}),
        Fact("old standup time", id="b", section="Superseded"),
        Fact("shipped standup bot", id="c", section="Events"),
    ]
    index = FactIndex()
    index.grow(facts)
    assert set(index.words) == {0}
    facts.append(Fact("standup moved online", id="d"))
    index.grow(facts)
    assert index.by_stem["stand"] == [0, 3]
