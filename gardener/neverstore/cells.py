"""A Markdown table row that holds an account and its password, with no header
cell naming either: ``| prod-db | svc_report | Vq92-mmLt-04zx | read-only |``.

No credential word is in such a row (the header that named the columns is on
another line, or was never written), so the label rules and the evidence
scorer never see it. The account's cell names it: a name accounts are given
(``ACCOUNTS``: admin, root, postgres...) or a service account's shape
(``svc_report``, ``backup-bot``, ``j.doe``); the cell right after it holds the
password, whole, of a password's strong shape (``near.strong``: 8+ characters
of three classes, no path, version, hash or identifier).
"""

from __future__ import annotations

import re

from gardener.neverstore.near import strong
from gardener.neverstore.regex import Span

# names an account is given, lowercase (one line: a name is one more word)
ACCOUNTS = """admin administrator root sa sysadmin superuser su guest pi ubuntu
    postgres mysql oracle operator ops deploy deployer backup service webmaster"""
_ACCOUNT = "|".join(sorted(ACCOUNTS.split(), key=len, reverse=True))
# the account's cell: a given name, a service account's shape, or first.last
ROW = (
    r"\|[ \t]*(?P<user>(?i:" + _ACCOUNT + r")|svc[_-][\w.-]{2,30}"
    r"|[a-z][\w-]{1,30}[_-](?:svc|bot|ro|rw|admin|user|service|report|readonly)"
    r"|[a-z]{1,20}\.[a-z]{2,20})[ \t]*\|[ \t]*"
)


def password(text: str, m: re.Match[str]) -> Span | None:
    """The cell after the account's, if the row is a table's (it starts with
    "|", maybe after a list item's marker) and that cell is a password of the
    strong shape, whole."""
    line = text.rfind("\n", 0, m.start()) + 1
    if not text[line : m.start() + 1].lstrip(" \t-*+>").startswith("|"):
        return None
    bar = text.find("|", m.end())
    eol = text.find("\n", m.end())
    if bar < 0 or (0 <= eol < bar):
        return None  # no cell after it on this line
    cell = text[m.end() : bar].rstrip(" \t")
    value = cell.strip("`")
    if not value or " " in value or not strong(value):
        return None
    start = m.end() + (len(cell) - len(cell.lstrip("`")))
    return (start, start + len(value))
