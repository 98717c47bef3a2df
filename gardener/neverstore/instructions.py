"""The memory-poisoning rule: text that reads like an order to the model.

Memory is loaded into every future prompt: promote holds such an entry for
review, and recall never serves it. Pure.
"""

from __future__ import annotations

import re

_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:(?:the|your|my|these|those|its)\s+)?(?:previous|prior|above|earlier)\s+(?:instructions|prompts?|rules)"
    r"|\b(?:curl|wget)\b[^|\n]*\|\s*(?:ba|z)?sh\b"
    r"|\byou\s+are\s+now\s+(?:a|an|in)\b"
    r"|\bsystem\s+prompt\s*:"
    r"|\b(?:reveal|print|show|leak)\s+(?:the\s+|your\s+)?system\s+prompt"
    r"|\bdisregard\s+(?:all\s+|any\s+)?(?:your\s+|the\s+)?(?:safety|previous|prior)?\s*(?:guidelines|instructions|rules)"
    r"|\b(?:always|never)\s+(?:run|execute)\s+[`'\"]",
    re.IGNORECASE,
)
# every alternative of _INSTRUCTION needs one of these words
_INSTRUCTION_WORDS = (
    "ignore", "disregard", "forget", "curl", "wget", "you", "system", "always", "never",
)  # fmt: skip


_ANY_INSTRUCTION_WORD = re.compile("|".join(_INSTRUCTION_WORDS))


def reads_as_instruction(text: str) -> bool:
    """True if ``text`` reads like an order to the model (``_INSTRUCTION``):
    promote holds such an entry for review, and recall never serves it."""
    # for ASCII text, lower() and a plain search is the regex's IGNORECASE: a cheap no
    if text.isascii() and not _ANY_INSTRUCTION_WORD.search(text.lower()):
        return False
    return _INSTRUCTION.search(text) is not None
