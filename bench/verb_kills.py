"""``python -m bench.verb_kills``: every writing verb killed with SIGKILL at a
random moment, then run again: does the next run end as a clean run does?

A template workspace (a week of notes written the way agents write, one of
them appended to by hand after the last commit) is copied twice per trial.
In the reference copy the verb runs once, unkilled, and its duration ``T``
is taken. In the other, the verb runs as a child process group, is SIGKILLed
after a random delay in [0, 1.2 T], and the same command runs again. Both
then end with ``gardener record``. A trial is "identical" when the two end
with the same MEMORY.md, the same notes and ledger files, a clean
``git status`` and ``git fsck``, and ``gardener check`` exits 0. A kill
"landed" when the killed run had not finished by itself. Prints a table.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_NOW = "2026-01-08T18:00"
_LATER = "2026-03-01T18:00"  # prune: every note past its TTL
_NOTES = {
    "2026-01-02": "# 2026-01-02\n\n## Setup\n- **Database:** Postgres 15\n"
    "- We use Sentry for error tracking.\n- Deploy target is box-a.\n",
    "2026-01-03": "# 2026-01-03\n\n## Session summary\n- Dana prefers short answers.\n"
    "- Fixed the flaky import test.\n- Dana started running before work\n",
    "2026-01-05": "# 2026-01-05\n\n## Decisions\n"
    "- We switched the main database from Postgres to SQLite.\n"
    "- We now use GlitchTip for error tracking.\n",
    "2026-01-06": "# 2026-01-06\n\n- Deploy target moved to box-b, box-a is decommissioned.\n"
    "- Correction: the staging host is stg-2\n",
    "2026-01-07": "# 2026-01-07\n\n## 14:30 — Heartbeat\n- CI green\n- Latency: p95 240ms\n",
}
# the verbs that write, each as (name, arguments, clock)
VERBS = (
    ("note", ["note", "we use uv instead of pip"], _NOW),
    ("promote", ["promote"], _NOW),
    ("record", ["record"], _NOW),
    ("prune", ["prune"], _LATER),
    ("forget", ["forget", "--key", "error tracking", "--yes"], _NOW),
)


def _gardener(root: Path, args: list[str], now: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "GARDENER_NOW": now}
    return subprocess.Popen(
        [sys.executable, "-m", "gardener", "-w", str(root), *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _run(root: Path, args: list[str], now: str) -> int:
    return _gardener(root, args, now).wait(timeout=300)


def template(root: Path) -> None:
    """The workspace every trial copies: notes committed, today's appended to."""
    root.mkdir(parents=True)
    env = {**os.environ, "GARDENER_NOW": "2026-01-01T09:00"}
    subprocess.run(
        [sys.executable, "-m", "gardener", "init", str(root)],
        env=env, check=True, capture_output=True,
    )  # fmt: skip
    notes = root / "memory"
    notes.mkdir(exist_ok=True)
    for day, text in _NOTES.items():
        (notes / f"{day}.md").write_text(text, encoding="utf-8")
    _run(root, ["record"], _NOW)
    with open(notes / "2026-01-07.md", "a", encoding="utf-8") as note:
        note.write("- Dana hates emoji in commit messages.\n")  # not committed yet


def _end(root: Path) -> dict[str, bytes]:
    """What a run ends with: MEMORY.md, the notes and the ledger, as bytes."""
    files = {"MEMORY.md": (root / "MEMORY.md").read_bytes()}
    for folder in ("memory", ".gardener/ledger.d"):
        base = root / folder
        if base.is_dir():
            for path in sorted(base.rglob("*")):
                if path.is_file():
                    files[str(path.relative_to(root))] = path.read_bytes()
    return files


def _sound(root: Path) -> bool:
    status = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain"],
        capture_output=True,
        text=True,
    )
    fsck = subprocess.run(
        ["git", "-C", str(root), "fsck", "--no-progress"], capture_output=True
    )
    check = _run(root, ["check"], _NOW)
    return status.stdout == "" and fsck.returncode == 0 and check == 0


def trial(
    base: Path, verb: tuple[str, list[str], str], rng: random.Random
) -> tuple[bool, bool]:
    """(landed, identical) of one kill of ``verb``."""
    name, args, now = verb
    clean, killed = base / "clean", base / "killed"
    for copy in (clean, killed):
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(base / "template", copy, symlinks=True)
    started = time.monotonic()
    _run(clean, args, now)
    took = time.monotonic() - started
    _run(clean, ["record"], now)
    child = _gardener(killed, args, now)
    time.sleep(rng.uniform(0, 1.2 * took))
    landed = child.poll() is None
    if landed:
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    _run(killed, args, now)  # the agent, or the person, runs it again
    _run(killed, ["record"], now)
    same = _end(clean) == _end(killed)
    return landed, same and _sound(killed) and _sound(clean)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=10, help="kills per verb")
    parser.add_argument("--seed", type=int, default=1)
    opts = parser.parse_args(argv)
    rng = random.Random(opts.seed)
    with tempfile.TemporaryDirectory(prefix="verb-kills-") as tmp:
        base = Path(tmp)
        template(base / "template")
        print("| verb | kills | landed mid-run | next run identical to a clean run |")
        print("|---|---|---|---|")
        for verb in VERBS:
            landed = same = 0
            for _ in range(opts.kills):
                hit, ok = trial(base, verb, rng)
                landed += hit
                same += ok
            print(f"| {verb[0]} | {opts.kills} | {landed} | {same} |", flush=True)


if __name__ == "__main__":
    main()
