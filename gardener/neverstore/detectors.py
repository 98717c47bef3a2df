"""detect-secrets' plugins, run in process, as a second opinion for never-store.

Our own rules (``rules``, run by ``engine``) know the phrasings agents write; detect-secrets
knows dozens of vendor token formats and keeps up with new ones. Its
``scan_line`` applies no entropy limits (every long word is "high entropy"),
so the plugins are called one by one, the entropy ones with their limits.
Importing detect-secrets costs ~130 ms, so callers ask ``suspicious`` first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

TYPE_CHECKING = False  # mypy and ruff read this as typing's (~4 ms to import)
if TYPE_CHECKING:
    from typing import Any

# Plugins left out: IPs are not credentials, and the keyword and hex-entropy
# plugins flag ordinary prose and commit SHAs, and basic auth flags placeholder
# URLs (our own rules cover labels and credentials in URLs).
_SKIPPED = {
    "IPPublicDetector",
    "KeywordDetector",
    "HexHighEntropyString",
    "BasicAuthDetector",
}
BASE64_LIMIT = 4.5  # detect-secrets' own default limit for base64 strings

_TOKENISH = re.compile(r"[A-Za-z0-9+/_=.:-]{20,}")


_HEXISH = frozenset("0123456789abcdefABCDEF-:.")


def suspicious(text: str) -> bool:
    """True if ``text`` has a run that could be a token (cheap; no import). A
    run of hex digits (a commit SHA, a UUID, a digest) is none: the plugins
    that read hex alone are left out (``_SKIPPED``), and a note that names a
    commit must not pay for importing detect-secrets."""
    return any(not _HEXISH.issuperset(m.group()) for m in _TOKENISH.finditer(text))


def suspicious_at(text: str) -> list[int]:
    """Where the runs that make a line ``suspicious`` start (none crosses a line)."""
    return [
        m.start() for m in _TOKENISH.finditer(text) if not _HEXISH.issuperset(m.group())
    ]


@lru_cache(maxsize=1)
def _plugins() -> tuple[Any, ...]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString

    chosen: list[Any] = [Base64HighEntropyString(limit=BASE64_LIMIT)]
    cls: Any
    for cls in get_mapping_from_secret_type_to_class().values():
        if cls.__name__ not in _SKIPPED and cls is not Base64HighEntropyString:
            chosen.append(cls())
    return tuple(chosen)


def flagged(text: str) -> Iterator[tuple[int, str, str]]:
    """(1-based line, secret type, secret value) for each plugin finding."""
    for number, line in enumerate(text.split("\n"), start=1):
        if not suspicious(line):
            continue
        for plugin in _plugins():
            for found in plugin.analyze_line(
                filename="note.md", line=line, line_number=number
            ):
                if found.secret_value:
                    yield number, found.type, found.secret_value
