"""Config: the settings rules.md gives, with their defaults, and how they are
cached as JSON values. Pure.

Parsing rules.md's front matter is ``gardener.formats.rules``; reading it from
disk, and the cache of parsed settings, is ``gardener.store.settings``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from gardener.model.facts import normalize_key
from gardener.model.kinds import DURABLE_KINDS


@dataclass(frozen=True)
class Config:
    """What rules.md says. Days are whole days; times are local to ``timezone``."""

    timezone: str = "UTC"  # IANA name
    memory_file: str = "MEMORY.md"
    notes_dir: str = "memory"
    note_ttl_days: int = 30
    # days past the TTL a note holding undecided entries waits for a judge
    review_grace_days: int = 14
    superseded_retention_days: int = 90
    # who places what the rules cannot (docs/design.md, The judge): "agent"
    # (entries wait in `gardener review`), "llm" (a model through the llm
    # library, during promote) or "none" (the rules' verdict is final)
    judge: str = "agent"
    # "undecided": the judge sees what the rules left open or keyed with low
    # confidence; "all": every entry the rules would file waits for it too
    judge_scope: str = "undecided"
    judge_model: str = ""  # an llm model id or alias; "" is llm's default model
    judge_batch: int = 20  # entries per model prompt
    judge_limit: int = 60  # entries sent to the model per pass
    judge_timeout_s: int = 60  # seconds one prompt may take
    memory_budget_chars: int = 12000
    max_loss: float = 0.25  # share of current entries one pass may remove
    durable_kinds: tuple[str, ...] = DURABLE_KINDS
    durable_cues: tuple[str, ...] = ()
    transient_cues: tuple[str, ...] = ()
    correction_cues: tuple[str, ...] = ()
    kind_cues: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    headings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    topics: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    patterns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    multi_valued: tuple[str, ...] = ()
    never_store: tuple[tuple[str, str], ...] = ()  # (name, regex)
    allow: tuple[str, ...] = ()  # regexes
    # the built-in lexicons read on top of the lists above (gardener.lexicon)
    languages: tuple[str, ...] = ("en", "zh", "ja", "de", "fr", "es", "ru")

    @property
    def zone(self) -> ZoneInfo:
        """``timezone`` as a ZoneInfo. Raises ZoneInfoNotFoundError or
        ValueError for an unknown name."""
        return ZoneInfo(self.timezone)


# the settings by the shape rules.md writes them in (see gardener.formats.rules)
INT_SETTINGS = (
    "note_ttl_days",
    "review_grace_days",
    "superseded_retention_days",
    "memory_budget_chars",
    "judge_batch",
    "judge_limit",
    "judge_timeout_s",
)
STR_SETTINGS = ("timezone", "memory_file", "notes_dir")
# settings that take one of a few words: name -> the words
CHOICE_SETTINGS = {
    "judge": ("agent", "llm", "none"),
    "judge_scope": ("undecided", "all"),
}
LIST_SETTINGS = (
    "durable_kinds",
    "durable_cues",
    "transient_cues",
    "correction_cues",
    "multi_valued",
    "allow",
    "languages",
)
MAP_SETTINGS = ("kind_cues", "headings", "topics", "patterns")
SETTINGS = tuple(Config.__dataclass_fields__)  # every setting's name


def multi_valued(key: str, config: Config) -> bool:
    """Whether ``key``'s attribute (its last ``/`` part) may hold several
    values at once (rules.md ``multi_valued``): each one adds, none replaces."""
    attribute = normalize_key(key).split(" / ")[-1]
    return attribute in _normalized(config.multi_valued)


@lru_cache(maxsize=16)
def _normalized(attributes: tuple[str, ...]) -> frozenset[str]:
    return frozenset(normalize_key(a) for a in attributes)


def as_values(config: Config) -> dict[str, object]:
    """The settings as JSON-able values (name -> value), as cached."""
    return dataclasses.asdict(config)


def from_values(values: Mapping[str, object]) -> Config | None:
    """``as_values`` read back from JSON (lists where Config holds tuples);
    None if they do not fit Config."""
    raw: dict[str, Any] = dict(values)
    raw.pop("note_headings", None)  # derived for ``gardener note`` (store.settings)
    try:
        for name in LIST_SETTINGS:
            raw[name] = tuple(raw[name])
        for name in MAP_SETTINGS:
            raw[name] = {k: tuple(v) for k, v in raw[name].items()}
        raw["never_store"] = tuple(tuple(pair) for pair in raw["never_store"])
        return Config(**raw)
    except (KeyError, TypeError, AttributeError, ValueError):
        return None
