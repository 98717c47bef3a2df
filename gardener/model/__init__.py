"""The gardener's values: frozen, pure, no I/O.

record      Record: typing.NamedTuple without importing typing (for the hot path)
facts       Entry, Note, Fact, Memory, Problem; how keys and values compare
kinds       the kinds an entry may have, their aliases, MEMORY.md's section for each
marks       the promote ledger's marks: entries processed, held, approved; notes settled
validtime   valid-time strings (since, until): parse, format, current or not
config      Config: the settings rules.md gives, their defaults and JSON form
hit         Hit: one recall result
"""
