"""The sentences of the record's refusals, by code: ``said(exc)`` says a refusal (a code and
its facts) in the language in force, with the dates through the one date formatter. The
screens ask ``refusals.refusal_words``, which also words a refused record's problems."""

from __future__ import annotations

from decimal import Decimal

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal
from django.utils.translation import gettext, gettext_noop, ngettext

from ledger.models import GameStatus

from . import notices
from .dates import format_day


def _hand_taken(number, next_number=None, by="", at=None) -> str:
    return notices.taken_text(number, next_number, by, at=at)


def _hand_replaced(number, **_facts) -> str:
    return notices.replaced_text(number)


def _settled_no_games(date) -> str:
    return gettext("The evening of %(date)s is settled; its games can no longer change. "
                   "Start a new evening for more games.") % {"date": format_day(date)}


def _settled_no_changes(date) -> str:
    return gettext("The evening of %(date)s is settled: its date, table, currency and stake "
                   "no longer change. Reopen it first.") % {"date": format_day(date)}


def _not_settled(date) -> str:
    return gettext("The evening of %(date)s is not settled; nothing to reopen.") % {
        "date": format_day(date)}


def _date_out_of_range(what, date, earliest, latest) -> str:
    return gettext("%(what)s: %(date)s is not between %(earliest)s and %(latest)s "
                   "(a year from today).") % {
        "what": field_words(what), "date": format_day(date, "medium"),
        "earliest": format_day(earliest, "medium"), "latest": format_day(latest, "medium")}


#: the refusals said by one sentence of their facts (``gettext_noop``: the catalogs keep
#: them; said with ``gettext`` in the language in force)
SENTENCES = {
    "game_in_settled_evening": gettext_noop(
        "Game %(n)s is in a settled evening: it stays. Reopen the evening first to "
        "delete it."),
    "game_has_hands": gettext_noop(
        "Game %(n)s has hands (or had them: an undone hand stays in the history), so it "
        "stays; abandon it instead."),
    "game_has_money": gettext_noop("Game %(n)s has money in the ledger, so it stays."),
    "game_has_reports": gettext_noop(
        "Game %(n)s has reports from the tables, so it stays; abandon it instead."),
    # the evening and the book (services/book.py, sessions.py)
    "reopen_needs_reason": gettext_noop("Say why the evening is reopened (the reason is kept)."),
    "nothing_outstanding": gettext_noop("Nothing is outstanding in %(currency)s."),
    "squaring_undone_already": gettext_noop("This squaring of the book was undone already."),
    "squaring_nothing_to_undo": gettext_noop(
        "None of the payments this squaring marked paid is still paid by it (each was marked "
        "again since): nothing to undo."),
    "payment_voided": gettext_noop(
        "This payment belongs to a settlement voided when its evening was reopened; it no "
        "longer counts."),
    # sharing (services/sharing.py)
    "share_other_table": gettext_noop("That game is not played at this table."),
    "share_link_changed": gettext_noop("The link changed just now; share again."),
    # hands (services/hands.py)
    "key_reused_reload": gettext_noop(
        "This submission key was already used for another hand; reload and try again."),
    "key_reused": gettext_noop("This submission key was already used for another hand."),
    "wrong_hand_number": gettext_noop("The next hand of this game is %(next)s, not %(number)s."),
    "correction_needs_reason": gettext_noop("A correction needs a reason."),
    "correction_needs_who": gettext_noop("A correction must say who made it."),
    "nothing_to_undo": gettext_noop("This game has no hand to undo."),
    "wrong_last_hand": gettext_noop("The last hand is %(last)s, not %(number)s; reload the game."),
    # the tables and their evenings (services/tables.py)
    "evening_has_games": gettext_noop(
        "This evening has games: its table, currency and default stake no longer change."),
    # the table reports and the confirm link (services/reports.py)
    "no_report_links_game_over": gettext_noop(
        "This game takes no more hands; it needs no report links."),
    "no_report_links_one_table": gettext_noop(
        "This game is played at one table: its hands are entered here."),
    "report_link_dead": gettext_noop(
        "This report link no longer opens anything: ask the scorekeeper."),
    "link_not_for_tables": gettext_noop("This link is not for this game's tables."),
    "pick_your_name": gettext_noop("Pick your name first: who are you?"),
    "table_sits_out": gettext_noop("This table does not play this hand."),
    "no_confirm_link_game_over": gettext_noop(
        "This game takes no more hands; it needs no confirm link."),
    "confirm_two_hand_only": gettext_noop(
        "Only a two-hand game's hands are confirmed by the other player; the tables of this "
        "game report their own parts."),
    "link_dead": gettext_noop("This link no longer opens anything: ask the scorekeeper."),
    "confirm_answer": gettext_noop("answer: say correct or not correct."),
    "no_hand_saved": gettext_noop(
        "No hand has been saved yet; this page shows each hand once it is saved."),
}

