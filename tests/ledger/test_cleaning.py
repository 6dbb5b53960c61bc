"""``ledger.cleaning`` on its own, without a database or a request: every hostile value
(hostile.py) into every function that cleans or refuses input, and hypothesis for what must
hold of any text, number or JSON document.

Each form, service and import calls these functions, so this is where each value is judged;
test_hostile_input.py then posts a sample of the same values into every form and every
import to show that each door goes through them (no 500, nothing changed).
"""

from __future__ import annotations

import json
import re
import string
import unicodedata

import pytest
from django import forms
from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger import cleaning
from ledger.cleaning import Refused
from ledger.cleaning.text import _DIRECTION_CONTROLS, _INVISIBLE
from ledger.exceptions import RecordRefused
from ledger.forms.clean_input import CleanInputMixin
from ledger.presentation.problems import plain_line
from ledger.presentation.refusal_sentences import bad_words
from ledger.presentation.refusals import refusal_words
from ledger.rules.money import CURRENCIES

from .conftest import DEMO_SESSION, load_case
from .hostile import (
    ALWAYS_REFUSED,
    HOSTILE,
    JSON_HOSTILE,
    JSON_REFUSED_ANYWHERE,
    MAYBE,
    NOT_PLAIN_NUMBERS,
    deep,
    paths,
    replaced,
)

#: What the message says of each value every field refuses.
REASON = {
    "nul": "contains a NUL character",
    "control": "contains a control character (U+001B)",
    "direction override": "contains an invisible direction control (U+202E)",
    "100k characters": "is 100000 characters long",
}
TEXTS = [label for label, value in HOSTILE.items() if isinstance(value, str)]


def refusal(call) -> str | None:
    """The message of the Refused that ``call()`` raises, or None if it returns."""
    try:
        call()
    except Refused as exc:
        return refusal_words(exc)
    return None


def assert_fit_to_store(text: str, value: str) -> None:
    """What cleaned text is: no bad character, composed, trimmed, and stable."""
    assert cleaning.bad_character(text) is None, repr(value)
    assert unicodedata.is_normalized("NFC", text), repr(value)
    assert text == text.strip().strip(_INVISIBLE), repr(value)


# -- text and names --------------------------------------------------------------------------

@pytest.mark.parametrize("label", ALWAYS_REFUSED)
def test_text_and_names_refuse_the_values_every_field_refuses(label):
    value = ALWAYS_REFUSED[label]
    for call, what in (
        (lambda: cleaning.clean_text(value, what="Place", max_length=200), "Place"),
        (lambda: cleaning.clean_text(value, what="Notes", max_length=2000, multiline=True),
         "Notes"),
        (lambda: cleaning.clean_name(value, what="Player 2"), "Player 2"),
        (lambda: cleaning.clean_name(value), "The name"),
    ):
        message = refusal(call)
        assert message is not None, (label, what)
        assert message.startswith(f"{what} {REASON[label]}"), message


@pytest.mark.parametrize("label", TEXTS)
def test_text_is_refused_or_cleaned_into_text_fit_to_store(label):
    value = HOSTILE[label]
    for multiline in (False, True):
        try:
            text = cleaning.clean_text(value, what="Place", max_length=200, multiline=multiline)
        except Refused as exc:
            assert refusal_words(exc).startswith("Place "), refusal_words(exc)
            continue
        if not multiline:
            assert_fit_to_store(text, value)
        assert cleaning.clean_text(text, what="Place", max_length=200,
                                   multiline=multiline) == text


def test_what_text_cleaning_makes_of_each_value_that_may_be_accepted():
    def clean(value, **kw):
        return cleaning.clean_text(value, what="Place", max_length=200, **kw)

    assert clean(MAYBE["zero-width"]) == "Ann"
    assert clean(MAYBE["only invisible"]) == ""
    assert refusal(lambda: clean(MAYBE["only invisible"], required=True)) == "Place is empty."
    assert refusal(lambda: clean(MAYBE["line break"])) == \
        "Place contains a line break; type it again without it."
    assert clean(MAYBE["line break"], multiline=True) == "A\nB"
    assert clean(MAYBE["tag"]) == "<script>alert(1)</script>"  # escaped where it is drawn
    assert clean(MAYBE["fullwidth"]) == "Ａnn"
    assert clean(MAYBE["negative"]) == "-1"
    assert refusal(lambda: clean(MAYBE["twice"])) == "Place must be text, not ['1', '2']."
    assert clean("  e\u0301te\u200b ") == "\u00e9te"  # composed and trimmed


