"""Reading the app's pages in tests: one HTML parser instead of regular expressions over the
markup. It is Lexbor's (selectolax), a WHATWG parser written in C: the tree is the one the
standard's algorithm builds, handed on as the standard library's ``Element`` tree, in about
3 ms for a 38 kB game page (tinyhtml5, the pure-Python parser WeasyPrint uses, took 130 ms,
and the suite reads thousands of pages). A ``<template>``'s content is not in the tree: it is
inert markup for the scripts, which the browser does not draw either.

``Page(response)`` parses once; ``text()`` is what a reader sees (no script or style, tags as
spaces, entities decoded, spaces collapsed); the other helpers find what the screens draw:
a score tile, a money cell, a field's value or its error, a checked choice. A helper that
finds nothing fails the test with what it looked for.
"""

from __future__ import annotations

from xml.etree.ElementTree import Element, SubElement

from selectolax.lexbor import LexborHTMLParser

HIDDEN = ("script", "style", "template")


class Page:
    def __init__(self, response_or_html):
        content = getattr(response_or_html, "content", response_or_html)
        if isinstance(content, bytes):
            content = content.decode()
        self.root: Element = element_tree(content)

    # -- finding elements ------------------------------------------------------------------

    def all(self, tag: str = "*", **attrs) -> list[Element]:
        """Elements of ``tag`` whose attributes have the given values (``class_`` is one of
        the element's classes, ``data_key`` the data-key attribute...)."""
        found = []
        for el in self.root.iter(None if tag == "*" else tag):
            if all(_has(el, name, value) for name, value in attrs.items()):
                found.append(el)
        return found

    def one(self, tag: str = "*", **attrs) -> Element:
        found = self.all(tag, **attrs)
        assert len(found) == 1, f"{len(found)} <{tag}> with {attrs}, not one"
        return found[0]

    def first(self, tag: str = "*", **attrs) -> Element:
        found = self.all(tag, **attrs)
        assert found, f"no <{tag}> with {attrs}"
        return found[0]

    # -- what the screens draw -------------------------------------------------------------

    def text(self, el: Element | None = None) -> str:
        """The visible text of the page (or of ``el``), every tag a space, spaces collapsed."""
        return " ".join(" ".join(_texts(self.root if el is None else el)).split())

    def tile(self, key: str) -> str:
        """The value of the score tile of ``key`` (a player or a side)."""
        tiles = [el for el in self.all(data_key=key)
                 if _child(el, "score-name") is not None and _child(el, "score-value") is not None]
        assert tiles, f"no score tile for {key}"
        return self.text(_child(tiles[0], "score-value"))

    def money_cell(self, player: str) -> str:
        cells = self.all("td", data_player=player)
        assert cells, f"no money for {player}"
        return self.text(cells[0])

    def field_error(self, field: str) -> str:
        errors = self.all(id=f"id_{field}_error")
        assert errors, f"no error at {field}"
        return self.text(errors[0])

    def field_value(self, name: str) -> str:
        """What a field holds: a text area's text or an input's value."""
        areas = self.all("textarea", name=name)
        if areas:
            return "".join(areas[0].itertext())
        inputs = self.all("input", name=name)
        assert inputs, f"no input {name}"
        return inputs[0].get("value", "")

    def checked(self, name: str | None = None, value: str | None = None) -> list[Element]:
        """The checked inputs (of ``name``, with ``value``)."""
        return [el for el in self.all("input")
                if el.get("checked") is not None
                and (name is None or el.get("name") == name)
                and (value is None or el.get("value") == value)]


def element_tree(content: str) -> Element:
    """``content`` parsed as the standard says, as an ``Element`` tree rooted at <html>:
    elements with their attributes (a bare attribute's value is ""), text as ``text`` and
    ``tail``; comments left out (their neighbours' text is kept)."""
    document = LexborHTMLParser(content)
    root = Element("html", _attributes(document.root))
    _grow(root, document.root)
    return root


def _attributes(node) -> dict[str, str]:
    return {name: "" if value is None else value for name, value in node.attributes.items()}


def _grow(parent: Element, node) -> None:
    last = None
    for child in node.iter(include_text=True):
        tag = child.tag
        if tag == "-text":
            text = child.text_content
            if last is None:
                parent.text = (parent.text or "") + text
            else:
                last.tail = (last.tail or "") + text
        elif tag.startswith("-") or tag.startswith("_"):  # a comment, a doctype
            continue
        else:
            last = SubElement(parent, tag, _attributes(child))
            _grow(last, child)


def _has(el: Element, name: str, value) -> bool:
    attr = el.get(name.rstrip("_").replace("_", "-"))
    if name == "class_":
        return attr is not None and value in attr.split()
    if value is True:
        return attr is not None
    return attr == value


def _child(el: Element, cls: str) -> Element | None:
    return next((c for c in el if cls in (c.get("class") or "").split()), None)


def _texts(el: Element):
    if not isinstance(el.tag, str) or el.tag in HIDDEN:
        return  # (its tail is its parent's to give)
    if el.text:
        yield el.text
    for child in el:
        yield from _texts(child)
        if child.tail:
            yield child.tail


def text(response) -> str:
    """The visible text of a page (Page(response).text())."""
    return Page(response).text()


def tile(response, key: str) -> str:
    return Page(response).tile(key)


def money_cell(response, player: str) -> str:
    return Page(response).money_cell(player)


def field_error(response, field: str) -> str:
    return Page(response).field_error(field)


def field_value(response, field: str) -> str:
    return Page(response).field_value(field)
