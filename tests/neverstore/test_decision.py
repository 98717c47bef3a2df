"""One decision for both paths: what `note` refuses a line for is what the
direct path redacts, every copy of it, widened to its token, until clean."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gardener.neverstore.decision import decide, flagged, values, widen
from gardener.neverstore.redact import find

TOKEN = "ghp_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2"


def test_a_value_found_through_its_label_goes_wherever_it_stands():
    text = (
        "- the printer admin password: Zq4vT9wLmX\n"
        "- Zq4vT9wLmX also opens the scanner\n"
        "- see Zq4vT9wLmXY (another word) and (Zq4vT9wLmX).\n"
    )
    clean = decide(text).text
    assert clean.count("Zq4vT9wLmX") == 1  # only inside the longer word
    assert "Zq4vT9wLmXY" in clean
    assert "- [REDACTED:password] also opens the scanner" in clean


def test_values_of_the_other_files_of_a_change_go_too():
    clean = decide("- it opens with Zq4vT9wLmX now\n", also={"Zq4vT9wLmX"}).text
    assert "Zq4vT9wLmX" not in clean


def test_a_value_on_the_continuation_line_of_a_wrapped_entry_goes():
    """Breaker (MCP trial): the label's line ends in prose, its value is on the
    entry's next line; the reader joins them, so the filter must too."""
    for text in (
        "- password:\n  hunter2Quokka\n",
        "- the wifi password is\n  Tr0ub4dor&3x\n",
        "- the wifi password is\nTr0ub4dor&3x and it rotates monthly\n",
    ):
        clean = decide(text).text
        assert "hunter2Quokka" not in clean and "Tr0ub4dor" not in clean, text
    # a new item is not a continuation: nothing is joined across it
    assert decide("- the wifi password is\n- Tr0ub4dor&3x\n").text.count("Tr0ub4dor")


def test_a_label_ending_its_item_takes_the_next_items_value():
    # a breaker's direct write committed "Tango-Foxtrot-991": the label's
    # colon promises a value, and the next item gave it
    for text in (
        "- The password for prod:\n- Tango-Foxtrot-991\n",
        "1. db password:\n2. Tango-Foxtrot-991\n",
        "- 09:00 The password for prod:\n- 09:01 Tango-Foxtrot-991\n",  # two notes
    ):
        assert "Tango-Foxtrot-991" not in decide(text).text, text
    # what a label of no secret introduces stays
    assert "deploy friday" in decide("- Next steps:\n- deploy friday\n").text


def test_a_finding_is_widened_to_the_token_it_sits_in():
    text = "key glpat-abcdefghij1234567890XYZ end"
    assert widen(text, 4, 10) == (4, 33)
    assert widen("password=hunter2x", 9, 17) == (9, 17)  # not over the label
    assert widen("pw Ab12+/cd3=", 3, 7) == (3, 8)  # no "/" in the span: stops
    assert widen("pw Ab12+/cd3=", 3, 9) == (3, 13)


def test_every_line_note_refuses_is_clean_after_the_decision():
    lines = [
        "- the wifi password is Quartz-Heron-77",
        f"- deploy with {TOKEN} (expires soon)",
        "- mysql -u root -pS3cretPass!x db",
        "- api_key = 'Xk2Jd8Lq0Pw5Rt7Yu9'",
    ]
    text = "\n".join(lines) + "\n"
    assert all(find(line) for line in lines)
    clean = decide(text).text
    for line in clean.split("\n"):
        assert not find(line), line
    assert not flagged(clean)


def test_a_label_whose_value_is_on_the_next_line():
    text = "db:\n  password:\n    Seagull2024x\nother: 1\n"
    clean = decide(text).text
    assert "Seagull2024x" not in clean
    assert clean.startswith("db:\n  password:\n    [REDACTED:")
    ini = "[db]\npassword =\n    Seagull2024x\n"
    assert "Seagull2024x" not in decide(ini).text


def test_a_token_wrapped_across_two_lines():
    text = f"- token {TOKEN[:20]}\n  {TOKEN[20:]} end\n"
    clean = decide(text).text
    assert TOKEN[:20] not in clean and TOKEN[20:] not in clean
    assert clean.endswith(" end\n")


def test_a_private_key_of_any_body():
    text = (
        "- the key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nnot base64 at all!!\n"
        "second line, with spaces\n-----END OPENSSH PRIVATE KEY-----\n- after\n"
    )
    clean = decide(text).text
    assert "not base64" not in clean and "second line" not in clean
    assert clean.endswith("- after\n")


def test_a_prose_begin_line_without_end_takes_no_entry():
    text = "- I saw -----BEGIN RSA PRIVATE KEY----- in a doc\n- lunch at noon\n"
    assert "lunch at noon" in decide(text).text


def test_remembered_values_go_and_are_looked_up_again_after_redaction():
    def remembered(text: str) -> list[tuple[int, int]]:
        at = text.find("Qw3rtY9Zx")
        return [(at, at + 9)] if at >= 0 else []

    got = decide("- it opens with Qw3rtY9Zx now\n", remembered=remembered)
    assert "Qw3rtY9Zx" not in got.text
    assert "Qw3rtY9Zx" in got.values


def test_short_values_are_redacted_where_found_only():
    text = "- door PIN 4821\n- 4821 steps to the top\n"
    clean = decide(text).text
    assert "[REDACTED:pin]" in clean.split("\n")[0]
    assert values(text) == frozenset({"4821"})


def test_a_short_cjk_value_goes_wherever_it_stands():
    """A security answer of two or three CJK characters is a word, as "Rufus"
    is: its copies are counted in columns (a wide character is two)."""
    text = "- 秘密の質問（祖母の旧姓）：タマ\n- タマ is the one to use\n"
    clean = decide(text).text
    assert "タマ" not in clean, clean
    text = "- 密保问题（奶奶的名字）：李桂兰\n- 李桂兰 is the one to use\n"
    assert "李桂兰" not in decide(text).text


def test_clean_text_is_returned_as_it_is():
    text = "- the cat is Miso\n- we use SQLite\n"
    got = decide(text)
    assert got.text == text and not got.findings and not got.values


@given(st.text(alphabet=st.sampled_from(list("ab1 :=\n-_/Xpassword")), max_size=80))
def test_deciding_twice_changes_nothing_more(text: str):
    once = decide(text).text
    assert decide(once).text == once


def test_two_lines_of_runs_are_not_one_wrapped_token():
    """A ledger: a digest ends a line, a path starts the next one."""
    text = (
        "memory/2026-01-20.md\t3f9a1c2b7e4d5f6a8b9c0d1e2f3a4b5c\n"
        "memory/2026-02-10.md\t9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d\n"
    )
    assert decide(text).text == text
