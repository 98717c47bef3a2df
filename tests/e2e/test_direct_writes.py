"""Lines an agent writes straight into its notes: promote and record put no
value `note` would refuse into git, in any blob, commit or reflog."""

from __future__ import annotations

import subprocess

import pytest

from gardener import RefusedError, Workspace
from gardener.neverstore.redact import find
from tests.helpers import new_workspace, write

TOKEN = "github_pat_" + "11ABCDEFG0x7Yq2Lm9Pz4Rt6Vw8Kd3Hs"


def _everything(ws: Workspace) -> str:
    """Every object git holds, and the reflogs."""
    root = str(ws.root)
    objects = subprocess.run(
        ["git", "-C", root, "cat-file", "--batch-all-objects", "--batch"],
        capture_output=True,
    ).stdout.decode("utf-8", "replace")
    reflog = subprocess.run(
        ["git", "-C", root, "reflog", "--all", "-p"], capture_output=True, text=True
    ).stdout
    return objects + reflog


@pytest.mark.now("2026-03-01T18:00")
def test_a_value_found_once_is_redacted_in_every_file_of_the_change(ws: Workspace):
    write(ws, "2026-02-27.md", "- the printer admin password: Zq4vT9wLmX\n")
    write(ws, "2026-02-28.md", "- Zq4vT9wLmX also opens the scanner\n")
    ws.promote()
    assert "Zq4vT9wLmX" not in _everything(ws)


@pytest.mark.now("2026-03-01T18:00")
def test_a_value_refused_once_is_redacted_and_refused_when_it_comes_back(
    ws: Workspace,
):
    with pytest.raises(RefusedError):
        ws.note("the printer admin password: Zq4vT9wLmX")
    write(ws, "2026-02-28.md", "- Zq4vT9wLmX also opens the scanner\n")
    ws.promote()
    assert "Zq4vT9wLmX" not in _everything(ws)
    with pytest.raises(RefusedError):
        ws.note("the scanner opens with Zq4vT9wLmX")


@pytest.mark.now("2026-03-01T18:00")
def test_a_value_redacted_once_is_redacted_when_it_comes_back_later(ws: Workspace):
    write(ws, "2026-02-27.md", "- deploy token: " + TOKEN + "\n")
    ws.promote()
    write(ws, "2026-02-28.md", "- " + TOKEN + " is the one for CI\n")
    ws.promote()
    assert TOKEN not in _everything(ws)
    assert TOKEN[:20] not in _everything(ws)


@pytest.mark.now("2026-03-01T18:00")
def test_multi_line_and_disguised_secrets_written_directly(ws: Workspace):
    fullwidth = "".join(
        chr(ord(c) + 0xFEE0) for c in "ghp_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2"
    )
    write(
        ws,
        "2026-02-27.md",
        "- db settings:\n\n```yaml\npassword:\n  Seagull2024x\n```\n"
        "- the key\n\n-----BEGIN PRIVATE KEY-----\nnot base64 at all!!\n"
        "-----END PRIVATE KEY-----\n"
        f"- token ghp_Ab1Cd2Ef3Gh4Ij5\n  Kl6Mn7Op8Qr9St0Uv1Wx2 done\n- ci uses {fullwidth}\n",
    )
    ws.promote()
    everything = _everything(ws)
    for value in (
        "Seagull2024x",
        "not base64",
        "ghp_Ab1Cd2Ef3Gh4Ij5",
        "Kl6Mn7Op8Qr9St0Uv1Wx2",
        fullwidth[:12],
    ):
        assert value not in everything, value


@pytest.mark.now("2026-03-01T18:00")
def test_what_note_refuses_is_what_the_direct_path_redacts(ws: Workspace):
    lines = [
        "- the wifi password is Quartz-Heron-77",
        "- mysql -u root -pS3cretPass9x shop",
        "- api_key = 'Xk2Jd8Lq0Pw5Rt7Yu9'",
        f"- the CI token {TOKEN} and again {TOKEN}",
        "- the vault passphrase: correct horse battery staple",
    ]
    refused = [line for line in lines if find(line)]
    assert refused == lines
    write(ws, "2026-02-27.md", "\n".join(lines) + "\n")
    ws.promote()
    text = (ws.root / "memory" / "2026-02-27.md").read_text()
    assert not any(find(line) for line in text.split("\n")), text
    everything = _everything(ws)
    for secret in (
        "Quartz-Heron-77",
        "S3cretPass9x",
        "Xk2Jd8Lq0Pw5Rt7Yu9",
        TOKEN,
        "battery staple",
    ):
        assert secret not in everything, secret


def test_a_password_written_after_a_marker_never_reaches_git(tmp_path):
    """The breaker's case: ``[REDACTED:password] Hunter2Hunter2x`` written into a
    note directly was committed as written (promote refused it, record did not)."""
    import subprocess

    ws = new_workspace(tmp_path, "2026-06-01T12:00")
    note = ws.root / "memory" / "2026-06-01.md"
    note.write_text("- the admin password: [REDACTED:password] Hunter2Hunter2x\n")
    ws.record()
    log = subprocess.run(
        ["git", "-C", str(ws.root), "log", "-p", "--all"],
        capture_output=True,
        text=True,
    ).stdout
    assert "Hunter2Hunter2x" not in log
