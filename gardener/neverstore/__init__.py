"""Never-store: find and redact what must never be kept (secrets, personal data).

redact      the public calls: find, find_each, redact, unscanned, compile_patterns, Finding
rules       the rule table as data: each rule's id, pattern, check, and the order they win in
labels      labelled passwords, PINs and secrets (``password: x``, ``密码是x``, table cells, ``*_key``)
weaklabels  labels that are prose words too and need a second clue (``wifi pass x``, ``door code 4829``)
codes       recovery codes, one recovery code, TOTP seeds
tokens      vendor tokens' checks, high entropy (base64 runs are decoded by the engine)
personal    e-mail addresses, card numbers, passwords in URLs
values      what a labelled value may be: no placeholder, no word of prose; passphrases
keyblocks   how far a private key runs after its BEGIN line
passes      which rules run where: word tries, the two rule groups, the prefilter, base64 runs
engine      candidates of every rule, markers and allow patterns, merged spans, base64 inside
detectors   detect-secrets' plugins, run in process as a second opinion
regex       Span, Check, lazily compiled patterns
"""