#: a table report for another hand than the current one (``ReportStale``: its ``number`` is
#: the hand the phone moves on to, so the hand typed is ``typed`` in the facts)
STALE = {
    "round_recorded": gettext_noop(
        "Round %(number)s was already recorded; this phone moves on to round %(current)s."),
    "hand_recorded": gettext_noop(
        "Hand %(number)s was already recorded; this phone moves on to hand %(current)s."),
    "round_playing": gettext_noop(
        "The round being played is round %(current)s, not %(number)s."),
    "hand_playing": gettext_noop("The hand being played is hand %(current)s, not %(number)s."),
    "not_the_last_hand": gettext_noop(
        "Hand %(last)s is the last hand saved, not hand %(number)s; here it is."),
}


def _game_not_in_progress(n, status) -> str:
    return gettext("Game %(n)s is already %(status)s.") % {
        "n": n, "status": GameStatus(status).label}


def _game_takes_no_hands(n, status) -> str:
    return gettext("Game %(n)s is %(status)s; it takes no more hands.") % {
        "n": n, "status": str(GameStatus(status).label).lower()}


def _reopen_payments_paid(payments) -> str:
    return gettext("Payments of this evening are marked paid (%(payments)s). Undo those marks "
                   "first: money that changed hands must not vanish from the book.") % {
        "payments": ", ".join(f"{payer} → {payee}" for payer, payee in payments)}


def _table_name_taken(keeper, name) -> str:
    return gettext("%(keeper)s already keeps a table called %(name)s.") % {
        "keeper": keeper, "name": repr(name)}


def _table_kept_already(name) -> str:
    return gettext("You already keep a table called %(name)s.") % {"name": repr(name)}


def _confirm_who(players, given) -> str:
    return gettext("player: who confirms is one of %(players)s, not %(given)s.") % {
        "players": gettext(" or ").join(players), "given": repr(given)}


def _settle_open_games(games) -> str:
    return gettext("Finish or abandon game %(games)s before settling up the evening.") % {
        "games": ", ".join(str(n) for n in games)}


# -- the cleaning's refusals (ledger.cleaning): a value refused, at the field it names ---------

#: The fields the record names by a key (``what=Field("reason")``), in words; any other
#: ``what`` (a form's label, already in words; a place in a record, "players[2]") is said
#: as it is given.
FIELDS = {
    "reason": gettext_noop("The reason"),
    "table_name": gettext_noop("The table's name"),
    "your_name": gettext_noop("Your name"),
    "table_language": gettext_noop("The table's language"),
    "table_time_zone": gettext_noop("The table's time zone"),
    "name": gettext_noop("The name"),
    "new_name": gettext_noop("The new name"),
    "name_called": gettext_noop("The name %(name)s"),
    "place": gettext_noop("The place"),
    "notes": gettext_noop("The notes"),
    "date": gettext_noop("The date"),
    "currency": gettext_noop("Currency"),
    "parameter": gettext_noop("The parameter '%(name)s'"),
    "table_called": gettext_noop("The table %(name)s"),
}


