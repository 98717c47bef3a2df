"""Settings from rules.md front matter, over the defaults of the shipped rules.md.

rules.md is read with YAML's BaseLoader, so every scalar arrives as a string;
numbers are converted here, with an error naming the file and line when one
is not a number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from gardener.errors import ConfigError
from gardener.store import settings as rulecache

TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from typing import Any
    from zoneinfo import ZoneInfo


def packaged(name: str) -> Path:
    """A file shipped with the gardener (``rules.md``, ``memory``); see
    ``rulecache.packaged``."""
    return Path(rulecache.packaged(name))


@dataclass(frozen=True)
class Config:
    """What rules.md says. Days are whole days; times are local to ``timezone``."""

    timezone: str = "UTC"  # IANA name
    memory_file: str = "MEMORY.md"
    notes_dir: str = "memory"
    note_ttl_days: int = 30
    superseded_retention_days: int = 90
    memory_budget_chars: int = 12000
    max_loss: float = 0.25  # share of current entries one pass may remove
    durable_kinds: tuple[str, ...] = ("identity", "preference", "decision", "fact")
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

    @property
    def zone(self) -> ZoneInfo:
        """``timezone`` as a ZoneInfo. Raises ZoneInfoNotFoundError or
        ValueError for an unknown name."""
        from zoneinfo import ZoneInfo  # ~4 ms: not at import, a note may not need it

        return ZoneInfo(self.timezone)


_INTS = ("note_ttl_days", "superseded_retention_days", "memory_budget_chars")
_STRS = ("timezone", "memory_file", "notes_dir")
_LISTS = (
    "durable_kinds",
    "durable_cues",
    "transient_cues",
    "correction_cues",
    "multi_valued",
    "allow",
)
_MAPS = ("kind_cues", "headings", "topics", "patterns")


def unknown_settings(text: str) -> list[tuple[str, int | None, str | None]]:
    """The top-level names in rules.md's front matter (``text``: the whole
    file) that are no setting of ``Config``, as ``(name, line in the file,
    closest known name or None)``, in the order written.

    ``parse_rules`` passes over such a name (a bad rules.md must not stop a
    note or a recall), so the defaults stay in force: ``gardener check``
    reports them instead. Returns [] for no front matter or front matter
    that is not a YAML mapping (``parse_rules`` says what is wrong then).
    """
    from difflib import get_close_matches

    from gardener.formats.dailynote import load_front_matter, split_front_matter

    yaml_text, _ = split_front_matter(text)
    data = load_front_matter(yaml_text) if yaml_text is not None else None
    if not isinstance(data, Mapping):
        return []
    known = list(Config.__dataclass_fields__)
    found: list[tuple[str, int | None, str | None]] = []
    for name in data:
        if name in known:
            continue
        where = _line_of(yaml_text or "", str(name))
        close = get_close_matches(str(name), known, n=1, cutoff=0.7)
        # the front matter starts on the file's second line, after "---"
        found.append(
            (str(name), where + 1 if where else None, close[0] if close else None)
        )
    return found


def _line_of(text: str, name: str) -> int | None:
    m = re.search(rf"^{re.escape(name)}\s*:", text, re.MULTILINE)
    return text.count("\n", 0, m.start()) + 1 if m else None


def _strings(value: object) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(str(v) for v in value if isinstance(v, str) and v.strip())
    raise TypeError("expected a string or a list of strings")


def _check_templates(patterns: Mapping[str, tuple[str, ...]]) -> None:
    """Each template uses {subject}, {key} and {value} at most once, and {value} once."""
    for attribute, templates in patterns.items():
        for template in templates:
            names = re.findall(r"\{(\w+)\}", template)
            unknown = sorted(set(names) - {"subject", "key", "value"})
            if unknown:
                raise ValueError(
                    f"{attribute}: unknown placeholder {{{unknown[0]}}} in {template!r}"
                )
            if names.count("value") != 1 or len(names) != len(set(names)):
                raise ValueError(
                    f"{attribute}: {template!r} needs exactly one {{value}} and no placeholder twice"
                )


def parse_rules(
    text: str, path: str = "rules.md", base: Config | None = None
) -> Config:
    """Settings from rules.md text, each missing one taken from ``base``.

    Raises ConfigError (file and line) for a number that is not one, an
    unknown timezone, a list or mapping of the wrong shape, or a bad regex.
    """
    base = base or Config()
    from gardener.formats.dailynote import (  # YAML: only on a cache miss
        load_front_matter,
        split_front_matter,
    )

    yaml_text, _ = split_front_matter(text)
    data = load_front_matter(yaml_text) if yaml_text is not None else {}
    if data is None:
        raise ConfigError("front matter is not valid YAML", path, 1)
    values: dict[str, object] = {}
    for name, raw in data.items():
        where = _line_of(text, name)
        try:
            if name in _INTS:
                values[name] = int(str(raw))
                if name.endswith("_days") and values[name] > 36500:  # type: ignore[operator]
                    raise ValueError("expected at most 36500 days (100 years)")
                if values[name] < 0:  # type: ignore[operator]
                    raise ValueError
            elif name == "max_loss":
                values[name] = float(str(raw))
                if not 0 <= values[name] <= 1:  # type: ignore[operator]
                    raise ValueError("expected a share between 0 and 1")
            elif name in _STRS:
                if not isinstance(raw, str) or not raw.strip():
                    raise TypeError("expected a string")
                values[name] = raw.strip()
                if name != "timezone" and (
                    raw.strip().startswith("/") or ".." in raw.strip().split("/")
                ):
                    raise ValueError("expected a path inside the workspace")
            elif name in _LISTS:
                values[name] = tuple(s.strip() for s in _strings(raw))
            elif name in _MAPS:
                if raw in ("", None):
                    values[name] = {}
                    continue
                if not isinstance(raw, dict):
                    raise TypeError("expected a mapping of name: list")
                values[name] = {
                    str(k).strip(): tuple(s.strip() for s in _strings(v))
                    for k, v in raw.items()
                }
                if name == "patterns":
                    _check_templates(values[name])  # type: ignore[arg-type]
            elif name == "never_store":
                if raw in ("", None):
                    continue
                if not isinstance(raw, dict):
                    raise TypeError("expected a mapping of name: regex")
                pairs = tuple((str(k), str(v)) for k, v in raw.items())
                for _, pattern in pairs:
                    re.compile(pattern)
                values[name] = pairs
        except (TypeError, ValueError, re.error) as exc:
            detail = str(exc) or "expected a non-negative number"
            raise ConfigError(
                f"setting {name!r}: {detail} (got {raw!r})", path, where
            ) from exc
    for pattern in values.get("allow", ()):  # type: ignore[attr-defined]
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ConfigError(
                f"allow pattern {pattern!r}: {exc}", path, _line_of(text, "allow")
            ) from exc
    fields = {name: getattr(base, name) for name in Config.__dataclass_fields__}
    fields.update(values)
    config = Config(**fields)
    try:
        _ = config.zone
    except (KeyError, ValueError) as exc:  # ZoneInfoNotFoundError is a KeyError
        raise ConfigError(
            f"unknown timezone {config.timezone!r}; use an IANA name such as Europe/Berlin",
            path,
            _line_of(text, "timezone"),
        ) from exc
    return config


_DEFAULT: Config | None = None


def default_config() -> Config:
    """The settings of the shipped rules.md (read once per process)."""
    global _DEFAULT
    if _DEFAULT is None:
        source = packaged("rules.md")
        _DEFAULT = (
            parse_rules(source.read_text(encoding="utf-8-sig"), str(source))
            if source.exists()
            else Config()
        )
    return _DEFAULT


def load(root: Path) -> Config:
    """The workspace's settings: its rules.md over the shipped defaults.

    The parsed settings are cached (``gardener.store.settings``), because parsing
    YAML costs ~30 ms of every ``gardener note``. Raises ConfigError for a
    rules.md that is not UTF-8 or holds a bad setting (file and line named).
    """
    raw = rulecache.rules_bytes(root)
    key = rulecache.cache_key(raw)
    cached = rulecache.read(root, key)
    if cached is not None:
        config = from_values(cached)
        if config is not None:
            return config
    if raw is None:
        config = default_config()
    else:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ConfigError("rules.md is not UTF-8 text", "rules.md") from exc
        config = parse_rules(text, "rules.md", default_config())
    rulecache.write(root, key, as_values(config))
    return config


def as_values(config: Config) -> dict[str, object]:
    """The settings as JSON-able values (name -> value), as cached."""
    import dataclasses

    return dataclasses.asdict(config)


def from_values(values: Mapping[str, object]) -> Config | None:
    """``as_values`` read back from JSON (lists where Config holds tuples);
    None if they do not fit Config."""
    raw: dict[str, Any] = dict(values)
    try:
        for name in _LISTS + ("durable_kinds",):
            raw[name] = tuple(raw[name])
        for name in _MAPS:
            raw[name] = {k: tuple(v) for k, v in raw[name].items()}
        raw["never_store"] = tuple(tuple(pair) for pair in raw["never_store"])
        return Config(**raw)
    except (KeyError, TypeError, AttributeError, ValueError):
        return None
