"""Who a commit is by: a fixed identity that never depends on the machine's git config."""

from __future__ import annotations

import re

from gardener.model.record import Record

# ``gardener note`` commits as one of these: no typing or dataclasses at import
_AGENT_DOMAIN = "agents.memory-gardener.invalid"


class Identity(Record):
    """A git author or committer."""

    name: str
    email: str


GARDENER = Identity("memory-gardener", "gardener@memory-gardener.invalid")


def identity_for(by: str | None) -> Identity:
    """The author for content written by agent ``by``; ``None`` or blank -> GARDENER.

    The name is ``by`` without characters git refuses; the email is a slug of it at
    ``agents.memory-gardener.invalid`` (``Pricing Team`` -> ``pricing-team@...``).
    """
    name = " ".join(re.sub(r"[<>\x00-\x1f\x7f]", " ", by or "").split())
    if not name.strip(".,:;\"'\\ "):
        return GARDENER
    import unicodedata  # not for a note by the gardener itself (~0.2 ms)

    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    if not slug:  # nothing ASCII left (CJK names): a stable short hash instead
        from hashlib import sha1

        slug = "agent-" + sha1(name.encode()).hexdigest()[:8]
    return Identity(name, f"{slug}@{_AGENT_DOMAIN}")


def identity_env(role: str, who: Identity) -> dict[str, str]:
    """The environment that makes ``who`` git's ``role`` (AUTHOR or COMMITTER)."""
    return {f"GIT_{role}_NAME": who.name, f"GIT_{role}_EMAIL": who.email}
