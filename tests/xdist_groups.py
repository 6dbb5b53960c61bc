"""``--dist loadgroup`` (scripts/test) on pytest 9.2: the tests marked with one
``xdist_group`` run on one worker again.

pytest-xdist 3.8 tells the scheduler a test's group by appending "@group" to its node id
(``item._nodeid``); pytest 9.2 keeps node ids structured (``item._id``) and no longer reads
that attribute, so the groups were silently lost and, for example, the paper module laid
out its minute of documents on both workers (pytest-dev/pytest-xdist#1386, fix pending in
#1388). This does what the fix does, once, after xdist's own hook; with a pytest or xdist
that already groups, the suffix is there and nothing changes.
"""

from __future__ import annotations

import pytest


def _groups(item) -> list[str]:
    names = {str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
             for mark in item.iter_markers("xdist_group")}
    return sorted(names)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    if not getattr(config.option, "loadgroup", False):
        return
    try:
        from _pytest.nodeid import coerce_node_id
    except ImportError:  # a pytest before structured node ids: xdist's own suffix works
        return
    for item in items:
        groups = _groups(item)
        if not groups or not hasattr(item, "_id"):
            continue
        suffix = "@" + "_".join(groups)
        if not item.nodeid.endswith(suffix):
            item._id = coerce_node_id(item.nodeid + suffix)
