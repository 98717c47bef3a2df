"""The memory of refused values: keyed hashes, found again without a label."""

from __future__ import annotations

from pathlib import Path

from gardener.store import refused


def test_a_remembered_value_is_found_again_bare_quoted_and_after_a_separator(
    tmp_path: Path,
):
    (tmp_path / ".git").mkdir()
    assert (
        refused.remember(str(tmp_path), ["Zq4vT9wLmX", "correct horse battery staple"])
        == 2
    )
    lookup = refused.finder(str(tmp_path))
    assert lookup is not None
    for text in (
        "Zq4vT9wLmX opens it",
        'try "Zq4vT9wLmX".',
        "login admin:Zq4vT9wLmX",
        "say correct  horse battery staple, loud",
    ):
        spans = lookup(text)
        assert spans, text
        assert all(
            text[s:e].replace("  ", " ")
            in {"Zq4vT9wLmX", "correct horse battery staple"}
            for s, e in spans
        )
    assert not lookup("Zq4vT9wLmXY and zq4vt9wlmx")


def test_nothing_of_the_value_is_kept_and_the_files_stay_out_of_git(tmp_path: Path):
    (tmp_path / ".git").mkdir()
    refused.remember(str(tmp_path), ["Zq4vT9wLmX", "Zq4vT9wLmX"])
    held = (tmp_path / refused.REFUSED).read_text()
    assert "Zq4vT9wLmX" not in held and len(held.splitlines()) == 1
    assert (tmp_path / refused.REFUSED).stat().st_mode & 0o077 == 0
    exclude = (tmp_path / ".git" / "info" / "exclude").read_text().split()
    assert "/.gardener/refused" in exclude and "/.gardener/salt" in exclude


def test_short_values_and_short_numbers_are_not_remembered(tmp_path: Path):
    (tmp_path / ".git").mkdir()
    assert refused.remember(str(tmp_path), ["4821", "abc12", "123456"]) == 0
    assert refused.finder(str(tmp_path)) is None
    assert refused.remember(str(tmp_path), ["83920174"]) == 1


def test_another_salt_is_another_hash():
    assert refused.digest("Zq4vT9wLmX", b"a" * 32) != refused.digest(
        "Zq4vT9wLmX", b"b" * 32
    )
    assert refused.digest("Zq4vT9wLmX", b"a" * 32) == refused.digest(
        " Zq4vT9wLmX ", b"a" * 32
    )


def test_each_code_of_a_remembered_list_is_found_alone(tmp_path: Path):
    (tmp_path / ".git").mkdir()
    refused.remember(str(tmp_path), ["58213-40977, 66120-39854 / 7k2q9m4x1p"])
    refused.remember(str(tmp_path), ["les hiboux dansent toujours dehors"])
    lookup = refused.finder(str(tmp_path))
    assert lookup is not None
    for code in ("58213-40977", "66120-39854", "7k2q9m4x1p"):
        assert lookup(f"- {code} is the one to use"), code
    # a passphrase's words are not remembered one by one
    assert not lookup("the owls were dansent toujours later")
    assert not lookup("toujours")
