"""The pure side of purge: a text's normal form and salted hash, its cut forms, the scrub."""

from __future__ import annotations

from gardener.planning.purge import (
    Register,
    normalize,
    purge_hash,
    refused_by_purge,
    seal,
    shape,
    windows,
)


def test_refused_by_purge_normalizes_and_checks_every_window():
    salt = bytes(range(32))
    text = "Jane Q. Müller"
    norm = normalize(text)
    assert norm == "jane q müller"  # punctuation is a space
    hashes = {(len(norm), purge_hash(norm, salt))}
    assert refused_by_purge("met jane  q.\tMÜLLER today", salt, hashes)
    assert refused_by_purge("Ｊａｎｅ Q. Müller", salt, hashes)  # full-width: NFKC
    assert refused_by_purge("Jane Q. Mu\u0308ller", salt, hashes)  # decomposed
    assert not refused_by_purge("Jane Q. Mueller", salt, hashes)
    assert not refused_by_purge("jane q.", salt, hashes)
    assert refused_by_purge("jane-q müller", salt, hashes)
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
    fast = Register(salt, frozenset({(len(text), purge_hash(text, salt))}))
    assert scrub("- met KARI  nordmann and Kari Nordmann.\nok\n", fast) == (
        "- met [PURGED] and [PURGED].\nok\n",
        [1],
    )
    assert scrub("nothing here", fast) == ("nothing here", [])
    # split across lines (breaker): the line break inside goes with it
    assert scrub("- 10:03 call Kari\n  Nordmann today\n- ok\n", fast) == (
        "- 10:03 call [PURGED] today\n- ok\n",
        [1],
    )
    assert scrub("Kari Nordmann", Register(b"", fast.fast)) == ("Kari Nordmann", [])
    # a sealed record alone (a clone that never met the text) scrubs it too
    sealed = Register(sealed=(seal("Kari Nordmann", "p1", b"s" * 16),))
    assert scrub("- met KARI  nordmann and Kari Nordmann.\nok\n", sealed) == (
        "- met [PURGED] and [PURGED].\nok\n",
        [1],
    )
    assert scrub("- met Kari\nok\n", sealed) == ("- met Kari\nok\n", [])


def test_a_sealed_record_is_found_at_word_edges_of_its_shape():
    record = seal("+47 912 34 567", "p1", b"salt" * 4)
    assert record.shape == "13:4:dd"  # "47 912 34 567": the + is a space
    assert shape(normalize("Jane Q. Müller")) == NAME_SHAPE
    register = Register(sealed=(record,))
    assert register.holds("call me on +47 912 34 567.")
    assert register.holds("tel:+47 912  34 567")
    assert not register.holds("call me on +47 912 34 568")
    assert not register.holds("+47 912 34 5678")  # glued to a longer number
    found = register.found("x +47 912 34 567 y")
    assert [(r.purge_id, norm) for r, norm in found] == [("p1", "47 912 34 567")]
    known = register.knowing(found)
    assert known.sealed == () and known.holds("a+47 912 34 5678")  # fast: every window
    assert not Register()  # nothing purged
    # only windows of the record's shape are hashed
    assert list(windows("ab cd ef", "5:2:ll")) == ["ab cd", "cd ef"]
    assert list(windows("abcd ef", "5:2:ll")) == []
    assert list(windows("x", "5:2:ll")) == []


NAME_SHAPE = "13:3:ll"
