"""The ``Gardener-*`` trailers: the last lines of a gardener commit's message.

``Gardener-Action: <verb>`` names the verb that made a commit; history reads
(``gardener.git.log``) find a verb's commits, or people's own (none), by it.
The other trailers say more about one kind of commit. ``gardener note``
writes trailers, so this module imports nothing.
"""

ACTION = "Gardener-Action"  # the verb: note, record, promote, prune, forget, ...
KEYS = "Gardener-Keys"  # the keys a promote or forget changed, "; "-separated
PATH = "Gardener-Path"  # the daily note a note commit appended to
REVIEW = "Gardener-Review"  # the review id (h + 8 hex) an approve or reject decided
JUDGE = "Gardener-Judge"  # who judged the pending entries a decide commit filed
RESUMED = "Gardener-Resumed"  # a commit finished after its run was interrupted
PURGE_ID = "Gardener-Purge-Id"
PURGED_BY = "Gardener-Purged-By"
PURGED_AT = "Gardener-Purged-At"  # ISO 8601, seconds


def trailer(name: str, value: str) -> str:
    """One trailer line, without its line end: ``Name: value``."""
    return f"{name}: {value}"


def action(verb: str) -> str:
    """The trailer line that marks a commit as ``verb``'s."""
    return trailer(ACTION, verb)


def grep_action(verb: str | None) -> str:
    """The fixed string ``git log --grep`` finds ``verb``'s commits by; with
    None, the one every gardener commit holds (to invert: people's own)."""
    return trailer(ACTION, verb or "")