def field_words(what) -> str:
    """A refused value's field in words: a ``cleaning.Field`` (a key of ``FIELDS`` and its
    facts), or words given as they are."""
    if isinstance(what, tuple):
        key, facts = what
        return gettext(FIELDS[key]) % facts if facts else gettext(FIELDS[key])
    return str(what)


#: What is wrong with a character of a text (``cleaning.bad_character``: its kind and code)
BAD_CHARACTERS = {
    "surrogate": gettext_noop("a broken character (a lone surrogate)"),
    "nul": gettext_noop("a NUL character"),
    "line_break": gettext_noop("a line break"),
    "control": gettext_noop("a control character (U+%(code)s)"),
    "bidi": gettext_noop("an invisible direction control (U+%(code)s)"),
}


def bad_words(bad) -> str:
    return gettext(BAD_CHARACTERS[bad.kind]) % {"code": bad.code}


#: The cleaning's refusals said by one sentence of their facts, ``what`` said by
#: ``field_words``
FIELD_SENTENCES = {
    "not_text": gettext_noop("%(what)s must be text, not %(value)s."),
    "empty": gettext_noop("%(what)s is empty."),
    "no_visible_character": gettext_noop("%(what)s has no visible character."),
    "not_whole": gettext_noop("%(what)s: write a whole number with the digits 0-9, like 25, "
                              "not %(value)s."),
    "below": gettext_noop("%(what)s: %(value)s is below %(minimum)s."),
    "above": gettext_noop("%(what)s: %(value)s is above %(maximum)s, the most allowed."),
    "date_unreadable": gettext_noop("%(what)s: write a date such as 2025-11-21, not "
                                    "%(value)s."),
    "not_a_date": gettext_noop("%(what)s: a date such as 2025-11-21, not %(value)s."),
    "not_a_whole_number": gettext_noop("%(what)s: a whole number, not %(value)s."),
    "currency_none": gettext_noop("%(what)s: XXX means 'no currency'; give the code of the "
                                  "money played for, such as USD or EUR."),
    "currency_unknown": gettext_noop("%(what)s: %(value)s is not an ISO 4217 currency code, "
                                     "such as USD, EUR or GBP."),
    "amount_not_text": gettext_noop("%(what)s: an amount, not %(value)s."),
    "time_zone_unknown": gettext_noop("%(what)s: %(value)s is not a time zone; choose one "
                                      "from the list, such as Europe/Berlin or "
                                      "America/New_York."),
    "language_unknown": gettext_noop("%(what)s: %(value)s is not one of %(codes)s."),
    "form_whole_number": gettext_noop("%(what)s: write a whole number with the digits 0-9, "
                                      "like 25."),
    "field_bytes": gettext_noop("%(what)s is %(size)s bytes long; at most %(limit)s bytes "
                                "here."),
    "player_needs_name": gettext_noop("A player needs a name."),
    "player_name_too_long": gettext_noop("The name %(name)s... is too long."),
    "player_same_name": gettext_noop("%(name)s already plays at this table: names differing "
                                     "only in capitals, width, spaces or invisible "
                                     "characters are the same player."),
    "form_date_digits": gettext_noop("%(what)s: write the date with the digits 0-9, like "
                                     "2025-11-21."),
    # a JSON document (``cleaning.load_json``): ``where`` is a file's name or "upload"
    "json_not_utf8": gettext_noop("%(where)s: not UTF-8 text (byte %(byte)s)"),
    "json_too_deep": gettext_noop("%(where)s: nested too deeply"),
    "json_invalid": gettext_noop("%(where)s: not valid JSON (%(why)s)"),
}


def _contains(what, bad) -> str:
    return gettext("%(what)s contains %(bad)s; type it again without it.") % {
        "what": field_words(what), "bad": bad_words(bad)}


