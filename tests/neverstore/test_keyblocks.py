"""Private keys: a key is redacted whole, a BEGIN line alone takes nothing after it."""

from __future__ import annotations

import pytest

from gardener import Workspace
from gardener.neverstore.redact import redact
from tests.helpers import git
from tests.neverstore.corpus import KEY_BLOCK


def test_a_begin_line_without_a_key_takes_no_entry_after_it() -> None:
    """A BEGIN line quoted in a note without its key: the redaction ran to the
    next blank line (or to an END line anywhere below), and in a Markdown list
    that took every entry after it out of the note and out of git."""
    begin = "-----BEGIN OPENSSH " + "PRIVATE KEY-----"
    text = (
        f"- the deploy key is in the vault; it starts with {begin}\n"
        "- Mira prefers tabs over spaces\n"
        "- Done\n"
        "- decision: **database**: SQLite\n"
    )
    clean, _ = redact(text)
    assert clean == text.replace(begin, "[REDACTED:private-key]")
    later = text + "\n" + KEY_BLOCK + "\n- kept too\n"
    clean, _ = redact(later)
    assert clean.count("[REDACTED:private-key]") == 2
    assert "Mira prefers tabs" in clean and "kept too" in clean
    assert "MIIE" not in clean and "END RSA" not in clean


@pytest.mark.parametrize(
    "key",
    [
        # one line, as a chat tool may paste it
        "-----BEGIN RSA "
        + "PRIVATE KEY----- MIIEowIBAAKCAQEAfake== -----END RSA "
        + "PRIVATE KEY-----",
        # a legacy encrypted PEM: headers, a blank line, the body
        "-----BEGIN RSA " + "PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
        "DEK-Info: AES-128-CBC,0123456789ABCDEF0123456789ABCDEF\n\n"
        "MIIEowIBAAKCAQEAfakeFAKEfakeFAKEfakeFAKEfake0123456789abcd\nZmFrZQ==\n"
        "-----END RSA " + "PRIVATE KEY-----",
        # indented under a list item, with a short last line
        "  -----BEGIN EC " + "PRIVATE KEY-----\n"
        "  MHcCAQEEIfakefakeFAKEFAKEfakefakeFAKEFAKEfakefake0123\n  Zg==\n"
        "  -----END EC " + "PRIVATE KEY-----",
    ],
)
def test_a_whole_key_is_redacted(key: str) -> None:
    clean, _ = redact(f"- before\n{key}\n- after\n")
    assert clean.splitlines()[0] == "- before" and clean.endswith("- after\n")
    assert "MIIE" not in clean and "MHcC" not in clean and "Zg==" not in clean
    assert "DEK-Info" not in clean and "PRIVATE KEY" not in clean


def test_key_block_without_end_stops_at_blank_line() -> None:
    text = "-----BEGIN EC " + "PRIVATE KEY-----\nMHcCAQEEIfake0fake\nZmFrZQ==\n\nkept"
    clean, _ = redact(text)
    assert clean == "[REDACTED:private-key]\n\nkept"


def _fake_key() -> str:
    """A key-shaped block: 64-character base64 lines, a short last one."""
    import base64
    import hashlib

    raw = b"".join(hashlib.sha256(bytes([i])).digest() for i in range(20))
    body = base64.b64encode(raw).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "\n".join(
        ["-----BEGIN " + "PRIVATE KEY-----", *lines, "-----END " + "PRIVATE KEY-----"]
    )


@pytest.mark.parametrize(
    "layout", ["plain", "quote", "nested", "numbered", "blank lines", "groups", "crlf"]
)
def test_a_key_is_redacted_whole_in_the_layouts_notes_give_it(layout: str) -> None:
    """(breaker) The body's lines behind "> " or a list marker, split by blank
    lines or written in groups were committed: only bare base64 lines counted."""
    lines = _fake_key().split("\n")
    body = lines[1:-1]
    laid = {
        "plain": lines,
        "quote": ["> " + line for line in lines],
        "nested": ["    - " + line for line in lines],
        "numbered": [f"{n}. {line}" for n, line in enumerate(lines, 1)],
        "blank lines": [x for line in lines for x in (line, "")],
        "groups": [lines[0]]
        + [" ".join(b[i : i + 8] for i in range(0, len(b), 8)) for b in body]
        + [lines[-1]],
        "crlf": [line + "\r" for line in lines],
    }[layout]
    note = "- before\n" + "\n".join(laid) + "\n- after line\n"
    clean, _ = redact(note)
    flat = clean.replace(" ", "")
    assert not [b for b in body if b[:12] in flat]
    assert clean.startswith("- before\n") and clean.endswith("- after line\n")


@pytest.mark.parametrize(
    "after",
    [
        "Decision: we use ed25519 keys from now on",
        "Alice: prefers tea",
        "/usr/local/bin/gardener",
        "Done",
        "Supercalifragilistic",
    ],
)
def test_a_begin_line_alone_takes_no_line_after_it(after: str) -> None:
    text = (
        "- the key starts with -----BEGIN OPENSSH "
        + f"PRIVATE KEY-----\n{after}\n- next\n"
    )
    clean, _ = redact(text)
    assert clean.endswith(f"{after}\n- next\n") and "PRIVATE KEY" not in clean


@pytest.mark.now("2026-03-01T18:00")
def test_a_quoted_key_header_does_not_take_the_entries_below_it(ws: Workspace):
    """The redaction of a BEGIN line without its key ran to the next blank
    line: the entries below it left the note and git (only the quarantine
    kept them), and promote never saw them."""
    ws.note("decided on Redis for the cache", kind="decision", key="cache")
    begin = "-----BEGIN OPENSSH " + "PRIVATE KEY-----"
    with open(ws.root / "memory" / "2026-03-01.md", "a", encoding="utf-8") as out:
        out.write(f"- the deploy key is in the vault; it starts with {begin}\n")
        out.write("- Mira prefers tabs over spaces\n")
        out.write("- decision: **database**: SQLite\n")
    ws.promote()
    note = (ws.root / "memory" / "2026-03-01.md").read_text(encoding="utf-8")
    assert "PRIVATE KEY" not in note and "Mira prefers tabs" in note
    assert "**database**: SQLite" in note
    assert [h.value for h in ws.recall(key="database")] == ["SQLite"]
    assert "PRIVATE KEY" not in git(ws.root, "log", "-p")
