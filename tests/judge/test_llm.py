"""The judge through the real ``llm`` code path, with the test models of
tests/judge/models.py registered as an ``llm`` plugin (gardener.judge.llm)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gardener.judge.llm import MISSING, JudgeRun, judge_with_llm
from gardener.judge.prompt import ANSWER_SCHEMA
from tests.judge.models import Plugin, item

ROOT = Path(__file__).resolve().parents[2]


def items(count: int) -> list[dict[str, object]]:
    texts = [
        "Mira always takes the 7:40 train",
        "rebooted the laptop",
        "Mira prefers tea",
    ]
    return [item(f"p{n:03}", texts[n % 3]) for n in range(count)]


def test_the_judge_answers_each_asked_item_by_its_policy(llm_judges: Plugin):
    run = judge_with_llm("gardener-test-judge", "Keep what lasts.", items(3))
    assert run == JudgeRun(
        decisions=(
            {"id": "p000", "verdict": "durable", "kind": "fact"},
            {"id": "p001", "verdict": "transient"},
            {"id": "p002", "verdict": "durable", "kind": "preference"},
        ),
        asked=3,
        errors=(),
        model="gardener-test-judge",
    )
    (call,) = llm_judges.models["gardener-test-judge"].calls
    assert call.system is not None and call.system.endswith("Keep what lasts.")


def test_items_go_in_batches(llm_judges: Plugin):
    run = judge_with_llm("gardener-test-judge", "", items(45), batch=20, limit=60)
    calls = llm_judges.models["gardener-test-judge"].calls
    assert [len(json.loads(c.prompt.splitlines()[1])["pending"]) for c in calls] == [
        20,
        20,
        5,
    ]
    assert run.asked == 45 and not run.errors
    assert [d["id"] for d in run.decisions] == [f"p{n:03}" for n in range(45)]


def test_no_more_than_limit_items_are_asked(llm_judges: Plugin):
    run = judge_with_llm("gardener-test-judge", "", items(45), batch=20, limit=30)
    assert len(llm_judges.models["gardener-test-judge"].calls) == 2
    assert run.asked == 30 and len(run.decisions) == 30


def test_nothing_pending_asks_nothing(llm_judges: Plugin):
    assert judge_with_llm("gardener-test-judge", "", []) == JudgeRun((), 0, ())
    assert judge_with_llm("gardener-test-judge", "", items(3), limit=0).asked == 0
    assert llm_judges.models["gardener-test-judge"].calls == []


def test_a_model_with_schemas_gets_the_answer_schema(llm_judges: Plugin):
    judge_with_llm("gardener-test-judge", "", items(1))
    (call,) = llm_judges.models["gardener-test-judge"].calls
    assert call.schema == ANSWER_SCHEMA


def test_a_model_without_schemas_gets_none_and_its_fenced_answer_is_read(
    llm_judges: Plugin,
):
    run = judge_with_llm("gardener-test-plain", "", items(3))
    (call,) = llm_judges.models["gardener-test-plain"].calls
    assert call.schema is None
    assert [d["verdict"] for d in run.decisions] == ["durable", "transient", "durable"]


def test_the_nearest_key_is_what_the_judge_files_under(llm_judges: Plugin):
    run = judge_with_llm(
        "gardener-test-judge", "", [item("p1", "always", ["Mira / train"])]
    )
    assert run.decisions == (
        {"id": "p1", "verdict": "durable", "kind": "fact", "key": "Mira / train"},
    )


def test_the_key_hint_makes_a_model_reuse_a_key_spelled_its_own_way(llm_judges: Plugin):
    text = "we moved the database to Postgres"
    hinted = judge_with_llm(
        "gardener-test-synonym", "", [item("p1", text, ["Database", "deploy"])]
    )
    bare = judge_with_llm("gardener-test-synonym", "", [item("p1", text)])
    assert [d["key"] for d in hinted.decisions] == ["Database"]
    assert [d["key"] for d in bare.decisions] == ["db"]  # the synonym it would invent


def test_a_slow_model_times_out_and_its_items_stay_undecided(llm_judges: Plugin):
    started = time.monotonic()
    run = judge_with_llm("gardener-test-slow", "", items(3), timeout_s=0.5)
    assert time.monotonic() - started < 2.0
    assert run == JudgeRun(
        (),
        3,
        ("judge: gardener-test-slow: batch 1 of 1: no answer within 0.5 s",),
        "gardener-test-slow",
    )


def test_after_a_timeout_the_later_batches_are_still_asked(llm_judges: Plugin):
    started = time.monotonic()
    run = judge_with_llm("gardener-test-slow", "", items(4), batch=2, timeout_s=0.3)
    assert time.monotonic() - started < 2.0
    assert len(llm_judges.models["gardener-test-slow"].calls) == 2
    assert run.asked == 4 and run.decisions == ()
    assert [e.split(": ")[2] for e in run.errors] == ["batch 1 of 2", "batch 2 of 2"]


def test_a_garbage_answer_is_an_error_and_no_decision(llm_judges: Plugin):
    run = judge_with_llm("gardener-test-garbage", "", items(3))
    assert run == JudgeRun(
        (),
        3,
        ("judge: gardener-test-garbage: batch 1 of 1: the answer is not JSON",),
        "gardener-test-garbage",
    )


def test_judgments_of_ids_never_asked_are_dropped(llm_judges: Plugin):
    run = judge_with_llm("gardener-test-wrongids", "", items(3))
    assert run == JudgeRun((), 3, (), "gardener-test-wrongids")


def test_a_batch_judges_only_its_own_ids(llm_judges: Plugin):
    # each batch is read against the ids it asked, not the whole pass's
    run = judge_with_llm("gardener-test-judge", "", items(4), batch=2)
    assert [d["id"] for d in run.decisions] == ["p000", "p001", "p002", "p003"]


def test_an_error_from_the_model_is_reported_not_raised(llm_judges: Plugin):
    run = judge_with_llm("gardener-test-broken", "", items(3), batch=2)
    assert run.decisions == () and run.asked == 3
    assert run.errors == tuple(
        f"judge: gardener-test-broken: batch {n} of 2: RuntimeError: upstream said 502 Bad Gateway"
        for n in (1, 2)
    )


def test_a_model_without_its_key_is_reported(llm_judges: Plugin):
    run = judge_with_llm("gardener-test-needskey", "", items(1))
    assert run.decisions == ()
    (error,) = run.errors
    assert error.startswith(
        "judge: gardener-test-needskey: batch 1 of 1: NeedsKeyException: "
    )
    assert "GARDENER_TEST_KEY" in error


def test_a_model_with_its_key_answers(
    llm_judges: Plugin, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("GARDENER_TEST_KEY", "sk-test")
    assert judge_with_llm("gardener-test-needskey", "", items(1)) == JudgeRun(
        (), 1, (), "gardener-test-needskey"
    )


def test_an_unknown_model_asks_nothing(llm_judges: Plugin):
    run = judge_with_llm("gardener-test-nosuch", "", items(3))
    assert run == JudgeRun(
        (), 0, ("judge: UnknownModelError: Unknown model: gardener-test-nosuch",)
    )


def test_no_model_named_is_llms_default_model(llm_judges: Plugin, tmp_path: Path):
    (tmp_path / "llm").mkdir(exist_ok=True)
    (tmp_path / "llm" / "default_model.txt").write_text("gardener-test-judge")
    run = judge_with_llm(None, "", items(2))
    assert run.asked == 2 and len(run.decisions) == 2
    assert run.model == "gardener-test-judge"  # the name a commit gives the judge
    assert len(llm_judges.models["gardener-test-judge"].calls) == 1


def python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )


def test_without_llm_installed_the_judge_says_which_extra_to_install():
    done = python(
        "import sys; sys.modules['llm'] = None\n"
        "from gardener.judge.llm import judge_with_llm\n"
        "run = judge_with_llm('gardener-test-judge', '', [{'id': 'p1', 'text': 'x'}])\n"
        "print(repr(run))"
    )
    assert done.stdout.strip() == repr(JudgeRun((), 0, (MISSING,)))
    assert (
        MISSING == "judge: llm needs the llm extra: pip install 'memory-gardener[llm]'"
    )


def test_importing_the_judge_does_not_import_llm():
    done = python("import sys, gardener.judge.llm\nprint('llm' in sys.modules)")
    assert done.stdout.strip() == "False"
