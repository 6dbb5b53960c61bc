"""What the steps that cannot simply be taken back ask before they are taken: undoing
a hand, abandoning or deleting a game, settling an evening, squaring the book, revoking a
share link, and a rematch that would open a new evening.

Each question is one dict drawn by templates/ledger/_confirm.html, in a <dialog> on the
page (static/ledger/confirm.js opens it) and, without JavaScript, on a page of its own
(the GET of the action's URL; the POST does it)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext, ngettext

from ledger.models import Game, GameStatus, Hand, Session, ShareLink
from ledger.presentation.dates import evening_words
from ledger.presentation.flash import hand_said
from ledger.presentation.money import scores
from ledger.presentation.words import hand_title


def undo_question(game: Game, result: dict, *, last: Hand | None = None) -> dict | None:
    """Undo the last hand: which hand, as it was entered, and what else it changes.
    ``last``: the last live hand, if the caller has it (the hand just saved)."""
    if last is None:
        hands = getattr(game, "live_hands", None)
        if hands is None:  # the last one alone: a game of 300 hands need not be read for it
            last = game.hands.filter(voided_at__isnull=True).order_by("-number").first()
        elif hands:
            last = hands[-1]
    if last is None:
        return None
    rounds = result["facts"]["hand_noun"].lower() == "round"
    said = {"n": last.number, "hand": hand_title(result["facts"]["hand_noun"], last.number)}
    words = [f"{said['hand']}: {hand_said(result, last.number, last.entry)}.",
             gettext("It stays in the history, struck through, and comes back in the form: "
                     "save it again to put it back.")]
    if result.get("complete"):
        words.insert(1, gettext("The game is over: undoing reopens it and takes its money back "
                                "until it ends again."))
    elif game.status == GameStatus.ABANDONED:
        words.insert(1, gettext("The game was abandoned; it stays abandoned and settles on the "
                                "hand points that are left."))
    return {
        "id": "confirm-undo",
        "title": (gettext("Undo round %(n)s?") if rounds else gettext("Undo hand %(n)s?")) % said,
        "words": words,
        "action": reverse("ledger:hand_undo", kwargs={"pk": game.pk}),
        "fields": {"number": last.number}, "reason": True,
        "button": (gettext("Undo round %(n)s") if rounds else gettext("Undo hand %(n)s")) % said,
        "keep": (gettext("Keep round %(n)s") if rounds else gettext("Keep hand %(n)s")) % said,
        "cancel": reverse("ledger:game_detail", kwargs={"pk": game.pk}) + "#actions",
    }


def abandon_question(game: Game, result: dict) -> dict:
    """Abandon a game in progress: it ends where it stands, and its money is worked out."""
    hands = len(result["hands"])
    said = {"n": game.sequence, "hands": hands,
            "score": " · ".join(f"{score.label} {score.value}" for score in scores(result))}
    return {
        "id": "confirm-abandon", "title": gettext("Abandon game %(n)s?") % said,
        "words": [(ngettext("It ends now, after %(hands)s round, on the score as it stands: "
                            "%(score)s.",
                            "It ends now, after %(hands)s rounds, on the score as it stands: "
                            "%(score)s.", hands)
                   if result["facts"]["hand_noun"].lower() == "round" else
                   ngettext("It ends now, after %(hands)s hand, on the score as it stands: "
                            "%(score)s.",
                            "It ends now, after %(hands)s hands, on the score as it stands: "
                            "%(score)s.", hands)) % said,
                  gettext("Its money is then worked out as the rules settle an abandoned "
                          "game, and counts in the evening. No more hands can be added; the "
                          "last hand can still be undone.")],
        "action": reverse("ledger:game_abandon", kwargs={"pk": game.pk}),
        "fields": {}, "reason": True, "placeholder": gettext("e.g. out of time"),
        "button": gettext("Abandon: settle on hand points"),
        "keep": gettext("Keep playing"),
        "cancel": reverse("ledger:game_detail", kwargs={"pk": game.pk}) + "#actions",
    }


def delete_question(game: Game) -> dict:
    """Delete a game with no hand (started by mistake): it leaves no trace."""
    said = {"n": game.sequence}
    return {
        "id": "confirm-delete", "title": gettext("Delete game %(n)s?") % said,
        "words": [gettext("Game %(n)s has no hand. Deleted, it leaves the evening, its "
                          "report and the book, as if it had never been started.") % said,
                  gettext("The other games keep their numbers. A game with a hand cannot be "
                          "deleted: abandon it instead.")],
        "action": reverse("ledger:game_delete", kwargs={"pk": game.pk}),
        "fields": {}, "reason": False,
        "button": gettext("Delete game %(n)s") % said, "keep": gettext("Keep it"),
        "cancel": reverse("ledger:game_detail", kwargs={"pk": game.pk}) + "#actions",
    }


def settle_question(session: Session, games: int) -> dict:
    return {
        "id": "confirm-settle", "title": gettext("Settle up?"),
        "words": [ngettext(
                      "The evening of %(evening)s is closed with the payments shown. Its "
                      "%(n)s game can no longer change: no more hands, undos, corrections or "
                      "stake changes.",
                      "The evening of %(evening)s is closed with the payments shown. Its "
                      "%(n)s games can no longer change: no more hands, undos, corrections or "
                      "stake changes.", games) % {
                      "evening": evening_words(session.date) + session.number_suffix,
                      "n": games},
                  gettext("Payments are then marked paid one by one. A later game needs a new "
                          "evening.")],
        "action": reverse("ledger:session_settle", kwargs={"pk": session.pk}),
        "fields": {}, "reason": False, "button": gettext("Settle up"),
        "keep": gettext("Not yet"),
        "cancel": reverse("ledger:session_detail", kwargs={"pk": session.pk}) + "#settle",
    }


def revoke_question(link: ShareLink) -> dict:
    if link.game_id:
        said = gettext("The link to game %(n)s stops working at once, for everyone who has "
                       "it: they see “This link no longer works”.") % {"n": link.game.sequence}
    else:
        said = gettext("The link to the table's sheets stops working at once, for everyone "
                       "who has it: they see “This link no longer works”.")
    if link.game_id:
        back = reverse("ledger:game_detail", kwargs={"pk": link.game_id}) + "#actions"
    else:
        back = reverse("ledger:table_detail", kwargs={"pk": link.table_id})
    return {
        "id": f"confirm-revoke-{link.pk}", "title": gettext("Revoke the share link?"),
        "words": [said,
                  gettext("Nothing on the sheets changes. A new link can be made later, but it "
                          "is a different address, to be sent again.")],
        "action": reverse("ledger:share_revoke", kwargs={"pk": link.pk}),
        "fields": {}, "reason": False, "button": gettext("Revoke link"),
        "keep": gettext("Keep sharing"),
        "cancel": back,
    }


def square_question(table, entry) -> dict:
    """Square the book in one currency (``entry``: one of ``book.table_books``): the netted
    payments that are taken as made, and how many evenings' payments that marks paid."""
    count = len(entry.outstanding_ids)
    owed = [gettext("%(payer)s pays %(payee)s %(amount)s") % {
                "payer": row["payer"].name, "payee": row["payee"].name, "amount": row["words"]}
            for row in entry.owed_rows]
    return {
        "id": f"confirm-square-{entry.currency}",
        "title": gettext("Square the book in %(currency)s?") % {"currency": entry.currency},
        "words": [gettext("These payments were made: %(payments)s.") % {
                      "payments": "; ".join(owed)},
                  ngettext("That marks the %(n)s unpaid payment of the settled evenings paid, "
                           "now.",
                           "That marks the %(n)s unpaid payments of the settled evenings paid, "
                           "now.", count) % {"n": count},
                  gettext("A mistake can be undone from the book's “Book squared” list, as a "
                          "paid mark is undone.")],
        "action": reverse("ledger:book_settle", kwargs={"pk": table.pk}),
        "fields": {"currency": entry.currency,
                   "expected": ",".join(str(i) for i in entry.outstanding_ids)},
        "reason": False, "button": gettext("These are paid: square the book"),
        "keep": gettext("Not yet"),
        "cancel": reverse("ledger:table_book", kwargs={"pk": table.pk}) + f"#owed-{entry.currency}",
    }


