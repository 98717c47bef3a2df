"""Gardening: promote after a quiet spell, prune once a day."""

from __future__ import annotations

from datetime import date

from gardener.mcp.schedule import CHECK_EVERY, Gardening

DAY = date(2026, 1, 5)


def test_nothing_runs_before_the_first_quiet_spell():
    g = Gardening(idle=300, now=0)
    assert g.due(299, DAY) == [] and g.wait(100) == 200
    assert g.due(300, DAY) == ["promote", "prune"]
    assert g.due(400, DAY) == [] and g.wait(400) == CHECK_EVERY
    assert Gardening(idle=5, now=0).wait(9) == 5


def test_a_write_makes_promote_due_again_and_a_new_day_prunes():
    g = Gardening(idle=10, now=0)
    g.due(10, DAY)
    g.wrote(15)
    assert g.due(20, DAY) == []
    assert g.due(25, DAY) == ["promote"]
    assert g.due(30, date(2026, 1, 6)) == ["prune"]
