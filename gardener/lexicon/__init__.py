"""The built-in lexicon: the words and sentence frames promotion reads notes
by, one module per language, merged for the languages rules.md names.

words     the ``Words`` shape every language fills, and merging them
match     phrase matching: whole words in spaced scripts, substrings with
          exclusions in Chinese and Japanese; sentence frames as regexes
en, zh, ja, de, fr, es, ru
          one language each
"""
