"""Recovery codes and TOTP seeds: codes after a recovery, backup or 2FA label.

Recovery codes are two or more 8-10 character codes with digits after a "recovery /
backup / 2FA codes" label, or one code of 6-40 letters, digits and dashes with a
digit after the singular label ("the recovery code is 8f3k-29dj-ak2m", "recovery
key: ..."). A TOTP seed is 16+ base32 characters with a digit after "TOTP / OTP / 2FA
secret, seed or key".
"""

from __future__ import annotations

import re

from gardener.neverstore.regex import Span, lazy
from gardener.neverstore.tables import alts, words_of

# Recovery codes: "backup codes: 1234-5678 8765-4321 ...", codes of 8-10 letters and
# digits on one line or one per (list) line; ``code_list`` wants two with a digit.
_CODE = (
    r"(?:\d{4}[ ]\d{4}|[A-Za-z0-9]{4,5}-[A-Za-z0-9]{4,5}|[A-Za-z0-9]{8,10})(?![\w-])"
)
_NEWLINE = r"(?:\r?\n[ \t]*(?:[-*+•][ \t]+|\d{1,2}[.)][ \t]+)?)?"
# recovery codes in the languages of the labels (a row each: ``tables``)
CODE_LISTS = (
    (
        "en",
        r"(?:recovery|backup|2fa|mfa|two[ -]?factor|otp|totp|scratch|emergency)"
        r"(?:[ \t]+(?:backup|recovery|login))?[ \t]+codes?",
        "recovery backup 2fa mfa two otp totp scratch emergency",
    ),
    (
        "fr",
        r"codes?[ \t]+de[ \t]+(?:secours|récupération|recuperation|sauvegarde)",
        "code codes",
    ),
    (
        "de",
        r"(?:wiederherstellungs|backup|notfall|sicherungs)-?codes?",
        "wiederherstellungs backup notfall sicherungs",
    ),
    (
        "es",
        r"c[óo]digos?[ \t]+de[ \t]+(?:recuperaci[óo]n|respaldo|emergencia)",
        "código códigos codigo codigos",
    ),
    ("it", r"codici?[ \t]+di[ \t]+(?:recupero|backup|emergenza)"),
    ("pt", r"c[óo]digos?[ \t]+de[ \t]+(?:recupera[çc][ãa]o|backup)", "código códigos"),
    ("nl", r"(?:herstel|back-?up|reserve)codes?", "herstel back backup reserve"),
    ("pl", r"kody[ \t]+(?:zapasowe|odzyskiwania|jednorazowe)"),
    ("sv", r"(?:återställnings|reserv)koder(?:na)?", "återställnings reserv"),
    (
        "ru",
        r"(?:резервные|запасные)[ \t]+коды|коды[ \t]+восстановления",
        "резервные запасные коды",
    ),
)
CODES = (
    rf"(?<![^\W_])(?i:{alts(CODE_LISTS)})(?![\w-])"
    r"(?:[ \t]+(?i:for|of)(?:[ \t]+[^\s:()]{1,40}){1,5}?)?(?:[ \t]*\([^()\n]{1,40}\))?"
    # a few words more before ":" ("du compte OVH, à garder :")
    r"(?:(?:[ \t]*,)?[ \t]+[^\s:()=]{1,30}){0,7}?"
    rf"[ \t]*(?:[:：=—–-][ \t]*)?{_NEWLINE}"
    rf"(?P<value>{_CODE}(?:[ \t]*[,;/|]?[ \t]*{_NEWLINE}{_CODE}){{1,31}})"
)
CODE_WORDS = words_of(CODE_LISTS)
_ONE_CODE = lazy(_CODE)
# between a label and its value: "is" or "was", a colon or "=", or a space
_IS_OR_COLON = r"(?:[ \t]+(?i:is|was))?[ \t]*(?:[:：=][ \t]*)?"
# One such code: "the recovery code is 8f3k-29dj-ak2m", "2FA backup code: 38291047":
# the singular label, then a value of 6-40 letters, digits and dashes with a digit.
SINGLE_CODE = (
    r"(?a)(?<![^\W_])(?i:recovery|backup|2fa|mfa|two[ -]?factor|scratch|emergency)"
    r"(?:[ \t]+(?i:backup|recovery|login))?[ \t]+(?i:code|key)(?![\w-])"
    rf"{_IS_OR_COLON}[*_`\"']{{0,2}}"
    r"(?P<value>[A-Za-z0-9]{2,}(?:-[A-Za-z0-9]{2,}){0,5})(?![\w-])"
)


# A TOTP seed: "TOTP secret JBSWY3DPEHPK3PXP", "2FA seed: ...": 16+ base32 characters
# with a digit after an OTP word and secret, seed or key.
OTP_SEED = (
    r"(?a)(?<![^\W_])(?i:totp|otp|2fa|mfa|authenticator)[ \t]+(?i:secret|seed|key)"
    rf"(?![\w-]){_IS_OR_COLON}[`\"']?"
    r"(?P<value>[A-Z2-7]{16,}=*|[a-z2-7]{16,}=*)(?![\w-])"
)


def otp_seed(text: str, m: re.Match[str]) -> Span | None:
    """The seed, if it holds a digit (base32 has 2-7): a word of 16 letters is none."""
    value = m.group("value")
    return m.span("value") if any(c.isdigit() for c in value) else None


def single_code(text: str, m: re.Match[str]) -> Span | None:
    """The code, if it is 6-40 characters and holds a digit ("backup code is
    ready" and "recovery code 7" are not codes)."""
    value = m.group("value")
    ok = 6 <= len(value) <= 40 and any(c.isdigit() for c in value)
    return m.span("value") if ok else None


def code_list(text: str, m: re.Match[str]) -> Span | None:
    """The list, if two of its codes have a digit (words make no list)."""
    s, e = m.span("value")
    codes = _ONE_CODE.finditer(text, s, e)
    digits = sum(any(c.isdigit() for c in code.group()) for code in codes)
    return (s, e) if digits >= 2 else None
