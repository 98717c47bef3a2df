"""A label that is transient only by its head noun ("Review time:") is a key
when its value states a schedule; a label in the gardener's own key form
("Dana / review time:") is always a key."""

from __future__ import annotations

import pytest

from tests.planning.test_classify import classified


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("- **Dana / review time:** mornings, before 10:00", "Dana / review time"),
        ("- **Review time:** mornings", "Review time"),
        ("- **Deploy time:** Fridays after 16:00", "Deploy time"),
        ("- **Backup time:** nightly at 3am", "Backup time"),
        ("- **Sync time:** every 2 hours", "Sync time"),
        ("- **Review-Zeit:** vormittags", "Review-Zeit"),
        ("- **Heure de revue :** le matin", "Heure de revue"),
        ("- **Hora de revisión:** por las mañanas", "Hora de revisión"),
        ("- **Время ревью:** по утрам", "Время ревью"),
    ],
)
def test_a_time_label_stating_a_schedule_is_a_key(line: str, key: str) -> None:
    c = classified(line, "Key Learnings")
    assert (c.durable, c.key) == (True, key)


@pytest.mark.parametrize(
    "line",
    [
        "- **Time:** 14:30",  # the label alone is a log's clock
        "- **Start time:** Monday 9:00",  # one day's
        "- **Build time:** 3 min",  # a reading
        "- **Deploy status:** green",
    ],
)
def test_a_time_label_of_one_moment_stays_transient(line: str) -> None:
    c = classified(line, "Key Learnings")
    assert not c.durable and c.key is None
