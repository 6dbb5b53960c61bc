"""The forms' renderer (ledger/forms/rendering.py) writes the plain widgets in Python: what
it writes must be, to the byte, what Django's own templates write, for hostile values too."""

from __future__ import annotations

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe

from ledger.forms.fields import CARDS_INPUT, NUMERIC, SegmentedRadio
from ledger.forms.rendering import FastWidgets

HOSTILE = ['"><script>alert(1)</script>', "O'Brien & <Ann>", "", "0", "١٢", mark_safe("<b>")]


def both(widget, name, value, attrs=None):
    django_html = widget.render(name, value, attrs, renderer=DjangoTemplates())
    ours = widget.render(name, value, attrs, renderer=FastWidgets())
    return django_html, ours


WIDGETS = [
    forms.TextInput(attrs={**NUMERIC, "class": "count"}),
    forms.NumberInput(attrs={"min": 0, "step": "any"}),
    forms.HiddenInput(),
    forms.EmailInput(attrs={"required": True, "disabled": False}),
    forms.PasswordInput(render_value=True),
    forms.CheckboxInput(),
    forms.DateInput(),
    forms.Textarea(attrs={**CARDS_INPUT, "data-pos": 1, "rows": 2}),
    forms.Select(choices=[("a", "<A>"), ("b", "B")]),  # not ours: still the templates
]


@pytest.mark.parametrize("widget", WIDGETS, ids=lambda w: type(w).__name__)
@pytest.mark.parametrize("value", [None, *HOSTILE], ids=repr)
def test_each_plain_widget_is_written_as_djangos_templates_write_it(widget, value):
    django_html, ours = both(widget, 'f"<x>', value, {"id": "id_<f>", "aria-invalid": "true"})
    assert ours == django_html
    assert "<script>" not in ours


@pytest.mark.parametrize("widget_class", [SegmentedRadio, forms.RadioSelect,
                                          forms.CheckboxSelectMultiple])
def test_options_with_and_without_their_labels_are_as_djangos(widget_class):
    widget = widget_class(choices=[("Ann", "Ann"), ('"><i>', "<i>x</i>"), ("-draw-", "Draw")])
    for value in (None, "Ann", ['"><i>']):
        django_html, ours = both(widget, "t1_knocker", value, {"id": "id_t1", "required": True})
        assert ours == django_html
        for option in widget.subwidgets("t1_knocker", value, {"id": "id_t1"}):
            for wrap in (False, True):
                context = {"widget": {**option, "wrap_label": wrap}}
                assert (FastWidgets().render(option["template_name"], context)
                        == DjangoTemplates().render(option["template_name"], context))


def test_a_whole_form_is_drawn_as_with_djangos_renderer():
    class Form(forms.Form):
        name = forms.CharField(max_length=40, help_text="<b>help</b>")
        count = forms.IntegerField(required=False)
        kind = forms.ChoiceField(choices=[("knock", "Knock"), ("gin", "Gin")],
                                 widget=SegmentedRadio)
        cards = forms.CharField(widget=forms.Textarea, required=False)

    data = {"name": '"><script>', "count": "x", "kind": "gin", "cards": "AS </textarea>"}
    django_form = Form(data, renderer=DjangoTemplates())
    our_form = Form(data, renderer=FastWidgets())
    assert str(our_form) == str(django_form)
    assert "</textarea>" in str(our_form) and "&lt;/textarea&gt;" in str(our_form)
