"""Shaped secrets: vendor tokens' checks, high entropy, base64.

Vendor tokens are found by their prefix and shape (the patterns are in ``rules``);
some also need two character classes (``mixed``). Hex runs (SHAs, bare UUIDs,
Ethereum addresses) are never high-entropy; wallet addresses are public, told
from random tokens by their checksums (``wallets``).
A base64 run is decoded and read again by the engine (``engine``).
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter

from gardener.neverstore.regex import Check, Span, lazy, target
from gardener.neverstore.values import classes


def mixed(length: int) -> Check:
    """Flag the value only if it has ``length`` chars of two classes (not a word)."""

    def check(text: str, m: re.Match[str]) -> Span | None:
        s, e = target(m)
        return (s, e) if e - s >= length and classes(text[s:e]) >= 2 else None

    return check


_HEX = frozenset("0123456789abcdefABCDEF-")


def hexadecimal(run: str) -> bool:
    """Whether a run is hex digits and dashes only (a SHA, a UUID, a digest)."""
    return _HEX.issuperset(run)


_KINDS = str.maketrans(  # a base64 run's characters as classes, separators dropped
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    "0" * 26 + "1" * 26 + "2" * 10,
    "-_/+",
)
_SWITCHES = ("01", "02", "10", "12", "20", "21")
_CLOG = [0.0] + [c * math.log2(c) for c in range(1, 512)]


@functools.lru_cache(maxsize=4096)
def _random_looking(s: str) -> bool:
    """Long, mixed-class, close to random in entropy and in class switches.

    Calibrated on random base64/alphanumeric strings (>= 95% flagged at 24 chars) and
    generated camelCase/snake_case identifiers with numbers (< 1% flagged).
    """
    body = s.rstrip("=")
    n = len(body)
    if n < 24 or set(body) <= _HEX:
        return False  # hex never: commit SHAs, UUIDs, digests
    if body.count("-") + body.count("_") + body.count("/") > n / 10 + 1:
        return False  # snake_case, kebab-case and paths separate words often
    kinds = body.translate(_KINDS)
    lower, upper, digit = ("0" in kinds), ("1" in kinds), ("2" in kinds)
    if not digit or not (lower or upper):
        return False  # letters-only runs are words; digits-only runs are numbers
    # Shannon entropy, log2(n) - sum(c * log2(c)) / n over the character counts c.
    counts = Counter(body).values()
    entropy = (
        math.log2(n)
        - sum(_CLOG[c] if c < 512 else c * math.log2(c) for c in counts) / n
    )
    ratio = entropy / math.log2(min(n, 26 * lower + 26 * upper + 14))
    # Words change character class every few letters, random text every other one
    # (a pair of two different classes never overlaps itself, so count() is exact).
    switches = sum(kinds.count(pair) for pair in _SWITCHES) / len(kinds)
    if lower and upper:
        return ratio >= 0.8 and switches >= 0.4
    return ratio >= 0.78 and switches >= 0.25


def high_entropy(text: str, m: re.Match[str]) -> Span | None:
    """The run ``m`` matched, if it looks random and is no path or URL."""
    run = m.group()
    if run.count("/") > max(1, len(run) // 24):
        return None  # a path or URL; the second rule judges its segments alone
    return m.span() if _random_looking(run) else None


# Ids that look random but are public, by their prefix (Stripe's object ids: a
# price, a product, a customer...) or by what comes right before them: an SSH
# public key's type, a Drive or Docs link, "folder"/"file id".
PUBLIC_PREFIXES = (
    "price_", "prod_", "plan_", "cus_", "sub_", "pi_", "pm_", "ch_", "in_",
    "acct_", "evt_", "txn_", "prctbl_", "promo_", "si_", "ii_", "seti_",
)  # fmt: skip
_PUBLIC_BEFORE = lazy(
    r"(?:(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d{3}|sk-ssh-ed25519@openssh\.com)"
    r"[ \t]+|(?:drive|docs)\.google\.com/[\w/.-]*/(?:folders|d|file/d)/"
    r"|(?i:folder|file|doc|document|sheet|spreadsheet|drive)(?:[ \t]+id)?[ \t]*:?[ \t]+"
    # a key's fingerprint, as ssh-keygen prints it: SHA256:<43 base64>
    r"|(?<![\w-])(?:SHA256|SHA1|MD5|sha256|sha1|md5):"
    # a public key's block: what follows its BEGIN line is public
    r"|-----BEGIN[ A-Z]*PUBLIC KEY-----[ \t\r\n]*)\Z"
)
_PLACEHOLDER = lazy(r"EXAMPLE|(?i:x{8,}|your[_-]?(?:api[_-]?)?(?:key|token|secret))")


_RUN = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/="
)  # base64's characters: a segment of a key's body is judged with the body


def public(text: str, start: int, end: int) -> bool:
    """Whether the token at ``start:end`` is a public id (see above) or a wallet
    address (``wallets``); a segment between "/" of a base64 run (an SSH public
    key's body) is judged with its whole run."""
    if text.startswith(PUBLIC_PREFIXES, start):
        return True
    if _PUBLIC_BEFORE.search(text, max(0, start - 80), start):
        return True
    s = start
    while s > 0 and start - s < 1024 and text[s - 1] in _RUN:
        s -= 1
    if s < start and _PUBLIC_BEFORE.search(text, max(0, s - 80), s):
        return True  # ssh-ed25519 AAAA.../...: the run after the key's type
    token = text[start:end]
    if not 25 <= len(token) <= 90 or hexadecimal(token):
        return False  # no address: a SHA or a UUID never pays for the import
    from gardener.neverstore.wallets import address  # a long random run: rare

    return address(token)


def placeholder(value: str) -> bool:
    """A token written to be replaced: ``ghp_xxxx...``, ``AKIA...EXAMPLE``,
    ``sk-your-api-key``: mostly x's, or EXAMPLE, or "your key" in it."""
    alnum = [c for c in value if c.isalnum()]
    if alnum and sum(c in "xX" for c in alnum) >= 0.7 * len(alnum):
        return True
    return bool(_PLACEHOLDER.search(value))
