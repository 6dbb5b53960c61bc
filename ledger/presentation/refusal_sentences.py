"""The sentences of the record's refusals, by code: ``said(exc)`` says a refusal (a code and
its facts) in the language in force, with the dates through the one date formatter. The
screens ask ``refusals.refusal_words``, which also words a refused record's problems."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

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
        "what": what, "date": format_day(date, "medium"),
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
}


def said(exc) -> str:
    """``exc`` (a ``LedgerError`` other than a refused record) in the words of the language
    in force: the sentence of its code with its facts, or the text it was given."""
    if exc.code in SENTENCES:
        return gettext(SENTENCES[exc.code]) % exc.params
    if exc.code in STALE:
        facts = dict(exc.params)
        return gettext(STALE[exc.code]) % {**facts, "number": facts.pop("typed")}
    wording = WORDS.get(exc.code)
    if wording is None:
        return exc.text if exc.text is not None else exc.code
    return wording(**exc.params)