def test_what_name_cleaning_makes_of_each_value_that_may_be_accepted():
    assert cleaning.clean_name(MAYBE["zero-width"]) == "Ann"
    assert cleaning.clean_name("An\u200bn  \u00adLee") == "Ann Lee"
    assert refusal(lambda: cleaning.clean_name(MAYBE["only invisible"])) == \
        "The name has no visible character."
    assert refusal(lambda: cleaning.clean_name(MAYBE["line break"])) == \
        "The name contains a line break; type it again without it."
    assert refusal(lambda: cleaning.clean_name("A" * 61)) == \
        "The name is 61 characters long; at most 60."
    assert cleaning.clean_name(MAYBE["fullwidth"]) == "Ａnn"
    assert cleaning.same_name("Ａnn", ["Bob", "ANN"]) == "ANN"
    assert cleaning.same_name("Ann", ["Ann"]) is None  # the same name is not a clash
    assert "Ann already plays at this table: Ａnn differs" in \
        refusal_words(cleaning.name_clash("Ａnn", "Ann"))


@pytest.mark.parametrize("label", [*ALWAYS_REFUSED, "line break"])
def test_bad_character_names_the_character(label):
    bad = cleaning.bad_character(HOSTILE[label])  # its kind and code, worded by the page
    assert (bad and bad_words(bad)) == (
        None if label == "100k characters" else
        "a line break" if label == "line break" else REASON[label].removeprefix("contains "))
    assert bad_words(cleaning.bad_character("\ud800")) == \
        "a broken character (a lone surrogate)"
    assert cleaning.bad_character("A\tB\r\n", multiline=True) is None


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_is_refused_or_cleaned_once_for_all(value):
    try:
        text = cleaning.clean_text(value, what="Place", max_length=200)
    except Refused as exc:
        assert refusal_words(exc).startswith("Place ")
        return
    assert_fit_to_store(text, value)
    assert len(text) <= 200
    assert cleaning.clean_text(text, what="Place", max_length=200) == text


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_name_is_refused_or_cleaned_to_a_name_of_the_same_person(value):
    try:
        name = cleaning.clean_name(value)
    except Refused as exc:
        assert refusal_words(exc).startswith("The name ")
        return
    assert_fit_to_store(name, value)
    assert name and len(name) <= cleaning.MAX_NAME
    assert not set(name) & set(_INVISIBLE) and "  " not in name
    assert cleaning.clean_name(name) == name
    assert cleaning.name_key(name) == cleaning.name_key(value)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.ascii_letters + " ", min_size=1))
def test_names_differing_in_case_width_spaces_or_invisibles_are_one_person(name):
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if c != " " else c for c in name)
    key = cleaning.name_key(name)
    for other in (name.upper(), name.lower(), fullwidth, f" {name}\u200b ",
                  name.replace(" ", "  ")):
        assert cleaning.name_key(other) == key, other


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_bad_character_finds_exactly_control_broken_and_direction_characters(text):
    bad = [c for c in text if unicodedata.category(c) in ("Cc", "Cs")
           or c in _DIRECTION_CONTROLS]
    assert (cleaning.bad_character(text) is None) == (not bad)


# -- numbers, currencies, tokens, file names -------------------------------------------------

@pytest.mark.parametrize("label", [*ALWAYS_REFUSED, *NOT_PLAIN_NUMBERS, "fullwidth",
                                   "zero-width", "tag", "line break"])
def test_numbers_refuse_anything_but_ascii_digits(label):
    value = HOSTILE[label]
    assert not cleaning.is_plain_int(value)
    assert not cleaning.is_plain_decimal(value)
    message = refusal(lambda: cleaning.plain_int(value, what="Hand 3, Ann's count"))
    assert message is not None and message.startswith(
        "Hand 3, Ann's count: write a whole number with the digits 0-9, like 25, not "), message


