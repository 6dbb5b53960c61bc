"""Tables with every kind of history row, for the backup and table-export tests.

``build_tables`` makes three tables kept by two accounts:

- "Friday" (USD): the four evenings of ``book_scenario`` (settled and paid; settled and
  unpaid; settled, reopened and settled again; open), then on the open evening a game
  entered hand by hand with a correction and an undo, its stake and a rule changed, a game
  abandoned; a player renamed and one archived; a payment marked paid and the mark undone;
  the book settled up; share links made and revoked.
- the demo evening (fixtures/demo_session.json: gin, box, captain, partnership, CAP-IT),
  settled, then reopened: a hand corrected, and a finished game's last hand undone (in
  progress again), kept by the second account;
- "Mardi" (EUR): a settled evening with an Oklahoma and a Hollywood game and an open one,
  where a gin game's hand is confirmed (the answer changed) and a captain game's tables
  report a hand (replaced, withdrawn) before it is saved, their links revoked and made
  again.
"""

from __future__ import annotations

import datetime
import json
import uuid
from pathlib import Path

from ledger import services
from ledger.models import GameStatus

from .book_scenario import build as build_book
from .book_scenario import renamed

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parents[1] / "data"


def _hand(game, keeper, entry):
    return services.hand_record(game=game, entry=entry, recorded_by=keeper,
                                idempotency_key=uuid.uuid4()).hand