def _too_long(what, n, most) -> str:
    return ngettext("%(what)s is %(n)s character long; at most %(most)s.",
                    "%(what)s is %(n)s characters long; at most %(most)s.", n) % {
        "what": field_words(what), "n": n, "most": most}


def _name_clash(name, other) -> str:
    return gettext("%(other)s already plays at this table: %(name)s differs from it only in "
                   "capitals, width, spaces or invisible characters, so it is the same "
                   "player.") % {"other": other, "name": name}


#: the hand form's buttons a reserved name would stand for (``cleaning.RESERVED_NAMES``)
RESERVED_FOR = {"draw": gettext_noop("Draw"), "nobody": gettext_noop("Nobody")}


def _name_reserved(name, button) -> str:
    return gettext('"%(name)s" is kept for the hand form\'s %(what)s; give the player another '
                   'name.') % {"name": name, "what": gettext(RESERVED_FOR[button])}


def _babel(locale) -> Locale:
    if isinstance(locale, Locale):
        return locale
    try:
        return Locale.parse(locale)
    except (UnknownLocaleError, ValueError, TypeError):
        return Locale.parse("en")


def amount_example(locale, *, large: bool = True) -> str:
    """A small and a large amount as the locale writes them: "0,05 or 1.234,50" (the
    small one alone: "0,05")."""
    where = _babel(locale)
    small = format_decimal(Decimal("0.05"), locale=where)
    if not large:
        return small
    return gettext("%(small)s or %(large)s") % {
        "small": small,
        "large": format_decimal(Decimal("1234.50"), format="#,##0.00", locale=where)}


def _mark_name(mark: str) -> str:
    return {",": gettext("comma"), ".": gettext("point")}.get(mark, repr(mark))


def _amount_digits(what, locale, large=True) -> str:
    return gettext("%(what)s: write an amount with the digits 0-9, like %(example)s.") % {
        "what": field_words(what), "example": amount_example(locale, large=large)}


def _amount_ambiguous(what, typed, thousands, decimal, mark, decimal_mark) -> str:
    return gettext('%(what)s: "%(typed)s" could mean %(thousands)s or %(decimal)s: '
                   "write it without the %(mark)s, or with a %(decimal_mark)s.") % {
        "what": field_words(what), "typed": typed, "thousands": thousands,
        "decimal": decimal, "mark": _mark_name(mark), "decimal_mark": _mark_name(decimal_mark)}


def _amount_unreadable(what, typed, locale) -> str:
    return gettext("%(what)s: %(typed)s is not an amount as it is written here; write "
                   "it like %(example)s.") % {
        "what": field_words(what), "typed": typed, "example": amount_example(locale)}


# -- the installation's limits (ledger.limits) ------------------------------------------------

def _table_players(table, players, limit) -> str:
    return gettext("%(table)s would have %(players)s players; a table has at most %(limit)s "
                   "here (archived players count). Start another table for the others.") % {
        "table": field_words(table), "players": players, "limit": limit}


#: the limits said by one sentence of their facts
LIMIT_SENTENCES = {
    "hand_room": gettext_noop(
        "This game already has %(hands)s hands, the most one game may hold here "
        "(%(limit)s). Abandon it (it settles on the hand points) and start a new game."),
    "names_at_once": gettext_noop("%(names)s names at once; at most %(limit)s here. Add the "
                                  "others later on the table's page."),
    "reports_from_table": gettext_noop("Too many reports from this table just now; wait a "
                                       "minute and send again."),
    "reports_from_network": gettext_noop("Too many reports from your network just now; wait "
                                         "a minute and send again."),
    "heavy_busy": gettext_noop("Your other page or download is still being made; try again "
                               "in a moment."),
    "printing_mine": gettext_noop("Your other sheet is still being printed; try again in a "
                                  "moment."),
    "printing_busy": gettext_noop("The server is busy printing other sheets; try again in a "
                                  "moment."),
}