def test_numbers_out_of_bounds_or_not_numbers_at_all_are_refused_in_words():
    def plain(value):
        return refusal(lambda: cleaning.plain_int(value, what="Count", minimum=0,
                                                  maximum=500))
    assert plain(MAYBE["negative"]) == "Count: -1 is below 0."
    assert plain(MAYBE["huge number"]) == \
        "Count: 10000000000000000000000000 is above 500, the most allowed."
    assert plain("1" * 31).startswith("Count: write a whole number")  # 31 digits: too long
    assert plain(MAYBE["twice"]) == "Count: a whole number, not ['1', '2']."
    for value in (True, 1.0, None, {"n": 1}):
        assert plain(value).startswith("Count: a whole number, not ")
    assert cleaning.plain_int(" +25 ", what="Count") == 25
    assert cleaning.is_plain_decimal("0.05") and cleaning.is_plain_decimal(".5")
    assert not cleaning.is_plain_decimal("1.2.3")


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=-10 ** 29, max_value=10 ** 29))
def test_any_whole_number_in_ascii_digits_is_read_back(number):
    assert cleaning.plain_int(str(number), what="Count") == number
    assert cleaning.plain_int(number, what="Count") == number
    assert cleaning.is_plain_decimal(str(number))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_gives_a_number_only_when_written_in_ascii_digits(text):
    ascii_number = re.fullmatch(r"[+-]?[0-9]{1,30}", text.strip()) is not None
    try:
        number = cleaning.plain_int(text, what="Count")
    except Refused:
        assert not ascii_number
    else:
        assert ascii_number and number == int(text.strip())
    if not text.isascii():
        assert not cleaning.is_plain_int(text) and not cleaning.is_plain_decimal(text)


@pytest.mark.parametrize("label", [label for label in HOSTILE if label != "twice"])
def test_currencies_refuse_every_hostile_value(label):
    message = refusal(lambda: cleaning.clean_currency(HOSTILE[label], what="Currency"))
    assert message is not None and message.startswith("Currency: ")
    assert "is not an ISO 4217 currency code" in message


def test_currencies_are_iso_4217_codes_as_the_core_knows_them():
    assert all(cleaning.clean_currency(f" {code.lower()} ") == code for code in CURRENCIES)
    assert "XXX means 'no currency'" in refusal(lambda: cleaning.clean_currency("xxx"))
    assert refusal(lambda: cleaning.clean_currency(["USD"])).startswith(
        "Currency: ['USD'] is not an ISO 4217")


@pytest.mark.parametrize("label", TEXTS)
def test_share_tokens_and_file_names_from_hostile_text(label):
    value = HOSTILE[label]
    assert cleaning.is_token(value) == (label == "huge number")  # 26 ASCII digits: could be
    name = cleaning.safe_filename(value)
    assert re.fullmatch(r"[A-Za-z0-9._-]{1,150}", name), name


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_makes_a_safe_file_name(text):
    name = cleaning.safe_filename(text)
    assert re.fullmatch(r"[A-Za-z0-9._-]{1,150}", name), name
    assert cleaning.is_token(text) == bool(re.fullmatch(r"[A-Za-z0-9_-]{8,64}", text))


# -- forms -----------------------------------------------------------------------------------

class EveningForm(CleanInputMixin, forms.Form):
    """One field of each kind the screens have."""

    place = forms.CharField(max_length=200, required=False)
    name = forms.CharField(label="Player 1", max_length=60)
    count = forms.CharField(widget=forms.TextInput(attrs={"inputmode": "numeric"}))
    hands = forms.IntegerField(min_value=0)
    rate = forms.DecimalField(max_digits=12, decimal_places=4)
    kind = forms.ChoiceField(choices=[("knock", "Knock"), ("gin", "Gin")])
    date = forms.DateField()
    notes = forms.CharField(widget=forms.Textarea, max_length=2000, required=False)
    password = forms.CharField(widget=forms.PasswordInput, required=False)


GOOD = {"place": "Kitchen", "name": "Ann", "count": "25", "hands": "3", "rate": "0.05",
        "kind": "gin", "date": "2025-11-21", "notes": "a\nb", "password": "pw"}
NUMERIC = {"count": "Count", "hands": "Hands", "rate": "Rate"}
LABELS = {"place": "Place", "name": "Player 1", "count": "Count", "hands": "Hands",
          "rate": "Rate", "kind": "Kind", "date": "Date", "notes": "Notes"}


def bound(field: str, value) -> EveningForm:
    data = QueryDict(mutable=True)
    data.update(GOOD)
    data.setlist(field, value if isinstance(value, list) else [value])
    return EveningForm(data)


def test_the_good_values_are_accepted():
    form = bound("place", "Kitchen")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["hands"] == 3 and str(form.cleaned_data["rate"]) == "0.05"


@pytest.mark.parametrize("field", list(LABELS))
@pytest.mark.parametrize("label", list(HOSTILE))
def test_a_form_refuses_at_its_field_or_cleans_each_hostile_value(field, label):
    value = HOSTILE[label]
    form = bound(field, value)
    valid = form.is_valid()
    assert set(form.errors) <= {field}, form.errors  # the other fields are not blamed
    if label in ALWAYS_REFUSED or (label in NOT_PLAIN_NUMBERS and field in NUMERIC):
        assert not valid
        (message,) = form.errors[field]
        if label != "100k characters":
            # (a long text is the field's own to refuse: "at most 200 characters")
            assert message.startswith(LABELS[field]), message
    if label in NOT_PLAIN_NUMBERS and field in NUMERIC:
        assert "with the digits 0-9" in form.errors[field][0]
    if label in ("arabic digits", "superscript") and field == "date":
        assert form.errors[field] == ["Date: write the date with the digits 0-9, like "
                                      "2025-11-21."]
    if valid:
        cleaned = form.cleaned_data[field]
        if isinstance(cleaned, str):
            assert_fit_to_store(cleaned.replace("\n", " "), value)


