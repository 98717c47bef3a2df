"""The figures, each measured against a baseline taken in the same run."""

from __future__ import annotations

import statistics
import subprocess
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import timing
from .generate import Spec
from .table import Row, ms
from .workspaces import Built, add_next_day, build, copy, git

NOTE_LINE = "Mira prefers tabs over spaces"
QUERY = "database"
CJK_QUERY = "数据库"  # a word inside Chinese sentences: found by its bigrams
# Chinese and Japanese lines for the CJK figure: curated MEMORY.md text and
# note entries, numbered so that no two are the same
CJK_LINES = (
    "我们的数据库是 PostgreSQL，备份每天一次",
    "**デプロイ先**: ステージングサーバー",
    "用户喜欢深色模式和大号字体",
    "毎朝九時にスタンドアップミーティング",
    "下周二发布新版本，先在测试环境验证",
    "データベースの移行は金曜日に完了",
    "**语言**：中文",
    "缓存改用本地内存，不再使用 Redis",
)


@dataclass(frozen=True)
class Setup:
    """The run's settings and the workspaces built for it."""

    scratch: Path  # where copies and extra workspaces go
    repeats: int
    facts: int  # keyed facts for the one-pass promote figure
    timeout: float  # seconds before a promote probe is stopped
    day: Built  # 1 day
    year: Built  # "1 y"
    five: Built  # "5 y"
    ten: Built  # "10 y"
    # ``--profile``: also time the phases of one pass per promote row, and
    # keep (figure, report) here for the lines under the table
    profile: bool = False
    profiles: list[tuple[str, str]] = field(default_factory=list)


def span(built: Built) -> str:
    """A workspace's length as people say it: ``1 d``, ``60 d``, ``5 y``."""
    days = built.spec.days
    return f"{days // 365} y" if days % 365 == 0 else f"{days} d"


def _fresh(setup: Setup, built: Built, name: str, warm: bool = False) -> Built:
    return copy(built, setup.scratch / name, warm)


def note(setup: Setup) -> list[Row]:
    """``gardener note`` vs ``python -c pass`` + a shell append and ``git commit``."""
    ws = _fresh(setup, setup.year, "note")
    cmd = [*timing.gardener(), "-w", str(ws.root), "note", NOTE_LINE]
    py, sh, gn = timing.interleave(
        setup.repeats,
        timing.python_pass,
        lambda: timing.shell_commit(ws.root, NOTE_LINE),
        lambda: timing.run(cmd, ws.spec.now),
    )
    base = py + sh
    return [
        Row(
            f"`gardener note`, {span(ws)} workspace",
            f"{ms(base)} (python {ms(py)} + sh append, git commit {ms(sh)})",
            ms(gn),
            gn / base,
            "<= 3x",
            gn / base,
            3.0,
        )
    ]


def _has_recall_all() -> bool:
    out = subprocess.run(
        [*timing.gardener(), "recall", "--help"], capture_output=True, text=True
    )
    return "--all" in out.stdout


def recall(setup: Setup) -> list[Row]:
    """recall on 1 y vs python + search; 10 y / 1 y; recall --all vs search over
    all; a Chinese query (``cjk_recall``)."""
    year, ten = setup.year, setup.ten
    tool, _ = timing.search_tool()
    has_all = _has_recall_all()

    def gardener(ws: Built, *extra: str) -> float:
        cmd = [*timing.gardener(), "-w", str(ws.root), "recall", *extra, QUERY]
        return timing.run(cmd, ws.spec.now)

    # the first recall builds the index (.git/gardener/): timed once, apart
    cold = {}
    for name, ws, extra in (
        ("year", year, ()),
        ("all", ten, ("--all",) if has_all else ()),
    ):
        (ws.root / ".git" / "gardener" / "recall.sqlite3").unlink(missing_ok=True)
        cold[name] = gardener(ws, *extra)
    runs = [
        timing.python_pass,
        lambda: timing.search(QUERY, year.live_notes()),
        lambda: gardener(year),
        lambda: gardener(ten),
        lambda: timing.search(QUERY, ten.all_notes()),
    ]
    if has_all:
        runs.append(lambda: gardener(ten, "--all"))
    py, live, g1, g10, every, *rest = timing.interleave(setup.repeats, *runs)
    base = py + live
    notes = f"{len(year.live_notes())} live notes"
    rows = [
        Row(
            f"`gardener recall`, {span(year)} of notes",
            f"{ms(base)} (python {ms(py)} + {tool} over {notes} {ms(live)})",
            ms(g1),
            g1 / base,
            "<= 3x",
            g1 / base,
            3.0,
        ),
        Row(
            f"recall {span(ten)} / recall {span(year)}",
            f"{span(year)}: {ms(g1)}",
            f"{span(ten)}: {ms(g10)}",
            g10 / g1,
            "<= 1.2x",
            g10 / g1,
            1.2,
        ),
    ]
    whole = f"{tool} over all {len(ten.all_notes())} notes {ms(every)}"
    if has_all:
        rows.append(
            Row(f"`recall --all`, {span(ten)}", whole, ms(rest[0]), rest[0] / every,
                "<= 2x", rest[0] / every, 2.0)
        )  # fmt: skip
        rows.append(
            Row(f"first recall (builds the index): {span(year)} / `--all` {span(ten)}",
                "-", f"{ms(cold['year'])} / {ms(cold['all'])}", None, "-", status="for information")
        )  # fmt: skip
    else:
        rows.append(
            Row(f"`recall --all`, {span(ten)} (plain recall shown)", whole, ms(g10),
                g10 / every, "<= 2x", status="not implemented")
        )  # fmt: skip
    return rows + cjk_recall(setup)


