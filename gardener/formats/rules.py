"""Parse rules.md's YAML front matter into a ``Config`` (pure).

rules.md is read with YAML's BaseLoader, so every scalar arrives as a string;
numbers are converted here, with an error naming the file and line when one
is not a number. Loading the file, and caching what it gives, is
``gardener.store.settings``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from difflib import get_close_matches

from gardener.errors import ConfigError
from gardener.formats.backtrack import risky
from gardener.formats.dailynote import load_front_matter, split_front_matter
from gardener.model.config import (
    CHOICE_SETTINGS,
    INT_SETTINGS,
    LIST_SETTINGS,
    MAP_SETTINGS,
    SETTINGS,
    STR_SETTINGS,
    Config,
)

_UNSET = object()  # a setting written empty that keeps its default
_AT_LEAST_A_DAY = ("note_ttl_days", "superseded_retention_days")
# git's folder and the gardener's state folder (gardener.files.layout.STATE_DIR):
# a memory_file or notes_dir there would be written into them
_RESERVED = (".git", ".gardener")


def unknown_settings(text: str) -> list[tuple[str, int | None, str | None]]:
    """The top-level names in rules.md's front matter (``text``: the whole
    file) that are no setting of ``Config``, as ``(name, line in the file,
    closest known name or None)``, in the order written.

    ``parse_rules`` passes over such a name (a bad rules.md must not stop a
    note or a recall), so the defaults stay in force: ``gardener check``
    reports them instead. Returns [] for no front matter or front matter
    that is not a YAML mapping (``parse_rules`` says what is wrong then).
    """
    yaml_text, _ = split_front_matter(text)
    data = load_front_matter(yaml_text) if yaml_text is not None else None
    if not isinstance(data, Mapping):
        return []
    known = list(SETTINGS)
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


def _check_path(name: str, path: str) -> None:
    """Raise ValueError for a memory_file or notes_dir outside the workspace,
    inside git's folder or the gardener's state folder, or one that is rules.md
    or the workspace itself: the gardener would write into them."""
    parts = [
        part for part in path.replace("\\", "/").split("/") if part not in ("", ".")
    ]
    if (
        path.startswith(("/", "\\"))
        or ".." in parts
        or (len(path) > 1 and path[1] == ":")
    ):
        raise ValueError("expected a path inside the workspace")
    if any(part.casefold() in _RESERVED for part in parts):
        raise ValueError("expected a path outside .git and .gardener")
    if not parts:
        raise ValueError(
            "expected a folder or file inside the workspace, not the workspace"
        )
    if name == "memory_file" and parts == ["rules.md"]:
        raise ValueError("expected a file other than rules.md")


def _check_pattern(name: str, pattern: str) -> None:
    """Raise re.error for a pattern that does not compile, ValueError for one
    that can backtrack exponentially (it runs on every line agents write)."""
    re.compile(pattern)
    if risky(pattern):
        raise ValueError(
            f"{name + ' ' if name else ''}can take exponential time on some text"
            " (a repeat inside a repeat that can match the same characters, such"
            " as (a+)+); make the inner part match one way, e.g. (?:[a-z]+ )+"
        )


def _setting(name: str, raw: object) -> object:
    """The value of setting ``name`` written as ``raw``; ``_UNSET`` for an
    unknown name or one written empty that keeps its default. Raises
    TypeError, ValueError or re.error for a value of the wrong shape."""
    if name in INT_SETTINGS:
        number = int(str(raw))
        if name.endswith("_days") and number > 36500:
            raise ValueError("expected at most 36500 days (100 years)")
        if number < 0:
            raise ValueError
        if number < 1 and name in _AT_LEAST_A_DAY:
            # 0 would delete every note (or every superseded entry) in the
            # next pass, which watch runs at start: see docs/design.md, Pruning
            raise ValueError("expected at least 1 day")
        return number
    if name == "max_loss":
        share = float(str(raw))
        if not 0 <= share <= 1:
            raise ValueError("expected a share between 0 and 1")
        return share
    if name in CHOICE_SETTINGS:
        word = str(raw).strip().casefold()
        if word not in CHOICE_SETTINGS[name]:
            raise ValueError(f"expected one of {', '.join(CHOICE_SETTINGS[name])}")
        return word
    if name == "judge_model":
        return "" if raw is None else str(raw).strip()
    if name in STR_SETTINGS:
        if not isinstance(raw, str) or not raw.strip():
            raise TypeError("expected a string")
        if name != "timezone":
            _check_path(name, raw.strip())
        return raw.strip()
    if name in LIST_SETTINGS:
        return tuple(s.strip() for s in _strings(raw))
    if name in MAP_SETTINGS:
        if raw in ("", None):
            return {}
        if not isinstance(raw, dict):
            raise TypeError("expected a mapping of name: list")
        mapping = {
            str(k).strip(): tuple(s.strip() for s in _strings(v))
            for k, v in raw.items()
        }
        if name == "patterns":
            _check_templates(mapping)
        return mapping
    if name == "never_store":
        if raw in ("", None):
            return _UNSET
        if not isinstance(raw, dict):
            raise TypeError("expected a mapping of name: regex")
        pairs = tuple((str(k), str(v)) for k, v in raw.items())
        for rule, pattern in pairs:
            _check_pattern(f"{rule}: {pattern!r}", pattern)
        return pairs
    return _UNSET


def parse_rules(
    text: str, path: str = "rules.md", base: Config | None = None
) -> Config:
    """Settings from rules.md text, each missing one taken from ``base``.

    Raises ConfigError (file and line) for a number that is not one, an
    unknown timezone, a list or mapping of the wrong shape, or a bad regex.
    """
    base = base or Config()
    yaml_text, _ = split_front_matter(text)
    data = load_front_matter(yaml_text) if yaml_text is not None else {}
    if data is None:
        raise ConfigError("front matter is not valid YAML", path, 1)
    values: dict[str, object] = {}
    for name, raw in data.items():
        try:
            value = _setting(name, raw)
        except (TypeError, ValueError, re.error) as exc:
            detail = str(exc) or "expected a non-negative number"
            raise ConfigError(
                f"setting {name!r}: {detail} (got {raw!r})", path, _line_of(text, name)
            ) from exc
        if value is not _UNSET:
            values[name] = value
    for pattern in values.get("allow", ()):  # type: ignore[attr-defined]
        try:
            _check_pattern("", pattern)
        except (re.error, ValueError) as exc:
            raise ConfigError(
                f"allow pattern {pattern!r}: {exc}", path, _line_of(text, "allow")
            ) from exc
    fields = {name: getattr(base, name) for name in SETTINGS}
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
