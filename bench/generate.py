"""Deterministic daily notes that read like an agent's: the benchmark's workload.

``write_notes(spec, folder)`` writes ``spec.days`` days of ``memory/`` notes ending
on ``spec.end``: front matter on most days, dated and worded headings, explicit
and inferred kinds, keys whose values change over time, corrections, back-filled
notes for earlier days, transient chatter, todos, nested bullets and long lines.
The same spec and seed always give the same bytes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

PEOPLE = ("Mira", "Jonas", "Priya", "Tomas", "Ines", "Kofi", "Lena", "Arjun")
PROJECTS = ("tidepool", "seachart", "kelp", "driftwood", "anchor", "lagoon")
CITIES = ("Lisbon", "Porto", "Berlin", "Accra", "Pune", "Leeds", "Lyon", "Oslo")
EMPLOYERS = ("Saltmarsh Labs", "Brightwater", "Northwind", "Fathom Co", "Tidewell")
# keys the shipped rules.md knows as topics: an entry naming one of these words is keyed
TOPICS = {
    "database": ("Postgres", "SQLite", "MySQL", "DuckDB"),
    "deploy target": ("Railway", "Fly.io", "Hetzner", "Render"),
    "editor": ("Neovim", "Helix", "VS Code", "Emacs"),
    "test runner": ("pytest", "unittest", "ward"),
    "ci": ("GitHub Actions", "Woodpecker", "Buildkite"),
    "cache": ("Redis", "Valkey", "Memcached"),
}
PREFERENCES = {
    "indentation": ("tabs", "spaces"),
    "commit style": ("conventional commits", "short imperative subjects"),
    "theme": ("dark mode", "light mode"),
    "review style": ("small PRs", "one PR per feature"),
}
CHATTER = (
    "deployed {project} {version} to staging",
    "right now I'm looking at the flaky test in test_{project}_sync",
    "ran the nightly backup check for {project}; all green",
    "today: pairing with {person} on the {project} importer",
    "blocked on review from {person} for the {project} schema change",
    "meeting with {person} about the {project} roadmap, notes in the doc",
    "currently debugging a slow query on the {project} observations table",
    "restarted the {project} worker after the memory alarm",
)
TODOS = (
    "write the migration for {project} photos",
    "ask {person} about the {project} release date",
    "update the {project} README with the new setup steps",
    "[ ] bump dependencies in {project}",
    "[x] rotate the {project} staging logs",
)
WHY = (
    "why: one user at a time, and a backup is a file copy",
    "{person}: it keeps the moving parts down",
    "revisit when {project} has more than one writer",
)
LONG = (
    "long write-up of the {project} incident: the import job read the whole survey "
    "archive into memory, the worker was killed, the retry did the same, and the queue "
    "backed up for an hour before anyone noticed; next time the job streams the archive "
    "in pages of five hundred rows, logs progress every page, and the alarm fires after "
    "ten minutes instead of sixty, which {person} agreed to look at after the {version} "
    "release"
)


@dataclass(frozen=True)
class Spec:
    """What to generate: ``days`` days ending on ``end``, about ``per_day`` entries a day.

    ``keyed`` extra keyed durable entries a day draw from ``key_pool`` keys (for
    the many-facts workload), written with an explicit kind, or with
    ``prose`` as plain sentences that rules.md's patterns key; ``keep_all`` keeps every note (history) instead of
    only those within ``ttl_days`` once promoted (what prune would leave).
    ``promoted_days``: only the last so many days go through the setup promote;
    older entries count as processed (see ``workspaces.build``).
    """

    days: int
    per_day: int = 12
    keyed: int = 0
    key_pool: int = 12_000
    seed: int = 7
    end: date = date(2026, 6, 30)
    keep_all: bool = True
    ttl_days: int = 30
    promoted_days: int | None = None
    days_off: float = 0.1  # share of days without a note
    backfill_every: int = 25  # days between back-filled notes; 0 for none
    prose: bool = False  # keyed facts as sentences, no kind and no **key**
    label: str = field(default="", compare=False)

    @property
    def start(self) -> date:
        return self.end - timedelta(days=self.days - 1)

    @property
    def now(self) -> str:
        """GARDENER_NOW for this workspace: the evening of its last day."""
        return f"{self.end.isoformat()}T20:00"


class _Writer:
    """Keeps what is currently true, so that later entries change and correct it."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.rng = random.Random(spec.seed)
        self.values: dict[str, str] = {}
        self.counter = 0

    def pick(self, options: tuple[str, ...]) -> str:
        return self.rng.choice(options)

    def fill(self, template: str) -> str:
        return template.format(
            person=self.pick(PEOPLE),
            project=self.pick(PROJECTS),
            version=f"v{self.rng.randint(0, 4)}.{self.rng.randint(0, 30)}",
        )

    def change(self, key: str, options: tuple[str, ...]) -> str:
        """A value for ``key`` different from its current one."""
        now = self.values.get(key)
        value = self.pick(tuple(o for o in options if o != now) or options)
        self.values[key] = value
        return value

    def durable(self, stamp: str) -> tuple[str, str]:
        """One durable entry (section, line): explicit or inferred kind and key."""
        roll = self.rng.random()
        person = self.pick(PEOPLE)
        if roll < 0.25:
            key = self.pick(tuple(TOPICS))
            value = self.change(key, TOPICS[key])
            return "Decisions", f"{stamp}decision: **{key}**: {value}"
        if roll < 0.4:
            key = self.pick(tuple(TOPICS))
            value = self.change(key, TOPICS[key])
            return "Decisions", f"{stamp}we decided to go with {value} for the {key}"
        if roll < 0.55:
            key = self.pick(tuple(PREFERENCES))
            value = self.change(f"{person}/{key}", PREFERENCES[key])
            if roll < 0.48:
                return "Preferences", f"{stamp}pref: **{person} / {key}**: {value}"
            return "Preferences", f"{stamp}{person} prefers {value} ({key})"
        if roll < 0.7:
            city = self.change(f"{person}/city", CITIES)
            return "Facts", f"{stamp}fact: {person} is based in {city}"
        if roll < 0.8:
            job = self.change(f"{person}/job", EMPLOYERS)
            return "Facts", f"{stamp}{person} works at {job}"
        if roll < 0.9:
            project = self.pick(PROJECTS)
            version = self.change(f"{project}/v", tuple(f"1.{n}" for n in range(40)))
            return "Facts", f"{stamp}fact: **{project} version**: {version}"
        key = self.pick(tuple(TOPICS))
        old, value = self.values.get(key), self.change(key, TOPICS[key])
        return "Decisions", (
            f"{stamp}correction: **{key}**: {value} (I misread it, it was never {old})"
        )

    def keyed_fact(self, stamp: str) -> str:
        """One fact on a large key space (accounts' list prices and owners)."""
        n = self.rng.randrange(self.spec.key_pool)
        self.counter += 1
        if self.spec.prose:
            if n % 2:
                price = f"{100 + self.counter % 9000} EUR"
                return f"{stamp}the list price of account {n:05d} is {price}"
            owner = f"{self.pick(PEOPLE)} ({self.counter % 97})"
            return f"{stamp}account {n:05d} is owned by {owner}"
        if n % 2:
            price = f"{100 + self.counter % 9000} EUR"
            return f"{stamp}fact: **account {n:05d} / list price**: {price}"
        owner = f"{self.pick(PEOPLE)} ({self.counter % 97})"
        return f"{stamp}fact: the owner of account {n:05d} is {owner}"

    def transient(self, stamp: str) -> tuple[str, str]:
        roll = self.rng.random()
        if roll < 0.55:
            return "Log", stamp + self.fill(self.pick(CHATTER))
        if roll < 0.65:
            return "Log", stamp + self.fill(LONG)
        if roll < 0.9:
            return "Todo", self.fill(self.pick(TODOS))
        return "Now", f"now: {self.fill('reviewing {person} on the {project} export')}"

    def day(self, day: date, recorded: date | None = None) -> str:
        """The text of one day's note (a back-fill when ``recorded`` is given)."""
        rng = self.rng
        count = max(1, int(rng.gauss(self.spec.per_day, self.spec.per_day / 4)))
        span, wanted = range(8 * 60, 20 * 60), count + self.spec.keyed
        # a dense note (over 720 entries a day) shares minutes between entries
        minutes = sorted(
            rng.sample(span, wanted)
            if wanted <= len(span)
            else rng.choices(span, k=wanted)
        )
        sections: dict[str, list[str]] = {}
        for i, minute in enumerate(minutes):
            stamp = (
                f"{minute // 60:02d}:{minute % 60:02d} " if rng.random() < 0.8 else ""
            )
            if i < self.spec.keyed:
                section, line = "Facts", self.keyed_fact(stamp)
            elif rng.random() < 0.35:
                section, line = self.durable(stamp)
            else:
                section, line = self.transient(stamp)
            item = [f"- {line}"]
            if section == "Decisions" and rng.random() < 0.5:
                item.append("    - " + self.fill(self.pick(WHY)))
                if rng.random() < 0.3:
                    item.append("        - " + self.fill("see the {project} thread"))
            sections.setdefault(section, []).extend(item)
        head = []
        if recorded or rng.random() < 0.7:
            head = [
                "---",
                f"date: {day.isoformat()}",
                f"agent: {self.pick(('atlas', 'rook'))}",
            ]
            head += [f"recorded: {recorded.isoformat()}"] if recorded else []
            head.append("---")
        title = (
            f"# {day.isoformat()}" if rng.random() < 0.6 else day.strftime("# %A %d %B")
        )
        body = [title, ""]
        if recorded:
            body += [f"Written up on {recorded.isoformat()} from the chat log.", ""]
        for section, lines in sections.items():
            body += [f"## {section}", *lines, ""]
        return "\n".join(head + body)


