"""Every input cleaned or refused, in one place, with a message that names the field.

Forms (through ``ledger.forms.clean_input.CleanInputMixin``), services and the record
imports all call this module, so a value is judged the same way whichever door it came in by:

- **Text** is refused when it holds a NUL, another control character (a line break in a
  one-line field), a lone surrogate (a broken character) or an invisible direction control;
  otherwise it is put in Unicode's composed form (NFC) and the spaces and zero-width
  characters around it are removed.
- **Names** (players, sides, the account's display name) also lose the invisible characters
  inside them (zero-width spaces and joiners, soft hyphens, direction marks) and runs of
  spaces; two names are the same person's when they differ only by case, width
  (``Ａnn``/``Ann``) or invisible characters: ``name_key`` (NFKC, case-folded) compares them.
- **Numbers** are written with the ASCII digits 0-9 only: ``1_0``, ``²``, ``١`` and ``1e3``
  are refused (Python's ``int()`` and ``Decimal()`` would accept them). A number sent as a
  parameter (an id, a hand's number, ``parts``, ``table``, ``again``) is read by
  ``read_number`` alone: digits and nothing else (no sign, no spaces).
- **Player names** the hand form uses as values (``-draw-``, ``-nobody-``: ``reserved_name``)
  are refused everywhere, imports included.
- **Dates** of evenings are between 2000-01-01 and a year from today (``clean_date``).
- **Amounts** typed by a person are read in the locale of the page ("1.234,50" in German,
  "1 234,50" in French, "1,234.50" in English); one that could be read two ways ("1,234" in
  English, "1.234" in German) is refused with both readings (``read_amount``).
- **Time zones** are IANA's, as zoneinfo knows them; **languages** the ones shipped.
- **Currencies** are ISO 4217's, as the scoring core knows them (``ledger.rules.money
  .CURRENCIES``, each with its minor unit); ``XXX`` means "no currency".
- **Records** (JSON imports and hand entries) are refused, before any scoring, when nested
  too deeply, holding fields the format does not have, the same key twice in one object,
  junk inside a hand, or any of the above in a name or a date; nothing of a refused record
  is stored.

A package, one module per concern, everything importable from ``ledger.cleaning`` as before:
``base`` (``Refused``), ``text`` (text and names), ``values`` (numbers, currencies, tokens,
file names), ``local`` (amounts as a locale writes them, time zones, languages), ``forms``
(``check_form_value``, for ``CleanInputMixin``) and ``records`` (JSON records).
"""

from .base import Field, Refused
from .forms import check_form_value
from .local import (
    clean_language,
    clean_time_zone,
    read_amount,
    time_zone_choices,
    time_zone_names,
)
from .records import (
    DUEL_KEYS,
    GAME_KEYS,
    HAND_KEYS,
    MAX_DEPTH,
    MAX_RECORD_INT,
    MAX_RECORD_TEXT,
    SESSION_KEYS,
    STAKE_KEYS,
    check_game_record,
    check_hand_entry,
    check_session_record,
    game_record_problems,
    load_json,
    record_hand_count,
    session_record_problems,
)
from .text import (
    MAX_NAME,
    RESERVED_NAMES,
    Bad,
    bad_character,
    clean_name,
    clean_text,
    name_clash,
    name_key,
    names_by_key,
    reserved_name,
    same_name,
)
from .values import (
    EARLIEST_DATE,
    MAX_PER_POINTS,
    clean_currency,
    clean_date,
    content_disposition,
    is_ascii_number,
    is_plain_decimal,
    is_plain_int,
    is_token,
    plain_int,
    read_number,
    safe_filename,
)

__all__ = [
    "Field", "Refused", "check_form_value",
    "DUEL_KEYS", "GAME_KEYS", "HAND_KEYS", "MAX_DEPTH", "MAX_RECORD_INT", "MAX_RECORD_TEXT",
    "SESSION_KEYS", "STAKE_KEYS", "check_game_record", "check_hand_entry",
    "check_session_record", "game_record_problems", "load_json", "record_hand_count",
    "session_record_problems",
    "MAX_NAME", "Bad", "bad_character", "name_clash", "clean_name", "clean_text", "name_key",
    "RESERVED_NAMES", "reserved_name", "same_name", "EARLIEST_DATE", "clean_date",
    "MAX_PER_POINTS", "clean_currency", "content_disposition", "is_ascii_number",
    "is_plain_decimal", "is_plain_int", "is_token", "plain_int", "read_number", "safe_filename",
    "names_by_key",
    "clean_language", "clean_time_zone", "read_amount", "time_zone_choices",
    "time_zone_names",
]