def build_tables(keeper, other) -> list:
    friday = services.table_create(name="Friday", scorekeepers=[keeper])
    evenings = build_book(friday, keeper)
    e4 = evenings["e4"]
    game = services.game_start(session=e4, variant="gin", players=["Ann", "Bob"],
                               started_by=keeper, setup={"first_dealer": "Bob"})
    for entry in ({"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 17}},
                  {"knocker": "Bob", "deadwood": {"Ann": 14, "Bob": 0}},
                  {"knocker": "Ann", "deadwood": {"Ann": 8, "Bob": 6}},
                  {"knocker": "Bob", "deadwood": {"Ann": 30, "Bob": 2}}):
        _hand(game, keeper, entry)
    services.hand_correct(hand=game.hands.get(number=2, voided_at__isnull=True),
                          entry={"knocker": "Bob", "deadwood": {"Ann": 24, "Bob": 0}},
                          corrected_by=keeper, reason="Ann held 24, a king was missed")
    services.hand_undo_last(game=game, undone_by=keeper, reason="entered on the wrong game")
    services.game_change_stake(game=game, changed_by=keeper, rate="0.02",
                               player_stakes={"Bob": "0.03"}, reason="doubled up")
    services.game_change_rules(game=game, changes={"target": 150}, changed_by=keeper,
                               reason="a longer game")
    services.game_abandon(game=game, abandoned_by=keeper, reason="the pub closed")
    done = services.game_import(session=e4, record=renamed("gin-classic-game",
                                                          {"A": "Cy", "B": "Dora"}),
                                imported_by=keeper)
    assert done.status == GameStatus.COMPLETE
    services.game_change_rules(game=done, changes={"box_bonus": 30}, changed_by=keeper,
                               reason="house rule", confirm=True)
    cy = friday.players.get(name="Cy")
    services.player_rename(player=cy, name="Cyril")
    services.player_archive(player=friday.players.get(name="Dora"), archived_by=keeper)
    # E2's payments: one marked paid, then the mark undone; then the book settled up.
    payment = evenings["e2"].settlements.get().payments.order_by("order").first()
    services.settlement_payment_mark_paid(payment=payment, paid_by=keeper)
    services.settlement_payment_mark_paid(payment=payment, paid_by=keeper, paid=False)
    from ledger.book.selectors import table_books

    book = table_books(friday)[0]
    services.book_settle(table=friday, currency="USD", expected=book.outstanding_ids,
                         settled_by=keeper)
    link = services.share_link_get_or_create(table=friday, created_by=keeper)
    services.share_link_revoke(link=link)
    services.share_link_get_or_create(table=friday, created_by=keeper)
    services.share_link_get_or_create(table=friday, game=game, created_by=keeper)

    record = json.loads((ROOT / "fixtures" / "demo_session.json").read_text())
    demo = services.session_import(record=record, imported_by=other)
    services.session_settle(session=demo, settled_by=other)
    # reopened: a hand of its first game corrected, the last hand of a finished game undone
    # (in progress again: it was over when the evening was settled)
    services.session_reopen(session=demo, reopened_by=other, reason="Finn's last hand")
    gin = demo.games.get(sequence=1)
    first = gin.hands.get(number=1)
    services.hand_correct(hand=first, entry=first.entry, corrected_by=other,
                          reason="entered again, unchanged")
    finished = demo.games.filter(status=GameStatus.COMPLETE).order_by("sequence").last()
    services.hand_undo_last(game=finished, undone_by=other, reason="Finn had not gone out")
    assert demo.games.get(pk=finished.pk).status == GameStatus.IN_PROGRESS

    mardi = services.table_create(name="Mardi", scorekeepers=[keeper, other])
    settled = services.session_create(table=mardi, date=datetime.date(2026, 2, 3),
                                      currency="EUR", rate="0.05", place="Café du Nord",
                                      created_by=other)
    for case in ("oklahoma-spades", "hollywood-columns"):
        record = json.loads((DATA / f"{case}.json").read_text())
        record["stakes"] = {"rate": "0.05", "per_points": 1, "currency": "EUR"}
        record["abandoned"] = True  # the cases stop before the target: settled on points
        services.game_import(session=settled, record=record, imported_by=other)
    services.session_settle(session=settled, settled_by=keeper)
    open_evening = services.session_create(table=mardi, date=datetime.date(2026, 2, 10),
                                           currency="EUR", rate="0.05", created_by=keeper)
    started = services.game_start(session=open_evening, variant="gin",
                                  players=["Zoé", "Yann"], started_by=keeper,
                                  setup={"first_dealer": "Zoé"})
    confirm = services.confirm_link_get_or_create(game=started, player="Yann",
                                                  created_by=keeper)
    _hand(started, keeper, {"knocker": "Zoé", "deadwood": {"Zoé": 3, "Yann": 40}})
    services.hand_confirm(link=confirm, number=1, correct=False)
    services.hand_confirm(link=confirm, number=1, correct=True)  # he looked again
    # who reported what: a captain game's tables report hand 1 (table 1 twice, table 3
    # withdraws and reports again), the hand is saved with them; the links are revoked and
    # new ones made
    captains = services.game_start(
        session=open_evening, variant="captain", players=["R1", "R2", "R3", "B1", "B2",
                                                          "B3", "B4"],
        started_by=keeper, preset="standard",
        setup={"captains": ["R1", "R2", "R3"], "opponents": ["B1", "B2", "B3"],
               "sitter": "B4"})
    t1, t2, t3 = services.report_links_get_or_create(game=captains, created_by=keeper)
    parts = [{"knocker": "R1", "deadwood": {"R1": 5, "B1": 30}},
             {"knocker": "B2", "deadwood": {"B2": 2, "R2": 10}}, {"draw": True}]
    services.report_submit(link=t1, number=1,
                           values={"knocker": "R1", "deadwood": {"R1": 7, "B1": 30}})
    services.report_submit(link=t3, number=1,
                           values={"knocker": "R3", "deadwood": {"R3": 4, "B3": 20}})
    services.report_withdraw(link=t3, number=1)
    for link, part in zip((t1, t2, t3), parts, strict=True):
        services.report_submit(link=link, number=1, values=part)
    services.hand_record(game=captains, entry={"tables": parts}, recorded_by=keeper,
                         idempotency_key=uuid.uuid4(), number=1)
    services.report_links_revoke(game=captains)
    services.report_links_get_or_create(game=captains, created_by=other)
    return [friday, demo.table, mardi]