@pytest.mark.parametrize("label", ALWAYS_REFUSED)
def test_check_form_value_names_the_field_and_the_reason(label):
    value, problem = cleaning.check_form_value(forms.CharField(label="Place"), "place",
                                               ALWAYS_REFUSED[label])
    problem = refusal_words(problem)  # a refusal as data: the page words it
    if label == "100k characters":  # refused before anything reads it: the bytes limit
        assert problem == "Place is 100,000 bytes long; at most 16,384 bytes here."
    else:
        assert value == "" and problem == f"Place {REASON[label]}; type it again without it."
    # a password is taken as typed (Django's own field refuses a NUL in it), up to the
    # bytes any one field may hold
    taken = cleaning.check_form_value(forms.CharField(widget=forms.PasswordInput), "pw",
                                      ALWAYS_REFUSED[label])
    if label == "100k characters":
        assert taken[0] == "" and refusal_words(taken[1]) == \
            "Pw is 100,000 bytes long; at most 16,384 bytes here."
    else:
        assert taken == (ALWAYS_REFUSED[label], None)


def test_a_field_name_without_a_label_is_written_in_words():
    _, problem = cleaning.check_form_value(forms.IntegerField(), "per_points", "²")
    assert refusal_words(problem) == \
        "Per points: write a whole number with the digits 0-9, like 25."
    _, problem = cleaning.check_form_value(forms.DecimalField(), "rate", "1e3")
    assert refusal_words(problem) == "Rate: write an amount with the digits 0-9, like 0.05."
    assert cleaning.check_form_value(forms.DecimalField(), "rate", " 0,05 ") == ("0,05", None)


# -- JSON records ----------------------------------------------------------------------------

def where(path: tuple) -> str:
    """How a problem names a place of a record: hands[0].deadwood.A"""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out


RECORDS = {
    "gin-standard-game": (lambda: load_case("gin-standard-game"), 4),
    "captain-five-money": (lambda: load_case("captain-five-money"), 3),
    "cap-it-pot": (lambda: load_case("cap-it-pot"), 3),
    "demo session": (lambda: json.loads(DEMO_SESSION.read_text()), 4),
}


@pytest.mark.parametrize("source", list(RECORDS))
def test_every_hostile_json_value_in_every_part_of_a_record(source):
    load, depth = RECORDS[source]
    record = load()
    problems_of = (cleaning.session_record_problems if source == "demo session"
                   else cleaning.game_record_problems)
    assert problems_of(record) == []
    tried = 0
    for path in paths(record, max_depth=depth):
        for label, value in JSON_HOSTILE.items():
            problems = said(problems_of(replaced(record, path, value)))
            assert all(isinstance(p, str) and p for p in problems), problems
            assert len(problems) <= 40
            if label in JSON_REFUSED_ANYWHERE:
                assert problems, (path, label)
                assert any(where(path) in p for p in problems), (path, label, problems)
            tried += 1
    assert tried > 250


