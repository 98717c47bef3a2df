"""bench.beliefs: its label files, its scoring, and a run over a tiny corpus.

The corpus in tests/bench/corpus/ is our own (explicit kinds and keys, which
the gardener files today), labelled in tests/bench/labels/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.beliefs import labels as labelfiles
from bench.beliefs.__main__ import corpus_path, main
from bench.beliefs.labels import Labels, Pair, Question
from bench.beliefs.score import score

HERE = Path(__file__).resolve().parent
CORPUS, LABELS = HERE / "corpus", HERE / "labels"
OLD, NEW = "memory/2026-01-10.md", "memory/2026-01-12.md"


def test_labels_are_read_by_path_and_line() -> None:
    lab = labelfiles.load(str(LABELS), "tiny")
    assert lab.items[(OLD, 4)] == "durable"
    assert lab.items[(NEW, 6)] == "ambiguous"
    assert len(lab.items) == 8
    assert lab.pairs == (Pair((OLD, 4), ((NEW, 3),), "database"),)
    assert lab.ok == frozenset({((OLD, 7), (NEW, 5))})
    assert lab.questions[1] == Question("which editor?", ("helix", "vim"))
    assert lab.files == frozenset({OLD, NEW})


def test_a_workspace_without_label_files_has_empty_labels() -> None:
    assert labelfiles.load(str(LABELS), "nobody") == Labels()


@pytest.mark.parametrize(
    "row", ["memory/a.md\t3\tkeep", "memory/a.md\tthree\tdurable", "memory/a.md\t3"]
)
def test_a_malformed_label_row_names_its_file_and_row(tmp_path: Path, row: str) -> None:
    (tmp_path / "ws.tsv").write_text(f"path\tline\tlabel\n{row}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"ws\.tsv, row 2"):
        labelfiles.load(str(tmp_path), "ws")


def decision(
    action: str, line: int, fact: str | None, replaced: str | None = None
) -> dict[str, object]:
    return {"action": action, "path": "m/1.md", "line": line, "fact": fact,
            "replaced": replaced, "key": None, "reason": "test"}  # fmt: skip


def test_score_counts_recall_false_promotion_pairs_and_questions() -> None:
    items = {("m/1.md", n): None for n in range(1, 8)}
    lab = Labels(
        items={("m/1.md", 1): "durable", ("m/1.md", 2): "durable",
               ("m/1.md", 3): "durable", ("m/1.md", 4): "transient",
               ("m/1.md", 5): "ambiguous", ("m/1.md", 6): "durable",
               ("m/1.md", 7): "durable", ("m/2.md", 9): "durable"},  # fmt: skip
        pairs=(Pair(("m/1.md", 1), (("m/1.md", 2),)), Pair(("m/1.md", 3), (("m/1.md", 7), ("m/1.md", 6))),),
        ok=frozenset({(("m/1.md", 5), ("m/1.md", 4))}),
    )  # fmt: skip
    decisions = [
        decision("add", 1, "ma"),
        decision("supersede", 2, "mb", replaced="ma"),  # the labelled pair 1 -> 2
        decision("reject", 3, "mb"),  # a repeat: kept, not filed
        decision("add", 4, "md"),  # a transient filed
        decision("add", 5, "me"),
        decision("supersede", 6, "mf", replaced="me"),  # 5 -> 6: no labelled pair
    ]
    facts = {"md": {"superseded_by": None}, "me": {"superseded_by": "mf"}}
    s = score(items, decisions, facts, {"1": [True, False], "36": [False, False]}, lab)
    assert (s.items, s.labelled, s.stale) == (7, 7, 1)  # m/2.md:9 names no item
    assert (s.durable, s.durable_kept) == (5, 4)  # 1, 2, 6 filed; 3 a repeat; 7 not
    assert (s.filed, s.filed_transient) == (5, 1)
    assert (s.pairs, s.right, s.missed, s.wrong) == (2, 1, 1, 1)
    assert (s.questions, s.day1, s.day36) == (2, 1, 0)
    wrong = [m.where for m in s.misses if m.what == "wrong pair"]
    assert wrong == ["m/1.md:5 -> m/1.md:6"]
    kinds = sorted(m.what for m in s.misses)
    assert kinds == ["durable not kept", "pair missed", "transient filed", "wrong pair"]


def test_a_pair_judged_fine_is_not_wrong() -> None:
    lab = Labels(items={("m/1.md", 5): "durable", ("m/1.md", 6): "durable"},
                 ok=frozenset({(("m/1.md", 5), ("m/1.md", 6))}))  # fmt: skip
    decisions = [
        decision("add", 5, "me"),
        decision("supersede", 6, "mf", replaced="me"),
    ]
    s = score({("m/1.md", 5): None, ("m/1.md", 6): None}, decisions, {}, {}, lab)
    assert s.wrong == 0 and s.durable_kept == 2


def test_a_run_over_the_tiny_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--corpus", str(CORPUS), "--labels", str(LABELS), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    total = out["total"]
    assert total["durable_recall"] == 1.0 and total["false_promotion"] == 0.0
    assert (total["right"], total["missed"], total["wrong"]) == (1, 0, 0)
    assert (total["questions"], total["answered_day1"], total["answered_day36"]) == (
        4,
        3,
        3,
    )
    (tiny,) = out["workspaces"]
    assert tiny["day1"] == "2026-01-13"
    assert sorted(tiny["notes_pruned"]) == [OLD, NEW]  # past the TTL on day 36


def test_the_table_and_the_misses(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--corpus", str(CORPUS), "--labels", str(LABELS), "--verbose"]) == 0
    out = capsys.readouterr().out
    assert (
        "| tiny | 8/8 | 5/5 (100%) | 0/5 (0%) | 1 / 0 / 0 | 3/4 (75%) | 3/4 (75%) |"
        in out
    )
    assert "day 36 unanswered: who is Mira pairing with?" in out


def test_no_corpus_is_a_message_not_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--corpus", str(tmp_path / "absent")]) == 0
    assert "no corpus at" in capsys.readouterr().out


def test_the_corpus_comes_from_the_option_then_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GARDENER_CORPUS", "/somewhere/real")
    assert corpus_path(None) == Path("/somewhere/real")
    assert corpus_path("/given") == Path("/given")
    monkeypatch.delenv("GARDENER_CORPUS")
    assert corpus_path(None).parts[-3:] == ("shared", "corpus", "real")
