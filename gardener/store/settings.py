"""The cache of parsed settings: ``.git/gardener/config.json``.

Parsing rules.md's YAML front matter costs ~30 ms of every command, so
``config.load`` keeps what it parsed here. The key is the text of the
workspace's rules.md and of the shipped one (a few KB: comparing them is
cheaper than hashing, and a copied or cloned workspace still hits) and the
version of ``gardener/config.py``, by its stat. Values are stored as JSON
gives them back (lists where ``Config`` holds tuples).

Nothing heavy is imported here: a warm ``gardener recall`` reads the few
settings it needs from this cache without building a ``Config``.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from collections.abc import Mapping

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


def cache_key(raw: bytes | None) -> str:
    """What the parsed settings depend on: ``raw`` (the workspace's rules.md,
    None if missing), the shipped rules.md, and config.py's stat."""
    try:
        with open(packaged("rules.md"), "rb") as file:
            shipped = file.read()
    except OSError:
        shipped = b""
    stamp = os.stat(os.path.join(HERE, "model", "config.py"))
    return "\0".join(
        [
            f"{stamp.st_size}:{stamp.st_mtime_ns}",
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
    """``values`` (settings as ``config.as_values`` gives them) as one text:
    equal settings give equal texts, however they were read."""
    return json.dumps(values, sort_keys=True, ensure_ascii=False)


def _check(values: dict[str, object]) -> int:
    """A checksum of ``values``: a cache edited by hand is not trusted (its
    values were never checked the way ``config.parse_rules`` checks them)."""
    import zlib

    return zlib.crc32(canonical(values).encode("utf-8", "surrogatepass"))
