"""The forms' renderer (``FORM_RENDERER``): Django's own, except that the plain widgets, an
``<input>`` (text, number, hidden, a radio's or checkbox's option...) and a ``<textarea>``,
are written here in Python, to the byte what Django's templates
(``django/forms/widgets/input.html``, ``attrs.html``, ``textarea.html``) write.

A hand form has a dozen of them (the key, the number, the counts, each option of "Who
knocked?" and "How", the cards), and the next hand's form is drawn on every Save: through
the template engine they cost about 4 ms of a 45 ms Save. Every other widget, and a form's
or a field's own template, still goes through the templates."""

from __future__ import annotations

from django.forms.renderers import DjangoTemplates
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

_WIDGETS = "django/forms/widgets/"
#: the templates that are nothing but django/forms/widgets/input.html
INPUTS = frozenset(_WIDGETS + name + ".html" for name in (
    "input", "text", "number", "email", "url", "password", "hidden", "search", "tel",
    "date", "datetime", "time", "color", "file", "checkbox"))
#: input.html, wrapped in a label when the option asks for it (wrap_label)
OPTIONS = frozenset(_WIDGETS + name + ".html" for name in (
    "input_option", "radio_option", "checkbox_option"))
TEXTAREA = _WIDGETS + "textarea.html"


def _attrs(attrs: dict) -> str:
    """attrs.html: ' name="value"' for each, the name alone for True, nothing for False."""
    out = []
    for name, value in attrs.items():
        if value is False:
            continue
        out.append(f" {conditional_escape(name)}" if value is True
                   else f' {conditional_escape(name)}="{conditional_escape(str(value))}"')
    return "".join(out)


def _input(widget: dict) -> str:
    value = widget.get("value")
    shown = "" if value is None else f' value="{conditional_escape(str(value))}"'
    return (f'<input type="{conditional_escape(widget["type"])}" '
            f'name="{conditional_escape(widget["name"])}"{shown}{_attrs(widget["attrs"])}>')


def _textarea(widget: dict) -> str:
    value = widget.get("value")
    return (f'<textarea name="{conditional_escape(widget["name"])}"{_attrs(widget["attrs"])}>'
            f'\n{conditional_escape(value) if value else ""}</textarea>')


class FastWidgets(DjangoTemplates):
    """Django's template renderer, with the plain widgets written in Python (see above)."""

    def render(self, template_name, context, request=None) -> SafeString:
        widget = context.get("widget") if isinstance(context, dict) else None
        if widget is not None:
            if template_name in INPUTS or (template_name in OPTIONS
                                           and not widget.get("wrap_label")):
                return mark_safe(_input(widget))
            if template_name == TEXTAREA:
                return mark_safe(_textarea(widget))
        return super().render(template_name, context, request=request)
