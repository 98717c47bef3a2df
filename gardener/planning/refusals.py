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
from gardener.neverstore.engine import Context, genuine, marker

REDACTED = "holds a redacted secret"
# what a text ends with before a value it assigns: a label mark or a copula
_ASSIGNS = re.compile(
    r"(?:(?:[:=：—–-]|\b(?:is|are|was|were|ist|sind|est|es|son|это))\W*(?:\w+\W*)?"
    r"|[はが是为為]\W*)$",
    re.IGNORECASE,
)  # "Authorization: Bearer [REDACTED]": a label mark and at most one word
_WORD = re.compile(r"\w{2,}")


def refusals(texts: Sequence[str], config: Config) -> list[str | None]:
    """Why each entry text may not be promoted for never-store reasons, or None."""
    # a redacted text is scanned without its placeholders: what is left must
    # hold no other secret (a redaction that missed one fails closed here); a
    # hand-written "[REDACTED:custom:<value>]" names no rule and is read as text
    ctx = Context(redact.compile_patterns(config.never_store), [], 0)
    placed = [_placeholders(t, ctx) for t in texts]
    scanned = [_read(t, ctx) for t in texts]
    found = redact.find_each(scanned, config.never_store, config.allow)
    out: list[str | None] = []
    for text, spans, findings in zip(texts, placed, found, strict=True):
        rules = sorted({f.rule for f in findings})
        if rules:
            out.append("never-store: " + ", ".join(rules))
        elif spans and only_the_secret(text, spans):
            out.append(REDACTED)
        else:
            out.append(None)
    return out


_BRACKETED = re.compile(r"\[REDACTED(?::([^\]\n]{0,80}))?\]")


def _placeholders(text: str, ctx: Context) -> list[tuple[int, int]]:
    if "[REDACTED" not in text:
        return []
    return [
        m.span()
        for m in _BRACKETED.finditer(text)
        if marker().fullmatch(m.group()) and genuine(m.group(), ctx)
    ]


def _read(text: str, ctx: Context) -> str:
    """``text`` as the scan reads it: a genuine placeholder as a space, a
    made-up one as what it holds ("[REDACTED:custom:hunter2]" is hunter2)."""
    if "[REDACTED" not in text:
        return text

    def read(m: re.Match[str]) -> str:
        if marker().fullmatch(m.group()) and genuine(m.group(), ctx):
            return " "
        return (m.group(1) or "").removeprefix("custom:")

    return _BRACKETED.sub(read, text)


def only_the_secret(text: str, places: list[tuple[int, int]]) -> bool:
    """Whether a redacted ``text`` (its placeholders at ``places``) says
    nothing but that a secret was there, line by line: a line with
    placeholders only assigns them (each follows a label mark or copula, or
    begins the line, and fewer than two words follow the last), and the lines
    without one hold no more than a label's few words ("- credentials")."""
    if not places:
        return False
    start = 0
    spare = 0  # words on the lines that hold no placeholder
    for line in text.split("\n"):
        end = start + len(line)
        mine = [(s - start, e - start) for s, e in places if start <= s < end]
        if not mine:
            spare += len(_WORD.findall(line))
        elif not _assigns_only(line, mine):
            return False
        start = end + 1
    return spare < _SPARE


_SPARE = 3  # words: "- credentials", "- login:" name the secret, a sentence says more


def _assigns_only(line: str, places: list[tuple[int, int]]) -> bool:
    if len(_WORD.findall(line[places[-1][1] :])) >= 2:
        return False
    return all(
        _ASSIGNS.search(line[:start].rstrip(" *`\"'“”(「"))
        or len(_WORD.findall(line[:start].lstrip(" -*+"))) <= 1  # "card [REDACTED]"
        for start, _ in places
    )