def _cjk_copy(setup: Setup) -> Built:
    """The 1-year workspace with Chinese and Japanese in it: 400 curated lines
    at the head of MEMORY.md (outside the managed block) and four entries
    appended to each live note, committed."""
    ws = _fresh(setup, setup.year, "cjk")
    memory = ws.root / "MEMORY.md"
    head = "".join(f"- {CJK_LINES[i % len(CJK_LINES)]}（{i}）\n" for i in range(400))
    text = memory.read_text(encoding="utf-8")
    title, _, rest = text.partition("\n")
    memory.write_text(f"{title}\n\n## 笔记\n{head}\n{rest}", encoding="utf-8")
    for n, path in enumerate(ws.live_notes()):
        with path.open("a", encoding="utf-8") as note:
            for i in range(4):
                note.write(f"- 21:0{i} {CJK_LINES[(n + i) % len(CJK_LINES)]}\n")
    git(ws.root, "add", "-A")
    git(ws.root, "commit", "-qm", "bench: Chinese and Japanese text")
    return ws


def cjk_recall(setup: Setup) -> list[Row]:
    """recall of a Chinese word on 1 y with zh/ja text vs python + search."""
    ws = _cjk_copy(setup)
    files = [ws.root / "MEMORY.md", *ws.live_notes()]
    tool, _ = timing.search_tool()

    def gardener(query: str) -> float:
        cmd = [*timing.gardener(), "-w", str(ws.root), "recall", query]
        return timing.run(cmd, ws.spec.now)

    cold = gardener(CJK_QUERY)  # builds the index
    py, found, cjk, english = timing.interleave(
        setup.repeats,
        timing.python_pass,
        lambda: timing.search(CJK_QUERY, files),
        lambda: gardener(CJK_QUERY),
        lambda: gardener(QUERY),
    )
    base = py + found
    return [
        Row(
            f"`gardener recall {CJK_QUERY}`, {span(ws)} with zh/ja text",
            f"{ms(base)} (python {ms(py)} + {tool} over MEMORY.md and"
            f" {len(files) - 1} live notes {ms(found)})",
            f"{ms(cjk)} (English query: {ms(english)}; first: {ms(cold)})",
            cjk / base,
            "<= 3x",
            cjk / base,
            3.0,
        )
    ]


def promote_facts(setup: Setup) -> list[Row]:
    """``Workspace.promote()`` over notes holding ``setup.facts`` keyed entries:
    with an explicit kind and key, and as sentences keyed by rules.md's patterns."""
    return [
        _promote_facts(setup, prose=False, target=1.5),
        _promote_facts(setup, prose=True, target=3.0),
    ]


def _promote_facts(setup: Setup, prose: bool, target: float) -> Row:
    per_day = 50
    spec = Spec(
        days=setup.facts // per_day,
        per_day=4,
        keyed=per_day,
        key_pool=setup.facts * 2 // 3,
        days_off=0.0,
        backfill_every=0,
        prose=prose,
    )
    name = "facts-prose" if prose else "facts"
    raw = build(spec, setup.scratch / f"{name}-raw", promote=False)
    seconds: list[float] = []
    rss: list[float] = []
    for n in range(min(setup.repeats, 3)):
        ws = copy(raw, setup.scratch / name)
        got = timing.probe_promote(ws.root, spec.now, setup.timeout)
        if got is None:
            break
        seconds.append(got["seconds"])
        rss.append(got["rss_mb"])
        if n == 0 and got["seconds"] > setup.timeout / 3:
            break  # one slow pass says enough
    how = "facts keyed by sentence patterns" if prose else "keyed facts"
    figure = f"promote {setup.facts:,} {how}, one pass"
    if setup.profile:
        ws = copy(raw, setup.scratch / name)
        setup.profiles.append(
            (figure, timing.probe_phases(ws.root, spec.now, setup.timeout))
        )
    goal = f"<= {target:g} s"
    if not seconds:
        return Row(figure, "-", f"> {setup.timeout:.0f} s (stopped)", None, goal,
                   status="no")  # fmt: skip
    t = statistics.median(seconds)
    return Row(figure, "-", f"{ms(t)} ({statistics.median(rss):.0f} MB)", None,
               goal, t, target)  # fmt: skip


