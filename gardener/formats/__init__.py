"""The files' formats: parse and render, pure.

entryline   one daily-note entry line as ``gardener note`` writes it, and its limits
dailynote   a daily note: front matter and entries
memoryfile  MEMORY.md's managed block: facts, sections, attributes
rules       rules.md's front matter -> Config
retired     the register of retired daily-note entries: its lines
"""
