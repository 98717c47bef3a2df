"""``python -m bench.soak [--minutes M]``: everything at once, then count what was lost.

For ``--minutes`` (default 10) in one workspace: an agent notes through
``gardener note`` (every fifth note a keyed fact), another appends lines with
``>>`` to today's note, a person saves MEMORY.md by write-temp-then-rename
every few seconds (a line of their own at the end each time; every fourth
save is made from the copy read for the save before, as an agent that
rewrites the file from an old read does), a loop runs
promote, prune and recall, ``gardener watch`` runs, and once a minute a
person's name is noted then purged. Then the watcher is stopped and one
record and one promote are run. Counted: note lines lost (each ``note``
that exited 0 and each appended line must be in the notes on disk and in
HEAD), hand edits lost (each saved line in MEMORY.md), promoted facts lost
(each fact noted must be a current entry of MEMORY.md), purges that failed
or left their text in an object, and ``git fsck``. The clock is fixed
(``GARDENER_NOW``), so nothing expires. Prints the figures; exit 1 if
anything was lost.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from gardener import Workspace

_NOW = "2026-03-02T10:00"
_NOTE = "memory/2026-03-02.md"


class Soak:
    def __init__(self, root: Path, seconds: float) -> None:
        self.root = root
        self.end = time.monotonic() + seconds
        self.env = {**os.environ, "GARDENER_NOW": _NOW}
        self.noted: list[int] = []
        self.facts: list[int] = []
        self.note_failures: list[str] = []
        self.saves: list[int] = []
        self.stale = 0  # saves made from an older copy
        self.loops = {"promote": [0, 0], "prune": [0, 0], "recall": [0, 0]}
        self.purges: list[tuple[str, int, str]] = []
        self.lock = threading.Lock()

    def gardener(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "gardener", "-w", str(self.root), *args],
            env=self.env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip

    def running(self) -> bool:
        return time.monotonic() < self.end

    def noter(self) -> None:
        n = 0
        while self.running():
            if n % 5 == 4:
                args = ["note", "--kind", "fact", "--key", f"soak key {n}", f"soak value {n}"]  # fmt: skip
            else:
                args = ["note", f"soak note {n} about the build", "--by", "agent1"]
            done = self.gardener(*args)
            with self.lock:
                if done.returncode == 0:
                    (self.facts if n % 5 == 4 else self.noted).append(n)
                else:
                    self.note_failures.append(done.stderr.strip()[-200:])
            n += 1
            time.sleep(0.3)

    def person(self) -> None:
        memory = self.root / "MEMORY.md"
        n, last = 0, ""
        while self.running():
            time.sleep(3)
            if n % 4 == 3:  # saved from the copy read 3 s ago, whatever came since
                text = last
                self.stale += 1
            else:
                text = memory.read_text(encoding="utf-8")
            if not text.endswith("\n"):
                text += "\n"
            last = text + f"hand edit {n}\n"
            temp = memory.with_name(".MEMORY.md.swp")
            temp.write_text(last, encoding="utf-8")
            os.rename(temp, memory)  # as editors save
            self.saves.append(n)
            n += 1

    def maintenance(self) -> None:
        while self.running():
            for verb, args in (("promote", ["promote"]), ("prune", ["prune"]), ("recall", ["recall", "build"])):  # fmt: skip
                done = self.gardener(*args)
                with self.lock:
                    self.loops[verb][done.returncode == 0] += 1
                time.sleep(1)

    def purger(self) -> None:
        k = 0
        while True:
            deadline = time.monotonic() + 60
            if deadline > self.end:
                return
            while time.monotonic() < deadline:
                time.sleep(1)
            name = f"Purgee Person{k}x"
            self.gardener("note", f"call with {name} about the soak")
            time.sleep(2)
            done = self.gardener("purge", name, "--yes", "--by", "soak")
            self.purges.append((name, done.returncode, done.stderr.strip()[-300:]))
            k += 1


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True
    ).stdout


def run(minutes: float, keep: Path | None = None) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        ws, _ = Workspace.init(root, now_override=_NOW)
        ws.note("the soak starts", by="soak")
        soak = Soak(root, minutes * 60)
        appender = subprocess.Popen(
            ["sh", "-c", 'i=0; while :; do echo "- 10:00 soak append $i" >> "$1"; '
             'i=$((i+1)); echo $i > "$2"; sleep 0.3; done', "sh",
             str(root / _NOTE), str(Path(tmp) / "appended")],
        )  # fmt: skip
        watch = subprocess.Popen(
            [sys.executable, "-m", "gardener", "-w", str(root), "watch", "--idle", "5", "--debounce", "0.5"],  # fmt: skip
            env=soak.env, stdout=subprocess.DEVNULL, stderr=open(Path(tmp) / "watch.log", "w"),  # noqa: SIM115
        )  # fmt: skip
        threads = [threading.Thread(target=t) for t in (soak.noter, soak.person, soak.maintenance, soak.purger)]  # fmt: skip
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        appender.send_signal(signal.SIGTERM)
        appender.wait()
        time.sleep(2)
        watch.send_signal(signal.SIGTERM)
        watch.wait(60)
        final = [soak.gardener("record"), soak.gardener("promote")]
        appended = int((Path(tmp) / "appended").read_text().strip() or 0)
        lost = _report(soak, root, appended, final, Path(tmp) / "watch.log")
        if keep is not None and lost:  # the workspace and the watcher's log, to read
            shutil.copytree(tmp, keep, symlinks=True, dirs_exist_ok=True)
            print(f"kept in {keep}")
        return lost


def _report(
    soak: Soak,
    root: Path,
    appended: int,
    final: list[subprocess.CompletedProcess[str]],
    watch_log: Path,
) -> int:
    notes = "".join(p.read_text(encoding="utf-8", errors="replace") for p in (root / "memory").glob("*.md"))  # fmt: skip
    head = _git(root, "show", f"HEAD:{_NOTE}")
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    lost_notes = [n for n in soak.noted if f"soak note {n} about" not in notes]
    lost_appends = [i for i in range(appended) if f"soak append {i}\n" not in notes]
    uncommitted = [n for n in soak.noted if f"soak note {n} about" not in head]
    uncommitted += [i for i in range(appended) if f"soak append {i}\n" not in head]
    lost_hand = [n for n in soak.saves if f"hand edit {n}\n" not in memory]
    lost_facts = [n for n in soak.facts if f"soak value {n}" not in memory.split("## Superseded")[0]]  # fmt: skip
    fsck = subprocess.run(["git", "-C", str(root), "fsck", "--full"], capture_output=True, text=True)  # fmt: skip
    objects = subprocess.run(
        ["git", "-C", str(root), "cat-file", "--batch-all-objects", "--batch"],
        capture_output=True,
    ).stdout
    purged_left = [name for name, code, _ in soak.purges if code == 0 and name.encode() in objects]  # fmt: skip
    print(f"notes through `gardener note`: {len(soak.noted)} lines + {len(soak.facts)} facts ok, {len(soak.note_failures)} refused")  # fmt: skip
    print(f"lines appended with >>: {appended}")
    print(
        f"MEMORY.md saves by rename: {len(soak.saves)}, {soak.stale} of them from a copy read 3 s before"
    )
    print("loops (ok, failed): " + ", ".join(f"{v} {ok}/{bad}" for v, (bad, ok) in soak.loops.items()))  # fmt: skip
    print(f"purges: {len(soak.purges)}, ok {sum(c == 0 for _, c, _ in soak.purges)}")
    print(f"LOST note lines: {len(lost_notes)} {lost_notes[:10]}; appended lines: {len(lost_appends)} {lost_appends[:10]}")  # fmt: skip
    print(f"not committed at the end: {len(uncommitted)} {uncommitted[:10]}")
    print(f"LOST hand edits: {len(lost_hand)} {lost_hand[:10]}")
    print(f"LOST promoted facts: {len(lost_facts)} {lost_facts[:10]}")
    print(f"purged texts still in an object: {purged_left}")
    print(f"git fsck: {'clean' if fsck.returncode == 0 and not fsck.stdout.strip() else fsck.stdout[-500:] + fsck.stderr[-500:]}")  # fmt: skip
    for done in final:
        if done.returncode != 0:
            print(
                f"final {done.args[4:]}: exit {done.returncode}: {done.stderr[-300:]}"
            )
    for name, code, err in soak.purges:
        if code != 0:
            print(f"purge {name}: exit {code}: {err}")
    for err in sorted(set(soak.note_failures))[:5]:
        print(f"note refused: {err}")
    logged = watch_log.read_text(errors="replace").splitlines()
    back = sum("read before promote" in x for x in logged)
    print(f"stale saves whose promoted entries were put back (watch's log): {back}")
    errors = [x for x in logged if "rror" in x][:5]
    for line in errors:
        print(f"watch: {line}")
    lost = (
        lost_notes
        or lost_appends
        or lost_hand
        or lost_facts
        or purged_left
        or fsck.returncode
    )
    return 1 if lost else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument(
        "--keep", type=Path, help="copy the workspace here if anything was lost"
    )
    args = parser.parse_args(argv)
    return run(args.minutes, args.keep)


if __name__ == "__main__":
    raise SystemExit(main())