#: the limits that say how many minutes are left (one or several)
LIMIT_MINUTES = {
    "signups_network": lambda minutes: ngettext(
        "Too many new accounts from your network just now; try again in "
        "%(minutes)s minute, or ask the club to make your account.",
        "Too many new accounts from your network just now; try again in "
        "%(minutes)s minutes, or ask the club to make your account.", minutes),
    "signups_email": lambda minutes: ngettext(
        "Too many sign-ups for this e-mail address just now: look for the "
        "mails already sent (and in the spam folder), or try again in "
        "%(minutes)s minute.",
        "Too many sign-ups for this e-mail address just now: look for the "
        "mails already sent (and in the spam folder), or try again in "
        "%(minutes)s minutes.", minutes),
    "resets_network": lambda minutes: ngettext(
        "Too many password resets asked from your network just now; try "
        "again in %(minutes)s minute, or ask the club to reset it.",
        "Too many password resets asked from your network just now; try "
        "again in %(minutes)s minutes, or ask the club to reset it.", minutes),
    "resets_email": lambda minutes: ngettext(
        "Too many password resets asked for this e-mail address just now: "
        "look for the mails already sent (and in the spam folder), or try "
        "again in %(minutes)s minute.",
        "Too many password resets asked for this e-mail address just now: "
        "look for the mails already sent (and in the spam folder), or try "
        "again in %(minutes)s minutes.", minutes),
    "tables_per_hour": lambda minutes: ngettext(
        "This account made %(limit)s new tables in the last hour, the most one "
        "account may here. Try again in %(minutes)s minute.",
        "This account made %(limit)s new tables in the last hour, the most one "
        "account may here. Try again in %(minutes)s minutes.", minutes),
    "evenings_per_hour": lambda minutes: ngettext(
        "This account began %(limit)s new evenings in the last hour, the most one "
        "account may here. Try again in %(minutes)s minute.",
        "This account began %(limit)s new evenings in the last hour, the most one "
        "account may here. Try again in %(minutes)s minutes.", minutes),
}


#: every code the record refuses with, and how it is said (the facts as keywords)
WORDS = {
    "game_not_in_progress": _game_not_in_progress,
    "game_takes_no_hands": _game_takes_no_hands,
    "reopen_payments_paid": _reopen_payments_paid,
    "table_name_taken": _table_name_taken,
    "settle_open_games": _settle_open_games,
    "table_kept_already": _table_kept_already,
    "confirm_who": _confirm_who,
    "hand_taken": _hand_taken,
    "hand_replaced": _hand_replaced,
    "session_settled_games": _settled_no_games,
    "session_settled_changes": _settled_no_changes,
    "session_not_settled": _not_settled,
    "date_out_of_range": _date_out_of_range,
    "contains": _contains,
    "too_long": _too_long,
    "name_clash": _name_clash,
    "name_reserved": _name_reserved,
    "amount_digits": _amount_digits,
    "amount_ambiguous": _amount_ambiguous,
    "amount_unreadable": _amount_unreadable,
    "table_players": _table_players,
}


def said(exc) -> str:
    """``exc`` (a ``LedgerError`` other than a refused record) in the words of the language
    in force: the sentence of its code with its facts, or the text it was given."""
    if exc.code in SENTENCES:
        return gettext(SENTENCES[exc.code]) % exc.params
    if exc.code in LIMIT_SENTENCES:
        return gettext(LIMIT_SENTENCES[exc.code]) % exc.params
    if exc.code in LIMIT_MINUTES:
        return LIMIT_MINUTES[exc.code](exc.params["minutes"]) % exc.params
    if exc.code in FIELD_SENTENCES:
        facts = dict(exc.params)
        if "what" in facts:
            facts["what"] = field_words(facts["what"])
        return gettext(FIELD_SENTENCES[exc.code]) % facts
    if exc.code in STALE:
        facts = dict(exc.params)
        return gettext(STALE[exc.code]) % {**facts, "number": facts.pop("typed")}
    wording = WORDS.get(exc.code)
    if wording is None:
        return exc.text if exc.text is not None else exc.code
    return wording(**exc.params)
