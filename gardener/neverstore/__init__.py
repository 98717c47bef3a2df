"""Never-store: find and redact what must never be kept (secrets, personal data).

redact        the public calls: find, find_each, redact, unscanned, compile_patterns
rules         the rule table as data: rule ids, patterns, checks, the order they win in
labels        labelled passwords, PINs and secrets (``password: x``, cells, ``*_key``)
weaklabels    labels that are prose words too, with a second clue (``wifi pass x``)
codes         recovery codes and TOTP seeds after their label
tokens        vendor tokens' checks and high entropy (the patterns are in ``rules``)
personal      e-mail addresses, card numbers, passwords in URLs
frames        pairs, "set to", security answers, a bare key, markup (per language)
evidence      a credential word anywhere in the clause and a value's shape, scored
credwords     credential words of every language, their other senses, setting verbs
shapes        a value's own evidence for ``evidence``: strong, joined, digits, none
doors         door, alarm and lock codes (per language; English's is weaklabels')
values        what a labelled value may be: no placeholder, no prose; passphrases
notvalues     the words that are no value (see vault, gültig, expiré), per language
tables        per-language word tables as data: their alternation and routing words
seeds         wallet seed phrases (BIP-39 word lists, from mnemonic)
wallets       public wallet addresses, told from tokens by their checksums
keyblocks     how far a private key runs after its BEGIN line
passes        which rules run where: word tries, the two rule groups, the prefilter
engine        every rule's candidates, markers and allow patterns, spans, base64
detectors     detect-secrets' plugins, run in process as a second opinion
regex         Span, Check and lazily compiled patterns, shared by the modules above
instructions  the memory-poisoning rule: text that reads like an order to the model

A new token format is a line in ``rules`` (with a case in
tests/neverstore/corpus.py); a label in a new language is a row of
``labels.PASSWORD_LABELS`` / ``PIN_LABELS`` / ``SECRET_LABELS`` or of a frame's
table in ``frames`` (with a case in tests/neverstore/data/refused.tsv:
tests/neverstore/test_tables.py checks that every row has one); other phrasings
go to ``labels`` or ``weaklabels``; a credential word that the frames do not
know is a row of ``credwords.CRED_WORDS`` (with a case in
tests/neverstore/data/evidence.tsv: tests/neverstore/test_evidence.py checks
it); a workspace's own patterns are rules.md's
``never_store`` and ``allow``. The cases the rules must refuse or let pass are
the data files in tests/neverstore/data/.
"""
