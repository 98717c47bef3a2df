"""The ``approve`` and ``reject`` verbs: a person's decision on an entry
promote held for review (it reads like an instruction to the model)."""

from __future__ import annotations

from gardener.errors import GardenerError
from gardener.model.marks import APPROVED, HELD, review_id
from gardener.store.ledger import read_all
from gardener.verbs.messages import review_message
from gardener.verbs.session import Session


def review(session: Session, held: str, approve: bool) -> None:
    """Mark the held entry ``held`` (a review id, ``h`` + 8 hex) approved or
    rejected in the ledger, one commit authored by the person (git's
    configured user). The caller holds the workspace lock, and runs promote
    after an approval. Raises GardenerError if no held entry has that id.
    """
    book = read_all(session.root, session.repo.git_dir)
    ledger = set(book.marks())
    matches = [m for m in ledger if m.endswith(HELD) and review_id(m) == held.strip()]
    if not matches:
        done = [m for m in ledger if "\t" in m and review_id(m) == held.strip()]
        if done:  # its plain mark: approved and filed, or rejected
            raise GardenerError(
                f"{held} was reviewed already (`git log --grep {held}`"
                " shows the decision)"
            )
        raise GardenerError(
            f"no held entry has the id {held!r}; `gardener check` lists them"
        )
    mark = matches[0][: -len(HELD)]
    ledger.discard(matches[0])
    ledger.add(mark + APPROVED if approve else mark)
    # the person's decision is a commit of its own, theirs: the promote that
    # files the entry is authored by its writer
    who = session.repo.configured_identity()
    if not session.apply(
        book.files(ledger), {}, review_message(approve, held), who
    ).stale:
        book.committed()  # the pending marks went into this commit
