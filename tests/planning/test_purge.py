"""The pure side of purge: a text's normal form and salted hash, its cut forms, the scrub."""

from __future__ import annotations

from gardener.planning.purge import normalize, purge_hash, refused_by_purge


def test_refused_by_purge_normalizes_and_checks_every_window():
    salt = bytes(range(32))
    text = "Jane Q. Müller"
    norm = normalize(text)
    assert norm == "jane q. müller"
    hashes = {(len(norm), purge_hash(norm, salt))}
    assert refused_by_purge("met jane  q.\tMÜLLER today", salt, hashes)
    assert refused_by_purge("Ｊａｎｅ Q. Müller", salt, hashes)  # full-width: NFKC
    assert refused_by_purge("Jane Q. Mu\u0308ller", salt, hashes)  # decomposed
    assert not refused_by_purge("Jane Q. Mueller", salt, hashes)
    assert not refused_by_purge("jane q.", salt, hashes)
    assert not refused_by_purge(text, bytes(32), hashes)  # another workspace's salt
    assert not refused_by_purge(text, salt, set())
    assert not refused_by_purge(text, b"", hashes)


def test_the_cut_forms_of_a_text_are_its_prefixes_with_an_ellipsis():
    from gardener.planning.purge import variants

    assert variants("abcdef") == ["abcdef", "abcde…", "abcd…"]
    assert variants("abc") == ["abc"]
    assert variants("ab  cd") == ["ab  cd", "ab c…"]


def test_scrub_replaces_the_shortest_stretch_that_holds_the_text():
    from gardener.planning.purge import scrub

    salt = b"k" * 32
    text = normalize("Kari Nordmann")
    hashes = {(len(text), purge_hash(text, salt))}
    assert scrub("- met KARI  nordmann and Kari Nordmann.\nok\n", salt, hashes) == (
        "- met [PURGED] and [PURGED].\nok\n",
        [1],
    )
    assert scrub("nothing here", salt, hashes) == ("nothing here", [])
    # split across lines (breaker): the line break inside goes with it
    assert scrub("- 10:03 call Kari\n  Nordmann today\n- ok\n", salt, hashes) == (
        "- 10:03 call [PURGED] today\n- ok\n",
        [1],
    )
    assert scrub("Kari Nordmann", b"", hashes) == ("Kari Nordmann", [])
