"""The workspace's settings from disk (``load``), and the cache of parsed
settings: ``.git/gardener/config.json``.

Parsing rules.md's YAML front matter costs ~30 ms of every command, so
``load`` keeps what it parsed here. The key is the text of the workspace's
rules.md and of the shipped one (a few KB: comparing them is cheaper than
hashing, and a copied or cloned workspace still hits) and the version of the
modules that make a ``Config`` of it, by their stat. Values are stored as
JSON gives them back (lists where ``Config`` holds tuples).

Nothing heavy is imported here: ``gardener note`` and a warm ``gardener
recall`` read the few settings they need from this cache without building a
``Config`` (``gardener.model.config`` and ``gardener.formats.rules`` are
imported only to parse or build one).
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from collections.abc import Mapping

    from gardener.model.config import Config

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the package


def packaged(name: str) -> str:
    """A file shipped with the gardener (``rules.md``, ``memory``).

    In a wheel they live in ``gardener/examples/``; in a source checkout they
    are the repository's top-level files.
    """
    inside = os.path.join(HERE, "examples", name)
    return (
        inside if os.path.exists(inside) else os.path.join(os.path.dirname(HERE), name)
    )


def rules_bytes(root: str | os.PathLike[str]) -> bytes | None:
    """The workspace's rules.md, byte for byte; None if it has none."""
    try:
        with open(os.path.join(root, "rules.md"), "rb") as file:
            return file.read()
    except FileNotFoundError:
        return None


# the modules that turn rules.md into a Config: a new version of one is a miss
_PARSERS = (
    ("model", "config.py"),
    ("formats", "rules.py"),
    ("formats", "backtrack.py"),
    # the heading words ``note`` reads from the cache (``note_headings``)
    ("planning", "headings.py"),
    *(("lexicon", f"{code}.py") for code in ("en", "zh", "ja", "de", "fr", "es", "ru")),
)


def cache_key(raw: bytes | None) -> str:
    """What the parsed settings depend on: ``raw`` (the workspace's rules.md,
    None if missing), the shipped rules.md, and the stat of ``_PARSERS``."""
    try:
        with open(packaged("rules.md"), "rb") as file:
            shipped = file.read()
    except OSError:
        shipped = b""
    stamps = [os.stat(os.path.join(HERE, *parts)) for parts in _PARSERS]
    return "\0".join(
        [
            ",".join(f"{s.st_size}:{s.st_mtime_ns}" for s in stamps),
            # surrogateescape: bytes that are not UTF-8 never equal a cached key
            "-" if raw is None else raw.decode("utf-8", "surrogateescape"),
            shipped.decode("utf-8", "surrogateescape"),
        ]
    )


def cache_path(root: str | os.PathLike[str]) -> str:
    """Where the cache of the workspace at ``root`` lives."""
    return os.path.join(root, ".git", "gardener", "config.json")


def read(root: str | os.PathLike[str], key: str) -> dict[str, object] | None:
    """The cached settings (name -> JSON value) if cached under ``key``, else
    None; a cache that cannot be read counts as missing."""
    try:
        with open(cache_path(root), encoding="utf-8") as file:
            data = json.load(file)
        if data.get("key") != key or not isinstance(data.get("config"), dict):
            return None
        values: dict[str, object] = data["config"]
        if data.get("check") != _check(values):
            return None  # edited by hand: parse rules.md again
        return values
    except (OSError, ValueError, AttributeError):
        return None


def write(root: str | os.PathLike[str], key: str, values: dict[str, object]) -> None:
    """Cache ``values`` (JSON-able) under ``key``, atomically. Without a
    ``.git`` folder (or with a ``.git`` file) nothing is cached; a cache that
    cannot be written is skipped, since it only saves time."""
    from pathlib import Path

    from gardener.errors import GardenerError
    from gardener.files.atomic import atomic_write

    path = cache_path(root)
    folder = os.path.dirname(path)
    if not os.path.isdir(os.path.dirname(folder)):
        return
    try:
        os.makedirs(folder, exist_ok=True)
        body = {"key": key, "config": values, "check": _check(values)}
        atomic_write(Path(path), json.dumps(body, ensure_ascii=False))
    except (OSError, GardenerError):
        pass


def canonical(values: Mapping[str, object]) -> str:
    """``values`` (settings as ``model.config.as_values`` gives them) as one text:
    equal settings give equal texts, however they were read."""
    return json.dumps(values, sort_keys=True, ensure_ascii=False)


def _check(values: dict[str, object]) -> int:
    """A checksum of ``values``: a cache edited by hand is not trusted (its
    values were never checked the way ``formats.rules.parse_rules`` checks them)."""
    import zlib

    return zlib.crc32(canonical(values).encode("utf-8", "surrogatepass"))


_DEFAULT: Config | None = None


def default_config() -> Config:
    """The settings of the shipped rules.md (read once per process)."""
    from gardener.formats.rules import parse_rules
    from gardener.model.config import Config

    global _DEFAULT
    if _DEFAULT is None:
        source = packaged("rules.md")
        if os.path.exists(source):
            with open(source, encoding="utf-8-sig") as file:
                _DEFAULT = parse_rules(file.read(), source)
        else:
            _DEFAULT = Config()
    return _DEFAULT


def load(root: str | os.PathLike[str]) -> Config:
    """The workspace's settings: its rules.md over the shipped defaults.

    The parsed settings are cached (see the module's docstring), because
    parsing YAML costs ~30 ms of every ``gardener note``. Raises ConfigError
    for a rules.md that is not UTF-8 or holds a bad setting (file and line
    named).
    """
    from gardener.errors import ConfigError
    from gardener.formats.rules import parse_rules
    from gardener.model.config import as_values, from_values

    raw = rules_bytes(root)
    key = cache_key(raw)
    cached = read(root, key)
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
    from gardener.planning.headings import heading_words

    write(root, key, {**as_values(config), "note_headings": heading_words(config)})
    return config
