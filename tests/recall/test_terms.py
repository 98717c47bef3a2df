"""CJK text in the recall index: bigrams of its runs, so any substring of two or
more characters finds it (``gardener.recall.terms``), and English as before."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gardener.recall.terms import has_cjk, index_text, match_expression


def found(texts: list[str], query: str) -> list[int]:
    """The indexes of ``texts`` an FTS5 table like the recall index's matches
    for ``query``, best BM25 first."""
    expression = match_expression(query)
    if expression is None:
        return []
    db = sqlite3.connect(":memory:")
    try:
        db.execute(
            "CREATE VIRTUAL TABLE t USING fts5(text, tokenize='unicode61 remove_diacritics 2')"
        )
        db.executemany(
            "INSERT INTO t(rowid, text) VALUES (?, ?)",
            ((i, index_text(text)) for i, text in enumerate(texts)),
        )
        return [
            row
            for (row,) in db.execute(
                "SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t)", (expression,)
            )
        ]
    finally:
        db.close()


def test_english_is_indexed_as_written():
    text = "We moved the database to SQLite (v3.45), finally."
    assert index_text(text) == text
    assert index_text("café au lait") == "café au lait"
    assert match_expression("database to") == '"database"'  # "to" asks nothing


def test_a_question_asks_for_the_words_that_name_the_thing():
    assert match_expression("What is the fallback model?") == '"fallback" OR "model"'
    assert match_expression("Wie heißt der Hund?") == '"heißt" OR "Hund"'
    # a query of nothing but such words keeps them: it has nothing else
    assert match_expression("what is it") == '"what" OR "is" OR "it"'


def test_a_cjk_run_becomes_its_bigrams_and_its_last_character():
    assert index_text("数据库") == " 数据 据库 库 "
    assert index_text("用PostgreSQL数据库") == " 用 PostgreSQL 数据 据库 库 "
    assert index_text("**语言**：中文") == "** 语言 言 **： 中文 文 "


def test_a_query_run_is_the_phrase_of_its_bigrams_and_one_character_a_prefix():
    assert match_expression("数据库") == '"数据 据库"'
    assert match_expression("库") == '"库"*'
    assert match_expression("PostgreSQL数据库 deploy") == (
        '"PostgreSQL" OR "数据 据库" OR "deploy"'
    )
    assert match_expression("、。") is None


@pytest.mark.parametrize(
    ("query", "hits"),
    [
        ("数据库", [0]),  # zh: a word inside a sentence
        ("数据", [1, 0]),  # shorter entry first (BM25)
        ("PostgreSQL", [0]),  # the English word next to Chinese
        ("デプロイ", [2]),  # ja: katakana inside **デプロイ先**
        ("デプロイ先", [2]),
        ("先", [2]),  # one character: every occurrence
        ("サーバー", [2]),  # the long vowel mark is part of the run
        ("데이터베이스", [3]),  # ko: a word with its particle stuck on
        ("数据分析", [1]),
        ("库数", []),  # the characters, but not in this order
        ("据分", [1]),
        ("モンゴ", []),
    ],
)
def test_cjk_substrings_find_their_entries(query: str, hits: list[int]):
    texts = [
        "我们的数据库是 PostgreSQL",
        "数据分析",
        "**デプロイ先**: サーバーB",
        "우리 데이터베이스는 Postgres 입니다",
    ]
    assert found(texts, query) == hits


def test_a_query_that_is_not_in_the_text_finds_nothing():
    texts = ["我们的数据库是 PostgreSQL", "**语言**：中文"]
    assert found(texts, "中国") == []
    assert found(texts, "数据仓库") == []
    assert found(texts, "MySQL") == []


_CJK = st.sampled_from("数据库语言中文我们的是部署先サーバーデプロイあいう다이터베스")


@given(
    run=st.text(alphabet=_CJK, min_size=2, max_size=12),
    before=st.sampled_from(["", "note: ", "**key**: ", "the "]),
    after=st.sampled_from(["", " PostgreSQL", "、以上", ": done"]),
    data=st.data(),
)
def test_any_two_character_substring_of_a_run_finds_its_entry(
    run: str, before: str, after: str, data: st.DataObject
):
    start = data.draw(st.integers(0, len(run) - 2))
    end = data.draw(st.integers(start + 2, len(run)))
    texts = [f"{before}{run}{after}", "an English entry about the database"]
    assert found(texts, run[start:end]) == [0]
    assert has_cjk(texts[0]) and not has_cjk(texts[1])


@given(st.text(max_size=20))
def test_any_query_is_a_valid_fts5_expression(query: str):
    texts = ["我们的数据库是 PostgreSQL", "the deploy target is server B"]
    assert set(found(texts, query)) <= {0, 1}


def test_a_content_word_of_one_language_is_not_a_stop_word_of_another():
    """Breaker: "son" (Spanish), "mit" (German), "est" (French) were dropped
    from English queries."""
    assert match_expression("who is Sam's son") == '"Sam" OR "son"'
    assert match_expression("MIT license") == '"MIT" OR "license"'
