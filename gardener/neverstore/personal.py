"""Personal data and URL passwords: e-mail addresses, card numbers, ``user:pw@host``.

Cards start with 2-6 (the networks), which spares ISBNs, and must pass the Luhn check.
"""

from __future__ import annotations

import re

from gardener.neverstore.regex import ALNUM_ASCII, Span, lazy
from gardener.neverstore.values import plausible


def card(text: str, m: re.Match[str]) -> Span | None:
    """The longest leading run of groups that is 13-19 digits and Luhn-valid."""
    groups = re.split(r"[ -]", m.group())
    for n in range(len(groups), 0, -1):
        digits = "".join(groups[:n])
        if n > 1 and not all(4 <= len(g) <= 6 for g in groups[: n - 1]):
            continue
        odd = (int(d) * 2 for d in digits[-2::-2])  # Luhn: double every second digit
        luhn = sum(map(int, digits[::-2])) + sum(d - 9 if d > 9 else d for d in odd)
        if 13 <= len(digits) <= 19 and luhn % 10 == 0:
            return m.start(), m.start() + len(digits) + n - 1
    return None


_LOCAL = ALNUM_ASCII + "_.%+-"


def email(text: str, m: re.Match[str]) -> Span | None:
    """The address whose "@domain" ``m`` matched: its local part, 1-64 characters
    from a letter or digit, and the domain; no URL's userinfo, git remote or asset."""
    at = m.start()
    head = text[max(0, at - 65) : at]
    local = len(head) - len(head.rstrip(_LOCAL))
    start = at - local
    if not 0 < local <= 64 or not text[start].isascii() or not text[start].isalnum():
        return None  # a local part is 1-64 chars from a letter or digit
    before = text[max(0, start - 256) : start]
    token = before.split()[-1] if before and not before[-1].isspace() else ""
    if "://" in token and "/" not in token.rsplit("://", 1)[1]:
        return None  # userinfo of a URL: connection-string's business
    if re.match(r":[\w~./-]", text[m.end() : m.end() + 2]):
        return None  # scp-style git remote, git@github.com:org/repo
    if re.match(r"\d+x\.", m.group("domain")):
        return None  # retina asset name, logo@2x.png
    return start, m.end()


_SCHEME = lazy(r"(?a)\b[A-Za-z][\w+.-]{0,20}\Z")  # searched up to the "://"


def url_password(text: str, m: re.Match[str]) -> Span | None:
    """The password of ``scheme://user:password@host``, if it is no placeholder."""
    if not _SCHEME.search(text, max(0, m.start() - 21), m.start()):
        return None
    ok = plausible(m.group("value"), "password", False, False)
    return m.span("value") if ok else None
