"""The register of purged texts: sealed records every clone reads, fast
hashes of the texts a machine has met, and the older keyed form."""

from __future__ import annotations

from pathlib import Path

from gardener.planning.purge import normalize, purge_hash
from gardener.store import purged

TEXT = "Ingrid Solbakken-Vik"


def test_a_sealed_record_is_checked_without_the_salt_then_kept_fast(tmp_path: Path):
    (tmp_path / ".gardener").mkdir()
    (tmp_path / ".git").mkdir()  # exclude_locally writes .git/info/exclude
    line = purged.sealed_line(TEXT, "abc123")
    (tmp_path / purged.PURGED).write_text(purged._PURGED_HEADER + line)
    assert TEXT.casefold() not in line.casefold()
    register = purged.read_register(tmp_path)
    assert [r.purge_id for r in register.sealed] == ["abc123"] and not register.fast
    assert not purged.is_refused(tmp_path, "nothing of the kind")
    assert not (tmp_path / purged.LOCAL).exists()
    assert purged.is_refused(tmp_path, f"met {TEXT.upper()} today")
    # met: from now on a fast hash, checked in every window, no scrypt
    register = purged.read_register(tmp_path)
    assert register.sealed == () and len(register.fast) == 1
    assert register.holds(f"x{TEXT}y")
    assert "/.gardener/purged.local" in (tmp_path / ".git/info/exclude").read_text()


def test_lines_of_the_older_keyed_form_work_with_this_machines_salt(tmp_path: Path):
    (tmp_path / ".gardener").mkdir()
    salt = bytes(range(32))
    (tmp_path / ".gardener" / "salt").write_text(salt.hex() + "\n")
    norm = normalize(TEXT)
    old = f"old001\t{len(norm)}\t{purge_hash(norm, salt)}\n"
    (tmp_path / purged.PURGED).write_text(old)
    assert purged.is_refused(tmp_path, f"call {TEXT}")
    (tmp_path / ".gardener" / "salt").write_text(
        bytes(32).hex() + "\n"
    )  # another machine
    assert not purged.is_refused(tmp_path, f"call {TEXT}")


def test_with_sealed_adds_a_remotes_records_this_machine_lacks(tmp_path: Path):
    (tmp_path / ".gardener").mkdir()
    theirs = purged.sealed_line(TEXT, "r1") + purged.sealed_line("Other Person", "r2")
    register = purged.with_sealed(tmp_path, purged.read_register(tmp_path), theirs)
    assert sorted(r.purge_id for r in register.sealed) == ["r1", "r2"]
    assert purged.purge_ids(theirs) == {"r1", "r2"}


def _sealed_legacy(text: str, purge_id: str) -> str:
    """A sealed line as registers made before punctuation counted as a
    space wrote it: the hash of ``legacy_normalize(text)``."""
    from gardener.planning.purge import (
        SCRYPT_N,
        SCRYPT_P,
        SCRYPT_R,
        legacy_normalize,
        sealed_hash,
        shape,
    )

    salt = bytes(range(16))
    norm = legacy_normalize(text)
    digest = sealed_hash(norm, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    cost = f"n={SCRYPT_N},r={SCRYPT_R},p={SCRYPT_P}"
    return "\t".join([purge_id, "scrypt", cost, salt.hex(), shape(norm), digest]) + "\n"


def test_punctuation_case_and_width_do_not_get_past_the_register(tmp_path: Path):
    # the breaker's finding: `Zorblax-Hexagon` was accepted after purging
    # `Zorblax Hexagon`
    (tmp_path / ".gardener").mkdir()
    (tmp_path / ".git").mkdir()
    line = purged.sealed_line("Zorblax Hexagon", "p1")
    (tmp_path / purged.PURGED).write_text(purged._PURGED_HEADER + line)
    for text in (
        "met Zorblax-Hexagon again",
        "Zorblax.Hexagon",
        "ZORBLAX_HEXAGON",
        "zorblax – hexagon",
        "Ｚｏｒｂｌａｘ Hexagon",
        "(zorblax/hexagon)",
    ):
        register = purged.read_register(tmp_path)
        assert register.holds(text), text
    assert not purged.read_register(tmp_path).holds("Zorblax Hexagram")
    assert normalize("Solbakken-Vik’s") == "solbakken vik s"


def test_records_of_an_older_register_are_still_matched(tmp_path: Path):
    (tmp_path / ".gardener").mkdir()
    (tmp_path / ".git").mkdir()
    (tmp_path / purged.PURGED).write_text(_sealed_legacy(TEXT, "old1"))
    assert purged.is_refused(tmp_path, f"call {TEXT} back")  # sealed, then fast
    assert purged.is_refused(tmp_path, f"call {TEXT.upper()} back")
