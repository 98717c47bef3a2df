"""The results table: one Row per figure, printed as text or written as Markdown."""

from __future__ import annotations

from dataclasses import dataclass

HEADER = ("figure", "baseline", "measured", "ratio", "target", "met?")


@dataclass(frozen=True)
class Row:
    """One figure. ``limit`` is compared with ``value`` (a ratio, seconds or MB)."""

    figure: str
    baseline: str
    measured: str
    ratio: float | None
    target: str
    value: float | None = None
    limit: float | None = None
    status: str | None = None  # overrides the yes/no verdict ("not implemented")

    @property
    def met(self) -> str:
        if self.status:
            return self.status
        if self.value is None or self.limit is None:
            return "n/a"
        return "yes" if self.value <= self.limit else "no"

    def cells(self) -> tuple[str, ...]:
        ratio = "" if self.ratio is None else f"{self.ratio:.2f}x"
        return (self.figure, self.baseline, self.measured, ratio, self.target, self.met)


def ms(seconds: float) -> str:
    """Seconds as a short human figure: ``12.3 ms`` or ``1.42 s``."""
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def text(rows: list[Row]) -> str:
    """A plain-text table with aligned columns."""
    lines = [HEADER, *(r.cells() for r in rows)]
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADER))]
    out = []
    for n, line in enumerate(lines):
        out.append(" | ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)))
        if n == 0:
            out.append("-+-".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in out)


def markdown(rows: list[Row], notes: list[str]) -> str:
    """A Markdown table, with the run's notes (machine, sizes, tools) below it."""
    esc = [tuple(c.replace("|", "\\|") for c in r.cells()) for r in rows]
    out = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    out += ["| " + " | ".join(cells) + " |" for cells in esc]
    return "\n".join([*out, "", *notes]) + "\n"
