"""``judge: llm``: promote sends the pending entries to a model through the
``llm`` library (the deterministic test models of tests/judge/models.py,
registered through llm's plugin hook) and files its answers as ``decide``."""

from __future__ import annotations

from pathlib import Path

from gardener import Workspace
from tests.helpers import git, new_workspace, values, write
from tests.judge.models import Plugin

NOTE = """# 2026-02-20

## Misc
- Sam is vegetarian
- the hallway lamp flickers
"""


def workspace(tmp_path: Path, model: str, more: str = "") -> Workspace:
    ws = new_workspace(tmp_path, "2026-03-01T18:00")
    (ws.root / "rules.md").write_text(
        f"---\njudge: llm\njudge_model: {model}\n{more}---\n# Notes\nKeep what lasts.\n",
        encoding="utf-8",
    )
    return Workspace(ws.root, now_override="2026-03-01T18:00")


def test_promote_asks_the_model_and_files_its_answers(
    tmp_path: Path, llm_judges: Plugin
) -> None:
    ws = workspace(tmp_path, "gardener-test-judge")
    write(ws, "2026-02-20.md", NOTE)
    result = ws.promote()
    assert result.warnings == ()
    assert [(d.action, d.value) for d in result.plan.decisions] == [
        ("add", "Sam is vegetarian")
    ]
    (call,) = llm_judges.models["gardener-test-judge"].calls
    assert "Keep what lasts." in (call.system or "")  # rules.md's body instructs it
    memory = ws.memory_path.read_text(encoding="utf-8")
    assert "judged-by=llm:gardener-test-judge" in memory and "lamp" not in memory
    assert "Gardener-Judge: llm:gardener-test-judge" in git(
        ws.root, "log", "-1", "--format=%B"
    )
    assert ws.review().total == 0
    assert (
        ws.promote().plan.decisions == ()
        and len(llm_judges.models["gardener-test-judge"].calls) == 1
    )


def test_a_malformed_answer_or_a_broken_model_leaves_the_entries_pending(
    tmp_path: Path, llm_judges: Plugin
) -> None:
    for model in ("gardener-test-garbage", "gardener-test-broken", "no-such-model"):
        ws = workspace(tmp_path / model, model)
        write(ws, "2026-02-20.md", NOTE)
        result = ws.promote()
        assert any(w.startswith("judge:") for w in result.warnings), model
        assert ws.review().total == 2
        assert "Sam" not in ws.memory_path.read_text(encoding="utf-8")


def test_a_model_past_its_timeout_leaves_the_entries_pending(
    tmp_path: Path, llm_judges: Plugin
) -> None:
    ws = workspace(tmp_path, "gardener-test-slow", "judge_timeout_s: 1\n")
    write(ws, "2026-02-20.md", NOTE)
    result = ws.promote()
    assert any("judge:" in w for w in result.warnings)
    assert ws.review().total == 2


def test_the_nearest_key_hint_makes_the_model_reuse_the_existing_key(
    tmp_path: Path, llm_judges: Plugin
) -> None:
    ws = workspace(tmp_path, "gardener-test-synonym")
    write(ws, "2026-02-01.md", "- **Database**: Postgres\n")
    ws.promote()
    # long enough that no rule reads it as a choice of the topic (a short
    # "sqlite for everything from here" is one: database, filed by the rules)
    write(
        ws,
        "2026-02-20.md",
        "## Misc\n- sqlite for everything from here on, all of it\n",
    )
    ws.promote()
    assert values(ws, "Database") == ["sqlite for everything from here on, all of it"]
    assert values(ws, "db") == []
    assert values(ws, "Database", "2026-02-10") == ["Postgres"]


def test_batches_and_the_limit_bound_what_is_sent(
    tmp_path: Path, llm_judges: Plugin
) -> None:
    ws = workspace(tmp_path, "gardener-test-judge", "judge_batch: 2\njudge_limit: 5\n")
    write(
        ws,
        "2026-02-20.md",
        "## Misc\n" + "".join(f"- the lamp {n} flickers\n" for n in range(7)),
    )
    ws.promote()
    calls = llm_judges.models["gardener-test-judge"].calls
    assert len(calls) == 3  # 2 + 2 + 1 of the 7
    assert ws.review().total == 2
