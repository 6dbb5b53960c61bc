"""The hostile values, shared by the unit tests of ``ledger.cleaning`` (test_cleaning.py:
every value into every cleaning function) and the view and import pass
(test_hostile_input.py: a sample of them into every form and every import)."""

from __future__ import annotations

import copy

#: Values every field must refuse, leaving the database as it was.
ALWAYS_REFUSED = {
    "nul": "12\x00",
    "control": "\x1b[2J",
    "direction override": "Ann\u202eknaB",
    "100k characters": "9" * 100_000,
}
#: Numbers written other than with ASCII digits: every numeric field refuses them.
NOT_PLAIN_NUMBERS = {"arabic digits": "١٢", "superscript": "²", "underscore": "1_0",
                     "exponent": "1e3"}
#: Values that may be accepted once cleaned.
MAYBE = {
    "negative": "-1", "huge number": "1" + "0" * 25, "fullwidth": "Ａnn",
    "zero-width": "Ann\u200b", "only invisible": "\u200b\u2060", "line break": "A\nB",
    "twice": ["1", "2"], "tag": "<script>alert(1)</script>",
}
HOSTILE = {**ALWAYS_REFUSED, **NOT_PLAIN_NUMBERS, **MAYBE}
#: The values that mean something to each kind of form field (a choice gets no look-alike
#: text: any unknown value is one). Every kind also gets ALWAYS_REFUSED and "twice".
FOR_KIND = {
    "numeric": [*NOT_PLAIN_NUMBERS, "negative", "huge number"],
    "text": ["fullwidth", "zero-width", "only invisible", "line break", "tag", "negative"],
    "choice": ["negative", "fullwidth"],
    "hidden": ["superscript", "negative", "huge number"],
}


def deep(levels: int):
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


#: What is put in the place of each part of an imported JSON record.
JSON_HOSTILE = {
    "nul": "A\x00", "lone surrogate": "\ud800", "direction": "A\u202e", "long text": "x" * 5000,
    "huge int": 2 ** 64, "per-points huge": 2 ** 31, "negative": -1, "float": 1.5,
    "list": [1], "object": {"x": {"y": [1]}}, "deep": deep(50), "unicode digits": "١٢",
    "fullwidth": "Ａ", "zero-width": "A\u200b", "string": "Ann",
}
#: Of JSON_HOSTILE, what a record may hold nowhere (refused by the cleaning wherever it is).
JSON_REFUSED_ANYWHERE = ("nul", "lone surrogate", "direction", "long text", "huge int", "deep")


def paths(value, prefix=(), depth=0, max_depth=4):
    """Places in a JSON document (whole branches and leaves): every key down to
    ``max_depth``, and of each list its first two items (the first hands stand for all)."""
    yield prefix
    if depth >= max_depth:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key), depth + 1, max_depth)
    elif isinstance(value, list):
        for index, item in enumerate(value[:2]):
            yield from paths(item, (*prefix, index), depth + 1, max_depth)


def replaced(record, path, value):
    """A copy of ``record`` with the part at ``path`` replaced by ``value``."""
    record = copy.deepcopy(record)
    if not path:
        return value
    target = record
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return record
