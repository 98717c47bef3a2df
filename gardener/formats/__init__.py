"""The files' formats: parse and render, pure.

entryline   one daily-note entry line as ``gardener note`` writes it, and its limits
dailynote   a daily note: front matter and entries
blocks      a daily note's headings and code fences, and what is open at its end
memoryfile  MEMORY.md's managed block: facts, sections, attributes
rules       rules.md's front matter -> Config
backtrack   whether a rules.md regex can backtrack exponentially
retired     the register of retired daily-note entries: its lines
"""
