"""The normalised reading: disguised tokens are found, their original characters redacted."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gardener.neverstore import normal
from gardener.neverstore.redact import find, redact

TOKEN = "ghp_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2"
FULLWIDTH = "".join(chr(ord(c) + 0xFEE0) for c in TOKEN)


def test_fullwidth_zero_width_soft_hyphen_and_bare_cr_are_seen_through():
    for text in (
        f"deploy with {FULLWIDTH}",
        f"token {TOKEN[:10]}\u200b{TOKEN[10:]}",
        f"token {TOKEN[:10]}\u00ad{TOKEN[10:]}",
        f"x {TOKEN[:12]}\r{TOKEN[12:]} y",
        "pass\u200dword: Zq4vT9wLmX",
    ):
        clean, found = redact(text)
        assert found, text
        assert "REDACTED" in clean
        left = clean.replace("\u200b", "").replace("\u00ad", "")
        assert TOKEN[4:14] not in left and FULLWIDTH[4:14] not in left


def test_the_original_characters_are_redacted_and_the_rest_kept():
    text = f"- 部署用 {FULLWIDTH}，明天再说"
    clean, _ = redact(text)
    assert clean == "- 部署用 [REDACTED:github-token]，明天再说"


def test_cjk_text_and_its_punctuation_need_no_second_reading():
    assert not normal.suspect("我们用 SQLite，因为简单：不需要服务器。")
    assert not normal.suspect("line ending\r")
    assert normal.suspect("ｐａｓｓｗｏｒｄ")


@given(st.text(max_size=40))
def test_a_view_maps_every_character_back(line: str):
    folded, origin = normal.view(line)
    assert len(origin) == len(folded) + 1
    assert origin == sorted(origin) and origin[-1] == len(line)
    for s in range(len(folded)):
        a, b = normal.back(origin, s, s + 1)
        assert 0 <= a < b <= len(line)


@given(st.text(max_size=60))
def test_find_never_fails_and_spans_stay_in_the_text(text: str):
    for f in find(text):
        assert 0 <= f.start < f.end <= len(text)


def test_percent_and_hex_encoded_tokens_are_decoded_and_taken_whole():
    pct = "".join(f"%{ord(c):02X}" for c in TOKEN)
    for text in (
        f"token {pct} end",
        "url?t=password%3A%20Zq4vT9wLmX&x=1",
        # one %3D between a label and its value (a breaker's direct write)
        "url?password%3DPctEnc123abc&x=1",
        f"blob {TOKEN.encode().hex()} end",
    ):
        clean, found = redact(text)
        assert found, text
        assert clean.endswith((" end", "&x=1")) and "REDACTED" in clean


def test_shas_uuids_and_urls_with_spaces_stay():
    for text in (
        "commit 3f9a1c2b7e4d5f6a8b9c0d1e2f3a4b5c6d7e8f90",
        "uuid 123e4567e89b12d3a456426614174000",
        "see https://x.org/a%20b%20c%20d",
        "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    ):
        assert find(text) == [], text