def rematch_question(game: Game, players: list[str]) -> dict:
    """Same players again after the evening is settled, with no open evening of today to
    take the game: a new evening would be opened (today, same place, currency, stake)."""
    from ledger.clock import table_today
    from ledger.models import Session

    settled = game.session
    today = table_today(settled.table)
    number = Session.objects.filter(table_id=settled.table_id, date=today).count() + 1
    label = evening_words(today) + (f" ({number})" if number > 1 else "")
    said = {"day": evening_words(settled.date) + settled.number_suffix, "new": label,
            "place": settled.place, "currency": settled.currency, "players": ", ".join(players)}
    return {
        "id": "confirm-rematch", "title": gettext("Open a new evening?"),
        "words": [gettext("The evening of %(day)s is settled: it takes no more games.") % said,
                  (gettext("Same players again opens a new evening, %(new)s at %(place)s, in "
                           "%(currency)s with the same stakes, and starts its game 1: "
                           "%(players)s.") if settled.place else
                   gettext("Same players again opens a new evening, %(new)s, in %(currency)s "
                           "with the same stakes, and starts its game 1: %(players)s.")) % said,
                  gettext("The settled evening stays as it is.")],
        "action": reverse("ledger:game_rematch", kwargs={"pk": game.pk}),
        "fields": {"new_evening": "1"}, "reason": False,
        "button": gettext("Open a new evening"), "keep": gettext("Not now"),
        "cancel": reverse("ledger:game_detail", kwargs={"pk": game.pk}) + "#over",
    }