def promote_new_day(setup: Setup) -> list[Row]:
    """Promote one new day on the 5-year workspace vs on the 1-day workspace;
    and, for information, raw git running the commands of such a pass."""

    def one(built: Built, name: str) -> float:
        ws = _fresh(setup, built, name, warm=True)
        got = timing.probe_promote(ws.root, add_next_day(ws), setup.timeout)
        return got["seconds"] if got else float("inf")

    def git_alone(built: Built, name: str) -> float:
        ws = _fresh(setup, built, name)
        now = add_next_day(ws)
        return timing.git_of_a_pass(ws.root, f"memory/{now[:10]}.md")

    # the same five years as prune leaves them with rules.md's note TTL (30 days)
    spec = replace(setup.five.spec, keep_all=False)
    pruned = build(spec, setup.scratch / "five-pruned")
    small, large, kept, git_small, git_large = timing.interleave(
        setup.repeats,
        lambda: one(setup.day, "day-1d"),
        lambda: one(setup.five, "day-5y"),
        lambda: one(pruned, "day-5y-pruned"),
        lambda: git_alone(setup.day, "git-1d"),
        lambda: git_alone(setup.five, "git-5y"),
    )
    ratio = large / small
    # what the ratio would be if the gardener's own work did not grow at all
    floor = (small + git_large - git_small) / small
    return [
        Row(
            f"promote one new day, {span(setup.five)} / {span(setup.day)}",
            f"{span(setup.day)}: {ms(small)}",
            f"{span(setup.five)}: {ms(large)}",
            ratio,
            "<= 1.3x",
            ratio,
            1.3,
        ),
        Row(
            "raw git for the commands of that pass (status, add, commit --only x2)",
            f"{span(setup.day)}: {ms(git_small)}",
            f"{span(setup.five)}: {ms(git_large)} (+{ms(git_large - git_small)}:"
            f" the figure above could not go below {floor:.2f}x)",
            git_large / git_small,
            "-",
            status="for information",
        ),
        Row(
            f"promote one new day, {span(setup.five)} with notes past their TTL"
            f" pruned ({pruned.notes} notes) / {span(setup.day)}",
            f"{span(setup.day)}: {ms(small)}",
            f"{span(setup.five)}: {ms(kept)}",
            kept / small,
            "<= 1.3x",
            kept / small,
            1.3,
        ),
    ]


def peak_rss(setup: Setup) -> list[Row]:
    """Peak RSS of ``gardener promote`` (one new day) and ``recall`` on 10 years."""
    ten = setup.ten
    base = statistics.median(
        timing.peak_rss_mb([timing.PYTHON, "-c", "pass"]) for _ in range(setup.repeats)
    )
    prom, rec, cold = [], [], []
    for _ in range(max(1, setup.repeats // 2)):
        ws = _fresh(setup, ten, "rss")
        now = add_next_day(ws)
        prom.append(
            timing.peak_rss_mb([*timing.gardener(), "-w", str(ws.root), "promote"], now)
        )
        recall = [*timing.gardener(), "-w", str(ten.root), "recall", QUERY]
        rec.append(timing.peak_rss_mb(recall, ten.spec.now))
        # the worst case: --all building the whole index from nothing
        (ws.root / ".git" / "gardener" / "recall.sqlite3").unlink(missing_ok=True)
        every = [*timing.gardener(), "-w", str(ws.root), "recall", "--all", QUERY]
        cold.append(timing.peak_rss_mb(every, now))
    rows = []
    for verb, sample in (
        ("`gardener promote`", prom),
        ("`gardener recall`", rec),
        ("`gardener recall --all` building the index", cold),
    ):
        mb = statistics.median(sample)
        rows.append(
            Row(f"peak RSS, {verb}, {span(ten)}",
                f"python -c pass: {base:.0f} MB", f"{mb:.0f} MB", mb / base,
                "<= 100 MB", mb, 100.0)
        )  # fmt: skip
    return rows


def mcp_start(setup: Setup) -> list[Row]:
    """``gardener mcp``'s start-up on 1 year (see ``bench.serving``)."""
    from .serving import start_up

    return start_up(setup.year, setup.repeats, span(setup.year))


def promote_shapes(setup: Setup) -> list[Row]:
    """Promote on dense notes (committed or not) and on a big MEMORY.md (bench/shapes.py)."""
    from .shapes import promote_shapes as rows

    return rows(setup)


def big_note(setup: Setup) -> list[Row]:
    """Append then promote, and recall, on a 50 MB note (bench/bignote.py)."""
    from .bignote import big_note as rows

    return rows(setup)


def long_line(setup: Setup) -> list[Row]:
    """The never-store check of a 1 MB line vs its lines (bench/longline.py)."""
    from .longline import long_line as rows

    return rows(setup)


FIGURES = (
    note, recall, promote_facts, promote_shapes, promote_new_day, peak_rss, mcp_start,
    big_note, long_line,
)  # fmt: skip