def write_notes(spec: Spec, root: Path) -> list[Path]:
    """Write the spec's notes into ``root/memory``; return them, oldest first.

    About one day in ten has no note (``days_off``); the last day always has one.
    Every 25th day (``backfill_every``) a back-filled note for the day two weeks
    earlier is written too.
    """
    writer = _Writer(spec)
    folder = root / "memory"
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for offset in range(spec.days):
        day = spec.start + timedelta(days=offset)
        last = offset == spec.days - 1
        if not last and writer.rng.random() < spec.days_off:
            continue
        path = folder / f"{day.isoformat()}.md"
        path.write_text(writer.day(day) + "\n", encoding="utf-8")
        written.append(path)
        every = spec.backfill_every
        if every and offset >= 14 and offset % every == 0:
            earlier = day - timedelta(days=14)
            back = folder / f"{earlier.isoformat()}-backfill.md"
            back.write_text(writer.day(earlier, recorded=day) + "\n", encoding="utf-8")
            written.append(back)
    return sorted(written)


def new_day_note(spec: Spec, day: date) -> str:
    """A note for ``day`` (after the spec's end), worded like the others."""
    writer = _Writer(Spec(days=1, per_day=spec.per_day, seed=spec.seed + 1, end=day))
    return writer.day(day) + "\n"
