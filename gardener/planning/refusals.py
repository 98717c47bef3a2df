"""Why a durable entry may not be filed: a never-store rule matches it, or it
holds a secret already redacted and nothing else (pure).

A refused entry is not filed and stays in its note: the next pass reads it
again (one already redacted is reported once). An entry whose secret was
redacted on its way into git is filed as it now reads when it says more than
the secret ("API key: [REDACTED:secret] lives in the gateway's unit file"):
what it says is lost when its note is pruned otherwise. One that only assigns
the secret ("the api key is [REDACTED:secret]", "Email: [REDACTED:email]")
leaves nothing to file. See docs/design.md, "Never store".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gardener.model.config import Config
from gardener.neverstore import redact

REDACTED = "holds a redacted secret"

_PLACEHOLDER = re.compile(r"\[REDACTED:[^\]\s]*\]")
# what a text ends with before a value it assigns: a label mark or a copula
_ASSIGNS = re.compile(
    r"(?:[:=：—–-]|\b(?:is|are|was|were|ist|sind|est|es|son|это))\W*$", re.IGNORECASE
)
_WORD = re.compile(r"\w{2,}")


def refusals(texts: Sequence[str], config: Config) -> list[str | None]:
    """Why each entry text may not be promoted for never-store reasons, or None."""
    # a redacted text is scanned without its placeholders: what is left must
    # hold no other secret (a redaction that missed one fails closed here)
    scanned = [_PLACEHOLDER.sub(" ", t) for t in texts]
    found = redact.find_each(scanned, config.never_store, config.allow)
    out: list[str | None] = []
    for text, findings in zip(texts, found, strict=True):
        rules = sorted({f.rule for f in findings})
        if rules:
            out.append("never-store: " + ", ".join(rules))
        elif "[REDACTED:" in text and only_the_secret(text):
            out.append(REDACTED)
        else:
            out.append(None)
    return out


def only_the_secret(text: str) -> bool:
    """Whether a redacted ``text`` says nothing but that a secret was there:
    every placeholder follows a label mark or copula (or begins the text) and
    fewer than two words follow the last one."""
    places = list(_PLACEHOLDER.finditer(text))
    if not places:
        return False
    after = _WORD.findall(text[places[-1].end() :])
    if len(after) >= 2:
        return False
    return all(
        _ASSIGNS.search(text[: p.start()].rstrip(" *`\"'“”(「"))
        or not _WORD.search(text[: p.start()])
        for p in places
    )
