"""Who a commit is by: an agent's name as a git identity, the gardener's own."""

from __future__ import annotations

from gardener.git.identity import GARDENER, Identity, identity_for


def test_identity_for() -> None:
    assert identity_for(None) == GARDENER
    assert identity_for("  ") == GARDENER
    assert identity_for("main") == Identity(
        "main", "main@agents.memory-gardener.invalid"
    )
    assert (
        identity_for("Pricing Team").email
        == "pricing-team@agents.memory-gardener.invalid"
    )
    assert identity_for("Zoë <x>\n").name == "Zoë x"
    assert identity_for("Zoë").email == "zoe@agents.memory-gardener.invalid"
    cjk = identity_for("山田")
    assert cjk.name == "山田" and cjk.email.startswith("agent-")
    assert cjk == identity_for("山田")