@pytest.mark.parametrize(("change", "problem"), [
    (lambda r: {**r, "stakes": [1]},
     "stakes: must be an object (rate, per_points, currency...), not [1]"),
    (lambda r: {**r, "players": "AB"}, "players: must be a list of names, not 'AB'"),
    (lambda r: {**r, "players": ["A", "Ａ"]},
     "players[1]: 'Ａ' and 'A' are the same name (they differ only in capitals, width or "
     "spaces)"),
    (lambda r: {**r, "players": ["A\u200b", "B"]},
     "players[0]: 'A\\u200b' has extra or invisible characters; write it as 'A'"),
    (lambda r: {**r, "players": ["\u200b", "B"]}, "players[0] has no visible character"),
    (lambda r: {**r, "stakes": {**r["stakes"], "per_points": 2 ** 31}},
     "stakes.per_points: 2147483648 is not between 1 and 100000"),
    (lambda r: {**r, "stakes": {**r["stakes"], "currency": "NAN"}},
     "stakes.currency: 'NAN' is not an ISO 4217 currency code, such as USD, EUR or GBP"),
    # (an unknown key is ignored, as the record format says: junk in a known field instead)
    (lambda r: {**r, "hands": [{**r["hands"][0], "upcard": {"x": [1]}}]},
     "hand 1: upcard: must be a card such as 7S, not {'x': [1]}"),
    (lambda r: {**r, "hands": [{"knocker": "A", "deadwood": {"A": [5], "B": 17}}]},
     "hand 1: deadwood.A: must be a number or cards, not [5]"),
    (lambda r: {**r, "hands": [{"knocker": ["A"], "deadwood": {"A": 5, "B": 17}}]},
     "hand 1: knocker: must be a name, not ['A']"),
    (lambda r: {**r, "hands": [{"gin": "yes", "deadwood": {"A": 5, "B": 17}}]},
     "hand 1: gin: must be true or false, not 'yes'"),
    (lambda r: {**r, "hands": [{"tables": [{"tables": []}]}]},
     "hand 1, table 1: tables: must be a list of the tables' hands"),
    (lambda r: {**r, "rules": [1]}, "rules: must be an object, not [1]"),
    (lambda r: {**r, "hands": {"1": {}}}, "hands: must be a list of hands"),
    (lambda r: [r], "the game record must be a JSON object"),
])
def test_the_reported_hostile_records_are_refused_in_words(change, problem):
    record = change(load_case("gin-standard-game"))
    problems = said(cleaning.game_record_problems(record))
    assert problem in problems, problems
    with pytest.raises(RecordRefused):
        cleaning.check_game_record(record)


def said(problems) -> list[str]:
    """A record's problems as a command prints them: a line of the record's, or the words
    of a refusal of the cleaning it carries as data (``refusal_problem``)."""
    return [plain_line(problem) for problem in problems]


def test_a_session_record_is_refused_in_words():
    record = json.loads(DEMO_SESSION.read_text())
    assert said(cleaning.session_record_problems({**record, "players": "Ann"})) == \
        ["players: must be a list of names, not 'Ann'"]
    assert said(cleaning.session_record_problems({**record, "table": "Friday\u200b"})) == \
        ["table: 'Friday\\u200b' has extra or invisible characters; write it as 'Friday'"]
    assert said(cleaning.session_record_problems({**record, "currency": "XXX"})) == [
        "currency: XXX means 'no currency'; give the code of the money played for, such as "
        "USD or EUR"]
    assert said(cleaning.session_record_problems({**record, "games": {}})) == \
        ["games: must be a list of game records"]
    assert said(cleaning.session_record_problems({**record, "settlement": {"payments": [1]}})) == \
        ["settlement.payments[1]: must be an object of from, to, amount and paid"]
    assert cleaning.record_hand_count(record) == sum(len(g["hands"]) for g in record["games"])
    with pytest.raises(RecordRefused):
        cleaning.check_session_record([record])


@pytest.mark.parametrize(("data", "message"), [
    (b"\xff{}", "upload: not UTF-8 text (byte 0)"),
    (b"{", "upload: not valid JSON (Expecting property name enclosed in double quotes: "
           "line 1 column 2 (char 1))"),
    (b'{"abandoned": NaN}', "upload: NaN is not a number a record may hold"),
    (b'[Infinity]', "upload: Infinity is not a number a record may hold"),
    (b"[" * 100_000 + b"]" * 100_000, "upload: nested too deeply"),
])
def test_load_json_refuses_what_is_not_a_json_document(data, message):
    assert refusal(lambda: cleaning.load_json(data, where="upload")) == message


def test_load_json_reads_utf8_with_or_without_a_byte_order_mark():
    assert cleaning.load_json('\ufeff{"table": "Café"}'.encode(), where="x") == \
        {"table": "Café"}
    assert cleaning.game_record_problems(deep(11))[0].endswith("nested too deeply")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["players", "hands", "stakes", "knocker", "deadwood",
                                       "tables", "rules", "x", "A"]) | st.text(max_size=5),
                      children, max_size=4),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_any_json_value_is_judged_without_an_error(value):
    for problems_of in (cleaning.game_record_problems, cleaning.session_record_problems):
        problems = said(problems_of(value))
        assert isinstance(problems, list) and all(isinstance(p, str) and p for p in problems)
    try:
        assert cleaning.check_hand_entry(value, 3) is value
    except RecordRefused as exc:
        assert all(p.startswith("hand 3") for p in exc.problems), exc.problems
    assert cleaning.record_hand_count(value) >= 0


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_are_a_json_document_or_refused_in_words(data):
    try:
        cleaning.load_json(data, where="upload")
    except Refused as exc:
        assert refusal_words(exc).startswith("upload: ")
