"""``python -m bench.purge_kills``: purges killed with SIGKILL at random
moments, each run again: does every rerun end as an unkilled purge does?

A template workspace (two days of notes naming a person, promoted, two
stashes, a skip-worktree note) is purged once unkilled for the reference end
and its duration ``T``. Then ``--kills`` times: a copy is purged as a child
process group, SIGKILLed after a random delay in [0, 1.2 T], and purged again
unkilled. A kill "landed mid-purge" when it left a half-purge behind
(``.gardener/purge-pending`` or ``.git/gardener-purge``). Each rerun is
compared with the reference: the files of HEAD and of the work tree (the
register aside: its salt is random), the commit subjects, the stash, the
index flags, ``git status``; and the text must be in no object, log or
reflog, and ``git fsck`` clean. Prints the counts.
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

from gardener import Workspace

NAME = "Mira Okonkwo-Lindqvist"
_PERSON = ["-c", "user.name=Pat Person", "-c", "user.email=pat@example.invalid"]
_NOW = "2026-01-06T10:00"


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def _template(root: Path) -> None:
    ws, _ = Workspace.init(root, now_override="2026-01-05T09:00")
    ws.note(f"{NAME} prefers tabs over spaces", by="atlas")
    ws.note("the CI runs on every push", by="atlas")
    ws.promote()
    ws.now_override = "2026-01-06T09:00"
    ws.note(f"{NAME} moved to the Lisbon office", by="atlas")
    ws.promote()
    memory = root / "MEMORY.md"
    for extra, message in ((f"scratch about {NAME}", "wip scratch"), ("other", "wip other")):  # fmt: skip
        with memory.open("a") as out:
            out.write(f"\n{extra}\n")
        _git(root, *_PERSON, "stash", "push", "-q", "-m", message)
    _git(root, "update-index", "--skip-worktree", "memory/2026-01-05.md")


def _start(root: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gardener",
            "-w",
            str(root),
            "purge",
            NAME,
            "--yes",
            "--by",
            "dpo",
        ],  # fmt: skip
        env={**os.environ, "GARDENER_NOW": _NOW},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _end(root: Path) -> dict[str, object]:
    files = {
        p: _git(root, "show", f"HEAD:{p}")
        for p in _git(root, "ls-files").splitlines()
        if p != ".gardener/purged"
    }
    tree = {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.relative_to(root).parts[0] != ".git"
        and p.name not in ("purged", "purged.local", "salt")
    }  # fmt: skip
    subjects = [s.split(" (purge id")[0] for s in _git(root, "log", "--format=%s").splitlines()]  # fmt: skip
    return {
        "files": files,
        "tree": tree,
        "subjects": subjects,
        "stash": _git(root, "stash", "list", "--format=%gs"),
        "flags": _git(root, "ls-files", "-v", "memory/"),
        "status": _git(root, "status", "--porcelain"),
    }


def _clean(root: Path) -> bool:
    objects = subprocess.run(
        ["git", "-C", str(root), "cat-file", "--batch-all-objects", "--batch"],
        check=True,
        capture_output=True,
    ).stdout
    fsck = subprocess.run(["git", "-C", str(root), "fsck", "--full"], capture_output=True)  # fmt: skip
    history = _git(root, "log", "--all", "--reflog", "-p")
    return NAME.encode() not in objects and NAME not in history and fsck.returncode == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        _template(base / "template")
        shutil.copytree(base / "template", base / "ref", symlinks=True)
        start = time.monotonic()
        if _start(base / "ref").wait() != 0:
            raise SystemExit("the unkilled purge failed")
        duration = time.monotonic() - start
        reference = _end(base / "ref")
        landed = same = clean = reran = 0
        failures = []
        for n in range(args.kills):
            root = base / f"k{n}"
            shutil.copytree(base / "template", root, symlinks=True)
            proc = _start(root)
            delay = rng.uniform(0, 1.2 * duration)
            time.sleep(delay)
            alive = proc.poll() is None
            if alive:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            half = any((root / p).exists() for p in (".gardener/purge-pending", ".git/gardener-purge"))  # fmt: skip
            landed += alive and half
            rerun = _start(root)
            _, err = rerun.communicate()
            if rerun.returncode == 0:
                reran += 1
            else:
                failures.append(f"kill {n} at {delay:.2f} s: rerun exit {rerun.returncode}: {err.decode()[-300:]}")  # fmt: skip
                continue
            got = _end(root)
            if got == reference:
                same += 1
            else:
                keys = [k for k in reference if reference[k] != got[k]]
                shown = "; ".join(f"{k}: {str(got[k])[:300]} (unkilled: {str(reference[k])[:300]})" for k in keys if k != "tree")  # fmt: skip
                failures.append(
                    f"kill {n} at {delay:.2f} s: differs in {keys}: {shown}"
                )
            clean += _clean(root)
            shutil.rmtree(root)
        print(f"unkilled purge: {duration:.1f} s")
        print(f"kills: {args.kills}; landed mid-purge: {landed}; reruns exit 0: {reran}; "
              f"reruns identical to the unkilled end: {same}; text in no object and fsck clean: {clean}")  # fmt: skip
        for line in failures:
            print("  " + line)
    return 0 if same == args.kills == clean else 1


if __name__ == "__main__":
    raise SystemExit(main())
