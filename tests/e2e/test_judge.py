"""The agent as judge, through the real ``gardener`` command: a scripted judge
reads ``review --json`` and answers with ``decide --json -``.

The notes are prose the rules leave undecided. The judge's knowledge is the
table ``ANSWERS`` (by the entry's text), as an agent's would be; everything
else (valid time, supersession, back-fill, the ledger) is the gardener's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.helpers import cli, git

NOV2 = """# 2026-11-02

## Misc
- Sam is vegetarian
- the lobby printer jams on duplex
- Priya answers billing questions
- 서버는 서울 리전에 있다
- Der Kunde zahlt per Rechnung
"""
NOV20 = """# 2026-11-20

- **billing contact**: Omar
"""
NOV25 = """# 2026-11-25

## Misc
- Sam eats fish these days
- the lobby smells of paint
"""
# text -> the judge's answer (id added from the queue)
ANSWERS = {
    "Sam is vegetarian": {"verdict": "preference", "key": "Sam / diet", "value": "vegetarian"},
    "the lobby printer jams on duplex": {"verdict": "transient"},
    # the nearest key is offered; the judge reuses it
    "Priya answers billing questions": {"verdict": "fact", "key": "Billing Contact", "value": "Priya"},
    "서버는 서울 리전에 있다": {"verdict": "fact", "key": "server region", "value": "서울 리전"},
    "Der Kunde zahlt per Rechnung": {"verdict": "fact", "key": "payment method", "value": "per Rechnung"},
    "Sam eats fish these days": {"verdict": "preference", "key": "Sam / diet", "value": "eats fish"},
    "the lobby smells of paint": {"verdict": "transient"},
}  # fmt: skip
NOW = "2026-11-26T09:00"


def gardener(root: Path, *args: str, stdin: str = "", code: int = 0) -> str:
    env = dict(os.environ, GARDENER_NOW=NOW)
    done = subprocess.run(
        [sys.executable, "-m", "gardener", "-w", str(root), *args],
        input=stdin, capture_output=True, text=True, env=env,
    )  # fmt: skip
    assert done.returncode == code, done.stdout + done.stderr
    return done.stdout


def decide(root: Path, answers: list[dict[str, str]], code: int = 0) -> dict[str, Any]:
    """``gardener decide --json - --by atlas`` with ``answers`` on stdin: its JSON."""
    out = gardener(
        root, "decide", "--json", "-", "--by", "atlas",
        stdin=json.dumps({"decisions": answers}), code=code,
    )  # fmt: skip
    result: dict[str, Any] = json.loads(out)
    return result


def judge(root: Path) -> dict[str, object]:
    """One round of the agent's loop: read the queue, think, answer."""
    queue = json.loads(gardener(root, "review", "--json"))
    answers = [{"id": item["id"], **ANSWERS[item["text"]]} for item in queue["pending"]]
    return decide(root, answers)


def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    cli(root, NOW, "init", str(root))
    (root / "memory").mkdir(exist_ok=True)
    for day, text in (
        ("2026-11-02", NOV2),
        ("2026-11-20", NOV20),
        ("2026-11-25", NOV25),
    ):
        (root / "memory" / f"{day}.md").write_text(text, encoding="utf-8")
    return root


def recall(root: Path, key: str, *more: str) -> list[str]:
    out = json.loads(gardener(root, "recall", "--key", key, "--json", *more))
    return [r["value"] for r in out["results"]]


def test_the_judge_files_every_durable_entry_with_its_key_and_valid_time(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    gardener(root, "promote")  # the rules file what they can: billing contact Omar
    queue = json.loads(gardener(root, "review", "--json"))
    assert {i["text"] for i in queue["pending"]} == set(ANSWERS)
    billing = next(i for i in queue["pending"] if i["text"].startswith("Priya"))
    assert "billing contact" in billing["nearest_keys"]
    assert [i["since"] for i in queue["pending"]] == sorted(
        i["since"] for i in queue["pending"]
    )  # oldest first

    result = judge(root)
    assert result["refused"] == []
    assert len(result["applied"]) == len(ANSWERS)
    assert result["judged_by"] == "atlas"  # the judge, not the notes' author
    assert "nothing waits" in gardener(root, "review")

    # valid time is the note's: Priya held from Nov 2 until Omar on Nov 20
    assert recall(root, "billing contact") == ["Omar"]
    assert recall(root, "billing contact", "--as-of", "2026-11-10") == ["Priya"]
    assert recall(root, "Sam / diet") == ["eats fish"]
    assert recall(root, "Sam / diet", "--as-of", "2026-11-10") == ["vegetarian"]
    assert recall(root, "server region") == ["서울 리전"]
    assert recall(root, "payment method") == ["per Rechnung"]
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    assert "printer" not in memory and "paint" not in memory
    assert "judged-by=atlas" in memory
    # the commit names the judge
    log = git(root, "log", "-1", "--format=%B")
    assert "Gardener-Judge: atlas" in log and "Gardener-Action: decide" in log


def test_prune_keeps_a_note_for_the_judge_then_lets_a_judged_one_go(
    tmp_path: Path,
) -> None:
    root = tmp_path / "ws"
    cli(root, "2026-11-02T08:00", "init", str(root))
    (root / "memory").mkdir(exist_ok=True)
    (root / "memory" / "2026-11-02.md").write_text(NOV2, encoding="utf-8")
    cli(root, "2026-11-02T18:00", "promote")  # committed on its day
    # Dec 10: past the 30-day TTL, within the 14-day review grace
    kept = json.loads(cli(root, "2026-12-10T09:00", "prune", "--json").stdout)
    assert kept["notes_removed"] == 0
    assert kept["kept_notes"][0]["why"] == "undecided"
    judge(root)
    pruned = json.loads(cli(root, "2026-12-10T09:00", "prune", "--json").stdout)
    assert pruned["removed_notes"] == ["memory/2026-11-02.md"]
    assert recall(root, "Sam / diet") == ["vegetarian"]


def test_a_judge_cannot_decide_twice_or_invent_an_entry_or_its_text(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    queue = json.loads(gardener(root, "review", "--json"))
    sam = next(i for i in queue["pending"] if i["text"] == "Sam is vegetarian")
    bad = [
        {"id": "p00000000", "verdict": "fact", "key": "ceo", "value": "Mallory"},
        {"id": sam["id"], "verdict": "fact", "key": "Sam / diet", "value": "vegan"},
    ]
    out = decide(root, bad, code=1)
    reasons = [r["reason"] for r in out["refused"]]
    assert "no pending entry" in reasons[0] and "not in the entry's text" in reasons[1]
    assert out["commit"] is None
    assert "Mallory" not in (root / "MEMORY.md").read_text(encoding="utf-8")
    good = [
        {"id": sam["id"], "verdict": "fact", "key": "Sam / diet", "value": "vegetarian"}
    ]
    decide(root, good)
    again = decide(root, good, code=1)
    assert "already decided" in again["refused"][0]["reason"]


def test_one_decision_by_arguments(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    queue = json.loads(gardener(root, "review", "--json"))
    ident = next(i["id"] for i in queue["pending"] if i["text"].startswith("Der Kunde"))
    out = gardener(
        root, "decide", ident, "--durable", "fact", "--key", "payment method",
        "--value", "per Rechnung", "--by", "atlas",
    )  # fmt: skip
    assert "payment method: per Rechnung" in out
    assert recall(root, "payment method") == ["per Rechnung"]
    text = gardener(root, "review")
    assert ident not in text and "wait for a judgment" in text
