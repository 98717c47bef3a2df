"""The headless judge: a language model answers the review queue.

prompt  ANSWER_SCHEMA, build_prompt (the question and the pending items), parse_answer
        (a model's text as well-shaped judgments): pure, no I/O
llm     judge_with_llm: the pending items to a model through the ``llm`` library, in
        batches, bounded by a count and a timeout; JudgeRun, what came back

A judgment has the shape ``gardener decide --json -`` reads; it is only a
proposal: ``decide`` validates and applies it (docs/design.md, Review). The
``llm`` library is an optional extra (``pip install 'memory-gardener[llm]'``)
and is imported only when a model is asked.
"""
