"""``python -m bench.rogue [--runs N] [--keep]``: the scripted rogue agent, against
a running ``gardener watch``.

Each run builds an OpenClaw-shaped workspace (twelve days of notes, a promoted
MEMORY.md, ``memory/dreaming/`` and ``memory/important/``), starts ``gardener
watch`` as a user would, and then acts as the agents of the field's worst
reports: it deletes a third of the notes, rewrites MEMORY.md keeping a fifth of
its entries, truncates today's note, and flushes a line holding a token in 2-8
character pieces. When the watcher has settled it counts what is left: lines on
disk or held aside, the warnings the watcher printed, and the token's
longest piece (of its 36 random characters) that any object git holds,
reachable or not, spells. Never fails:
the figures are printed (bench/README.md, Rogue agent).
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
from datetime import date, timedelta
from pathlib import Path

GARDENER = [sys.executable, "-m", "gardener"]
ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True)
    return done.stdout.decode("utf-8", "replace")


def _gardener(root: Path, *args: str) -> None:
    subprocess.run([*GARDENER, "-w", str(root), *args], check=True,
                   capture_output=True)  # fmt: skip


def _build(root: Path) -> tuple[list[Path], Path]:
    """The workspace: eleven past notes of two keyed facts each, today's note,
    OpenClaw's folders; promoted. The past notes and today's."""
    _gardener(root, "init", str(root))
    notes = root / "memory"
    today = date.today()
    past = []
    for back in range(11, 0, -1):
        day = today - timedelta(days=back)
        path = notes / f"{day.isoformat()}.md"
        path.write_text(
            f"# {day.isoformat()}\n\n"
            + "".join(f"- fact: **host {back}-{i}**: box{back}{i}\n" for i in range(2))
        )
        past.append(path)
    current = notes / f"{today.isoformat()}.md"
    current.write_text(f"# {today.isoformat()}\n\n- 09:00 standup moved to 10:00\n")
    (notes / "dreaming").mkdir()
    (notes / "dreaming" / f"{today.isoformat()}.md").write_text("- dreamt of tea\n")
    (notes / "important").mkdir()
    (notes / "important" / "pinned.md").write_text("- deploys are on Tuesdays\n")
    _gardener(root, "promote")
    return past, current


def _watch(root: Path) -> subprocess.Popen[str]:
    watcher = subprocess.Popen(
        [*GARDENER, "-w", str(root), "watch", "--debounce", "0.2", "--idle", "0"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert watcher.stderr is not None
    for line in watcher.stderr:
        if "watching " in line:
            return watcher
    raise RuntimeError("gardener watch did not start")


def run_once(root: Path, seed: int) -> dict[str, object]:
    """One run; its figures."""
    past, current = _build(root)
    notes_before = {p: p.read_text() for p in [*past, current]}
    memory = root / "MEMORY.md"
    memory_before = memory.read_text()
    entries = [x for x in memory_before.splitlines(True) if x.startswith("- **host")]
    watcher = _watch(root)
    pick = random.Random(seed)
    started = time.monotonic()
    try:
        deleted = pick.sample(past, len(past) // 3)
        for path in deleted:
            path.unlink()
        kept = set(pick.sample(entries, max(1, len(entries) // 5)))
        rewritten = "".join(
            x for x in memory_before.splitlines(True)
            if not x.startswith("- **host") or x in kept
        )  # fmt: skip
        memory.write_text(rewritten)
        current.write_text(current.read_text().partition("\n")[0] + "\n")
        token = "ghp_" + "".join(pick.choices(ALPHABET, k=36))
        line = f"- 11:00 the ci token is {token}\n"
        with current.open("a") as out:
            at = 0
            while at < len(line):
                size = pick.randint(2, 8)
                out.write(line[at : at + size])
                out.flush()
                at += size
                time.sleep(pick.uniform(0.05, 0.2))
        rel = current.relative_to(root).as_posix()
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if "REDACTED" in _git(root, "show", f"HEAD:{rel}") and all(
                p.exists() for p in deleted
            ):
                break
            time.sleep(0.1)
        settled = time.monotonic() - started
        time.sleep(1.0)  # the last commits' messages
    finally:
        watcher.send_signal(signal.SIGTERM)
        _, said = watcher.communicate(timeout=60)
    return _figures(
        root, notes_before, memory_before, rewritten, entries, deleted, token,
        said, settled,
    )  # fmt: skip


def _figures(
    root: Path,
    notes_before: dict[Path, str],
    memory_before: str,
    rewritten: str,
    entries: list[str],
    deleted: list[Path],
    token: str,
    said: str,
    settled: float,
) -> dict[str, object]:
    lines = lost = 0
    for path, text in notes_before.items():
        now = set(path.read_text().splitlines()) if path.exists() else set()
        for line in text.splitlines():
            lines += 1
            lost += line not in now
    held = root / ".gardener" / "held" / "MEMORY.md"
    on_disk = (root / "MEMORY.md").read_text()
    entries_kept = sum(e in on_disk for e in entries)
    # every object git holds, reachable or not: a staged half line would be one
    objects = subprocess.run(
        ["git", "-C", str(root), "cat-file", "--batch-all-objects", "--batch"],
        capture_output=True,
    ).stdout.decode("utf-8", "replace")
    body = token[4:]
    # the longest run of the token's characters any object holds: a random
    # 4 may sit in a digest by chance (its alphabet has the hex digits)
    longest = max(
        (n for n in range(1, len(body) + 1)
         if any(body[i : i + n] in objects for i in range(len(body) - n + 1))),
        default=0,
    )  # fmt: skip
    return {
        "note lines": lines,
        "lost": lost,
        "notes deleted": len(deleted),
        "restored": sum(p.exists() for p in deleted),
        "MEMORY.md entries": len(entries),
        "left by the rogue": sum(e in rewritten for e in entries),
        "back on disk": entries_kept,
        "held aside": held.is_file() and held.read_text() == rewritten,
        "warnings": said.count("warning: "),
        "deletions said": said.count("deleted outside the gardener"),
        "MEMORY.md hold said": "MEMORY.md was rewritten outside the gardener" in said,
        "truncation said": f"{max(notes_before).name} was rewritten" in said,
        "longest token piece in git": longest,
        "backups committed": len(
            _git(root, "ls-files", "memory/dreaming", "memory/important").split()
        ),  # fmt: skip
        "settled s": round(settled, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.rogue")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", action="store_true", help="keep the workspaces")
    args = parser.parse_args()
    top = Path(tempfile.mkdtemp(prefix="gardener-rogue-"))
    env_now = os.environ.pop("GARDENER_NOW", None)  # the watcher runs on real time
    try:
        rows = [run_once(top / f"ws{n}", seed=n) for n in range(args.runs)]
    finally:
        if env_now is not None:
            os.environ["GARDENER_NOW"] = env_now
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)
    names = list(rows[0])
    print("| run | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for n, row in enumerate(rows):
        print(f"| {n} | " + " | ".join(str(row[k]) for k in names) + " |")
    if args.keep:
        print(f"workspaces kept in {top}")


if __name__ == "__main__":
    main()
