"""The options of ``note`` and ``recall``, declared once (no click here).

The click commands build their decorators from these tables
(``gardener.cli.common.verb_options``) and the fast entry reads argv with them
(``gardener.cli.fast``), so both read a command line the same way.
"""

from __future__ import annotations

from gardener.model.kinds import KINDS

# the fast entry imports this: no typing, pathlib or dataclasses here
TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from collections.abc import Sequence


class Option:
    """One option: its flag (``--name``), the keyword it fills, its help.

    ``switch``: takes no value (True when given). ``minimum``: an int of at
    least this. ``fast``: the fast entry takes it; a line with any other
    option goes to click.
    """

    def __init__(
        self,
        flag: str,
        keyword: str,
        help: str | None = None,
        *,
        switch: bool = False,
        metavar: str | None = None,
        default: int | None = None,
        minimum: int | None = None,
        fast: bool = True,
    ) -> None:
        self.flag = flag
        self.keyword = keyword
        self.help = help
        self.switch = switch
        self.metavar = metavar
        self.default = default
        self.minimum = minimum
        self.fast = fast


class Verb:
    """A verb's one argument (``required`` or not) and its options, in help order."""

    def __init__(
        self, argument: str, options: Sequence[Option], required: bool = True
    ) -> None:
        self.argument = argument
        self.options = options
        self.required = required


JSON = Option("--json", "as_json", "Print one JSON document on stdout.", switch=True)

NOTE = Verb(
    "text",
    (
        Option(
            "--kind",
            "kind",
            f"{', '.join(KINDS[:-1])} or {KINDS[-1]}.",
        ),
        Option(
            "--key",
            "key",
            "What the entry is about; two entries with one key are two values of"
            " one fact.",
        ),
        Option("--source", "source", "Where the fact comes from."),
        Option("--by", "by", "Who writes it (agent or person); the commit's author."),
        Option(
            "--expires",
            "expires",
            "The day the entry stops being true.",
            metavar="YYYY-MM-DD",
        ),
        Option(
            "--date",
            "day",
            "The note's day (default: today in the rules' timezone).",
            metavar="YYYY-MM-DD",
        ),
        Option(
            "--time", "time", "When it became true (default: now).", metavar="HH:MM"
        ),
        JSON,
    ),
)

RECALL = Verb(
    "query",
    (
        Option(
            "--key",
            "key",
            "Look one fact up exactly (case- and space-insensitive).",
            fast=False,
        ),
        Option(
            "--as-of",
            "as_of",
            "What was valid then: YYYY-MM-DD (that whole day) or YYYY-MM-DDTHH:MM.",
            metavar="DATE",
            fast=False,
        ),
        Option(
            "--all",
            "everything",
            "Search the whole history: every note on disk, however old, and "
            "superseded, retired and expired entries too.",
            switch=True,
        ),
        Option("--limit", "limit", default=10, minimum=1),
        JSON,
    ),
    required=False,
)
