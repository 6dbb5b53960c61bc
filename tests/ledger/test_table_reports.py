"""Issue 23: report links per table and the tables' reports (models, services, the core's
check of one table's part)."""

from __future__ import annotations

import uuid

import pytest

from ledger import services
from ledger.exceptions import LedgerError, RecordRefused, ReportStale, SessionSettled
from ledger.models import PLAYERS_PART, ReportLink, TableReport
from ledger.presentation.refusals import refusal_words
from ledger.rules.report import check_report, report_parts
from ledger.selectors import table_reports
from ledger.selectors.games import game_result
from tests.factories import gin_game
from tests.refusing import refuses

pytestmark = pytest.mark.django_db

CAPTAINS = ["R1", "R2", "R3"]
OPPONENTS = ["B1", "B2", "B3"]


def captain7(session, keeper):
    return services.game_start(
        session=session, variant="captain", players=CAPTAINS + OPPONENTS + ["B4"],
        started_by=keeper, preset="standard",
        setup={"captains": CAPTAINS, "opponents": OPPONENTS, "sitter": "B4"})


def capit(session, keeper):
    return services.game_start(session=session, variant="cap-it",
                               players=["A", "B", "C", "D"], setup={"first_dealer": "A"},
                               started_by=keeper, preset="standard")


def knock(k, kp, o, op):
    return {"knocker": k, "deadwood": {k: kp, o: op}}


# -- links -----------------------------------------------------------------------------------

def test_a_captain_7_game_gets_one_link_per_table_and_asking_again_gives_the_same(
        session, keeper):
    game = captain7(session, keeper)
    links = services.report_links_get_or_create(game=game, created_by=keeper)
    assert [link.part for link in links] == [1, 2, 3]
    assert len({link.token for link in links}) == 3
    assert all(len(link.token) >= 32 for link in links)
    again = services.report_links_get_or_create(game=game, created_by=keeper)
    assert [link.pk for link in again] == [link.pk for link in links]


def test_a_capit_game_gets_one_link_for_its_players(session, keeper):
    links = services.report_links_get_or_create(game=capit(session, keeper),
                                                created_by=keeper)
    assert [link.part for link in links] == [PLAYERS_PART]


def test_a_two_hand_game_has_no_report_links(session, keeper):
    with refuses(LedgerError, match="played at one table"):
        services.report_links_get_or_create(game=gin_game(session, keeper), created_by=keeper)
    assert ReportLink.objects.count() == 0


def test_revoked_links_are_dead_and_new_ones_are_new(session, keeper):
    game = captain7(session, keeper)
    links = services.report_links_get_or_create(game=game, created_by=keeper)
    assert services.report_links_revoke(game=game) == 3
    for link in links:
        link.refresh_from_db()
        assert not table_reports.report_link_live(link)
        with refuses(LedgerError, match="no longer opens"):
            services.report_submit(link=link, number=1, values={"draw": True})
    fresh = services.report_links_get_or_create(game=game, created_by=keeper)
    assert not {link.token for link in fresh} & {link.token for link in links}
    assert TableReport.objects.count() == 0


def test_a_link_dies_with_its_games_end_and_its_evenings_settlement(session, keeper):
    game = captain7(session, keeper)
    link = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    services.game_abandon(game=game, abandoned_by=keeper, reason="late")
    link.refresh_from_db()
    assert not table_reports.report_link_live(link)
    with pytest.raises(LedgerError):
        services.report_submit(link=link, number=1, values={"draw": True})
    services.session_settle(session=session, settled_by=keeper)
    with pytest.raises(SessionSettled):
        services.report_links_get_or_create(game=game, created_by=keeper)


# -- reports ---------------------------------------------------------------------------------

def test_a_report_is_kept_for_its_table_and_a_later_one_replaces_it(session, keeper):
    game = captain7(session, keeper)
    t1, t2, _ = services.report_links_get_or_create(game=game, created_by=keeper)
    first = services.report_submit(link=t1, number=1, values=knock("R1", 5, "B1", 30))
    services.report_submit(link=t2, number=1, values={"draw": True})
    second = services.report_submit(link=t1, number=1, values=knock("B1", 3, "R1", 20))
    first.refresh_from_db()
    assert first.replaced_at is not None and not first.is_live
    assert second.replaces_id == first.pk and second.table == 1
    live = TableReport.objects.filter(game=game, replaced_at__isnull=True)
    assert sorted((r.table, r.values.get("knocker")) for r in live) == [(1, "B1"), (2, None)]


def test_a_report_can_be_withdrawn_until_the_hand_is_saved(session, keeper):
    game = captain7(session, keeper)
    t1 = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    report = services.report_submit(link=t1, number=1, values=knock("R1", 5, "B1", 30))
    assert services.report_withdraw(link=t1, number=1) == 1
    report.refresh_from_db()
    assert report.withdrawn_at is not None
    assert services.report_withdraw(link=t1, number=1) == 0


def test_nothing_is_recorded_until_the_scorekeeper_saves_and_the_save_keeps_the_reports(
        session, keeper):
    game = captain7(session, keeper)
    links = services.report_links_get_or_create(game=game, created_by=keeper)
    parts = [knock("R1", 5, "B1", 30), knock("B2", 2, "R2", 10), {"draw": True}]
    for link, part in zip(links, parts, strict=True):
        services.report_submit(link=link, number=1, values=part)
    assert game.hands.count() == 0
    outcome = services.hand_record(game=game, entry={"tables": parts}, recorded_by=keeper,
                                   idempotency_key=uuid.uuid4(), number=1)
    hand = outcome.hand
    assert sorted(r.table for r in hand.reports.all()) == [1, 2, 3]
    # the core's numbers: captains +25 at table 1, opponents +8 at table 2: captains net 17
    entry = outcome.result["hands"][0]
    assert entry["winner"] == "captains" and entry["points"]["captains"] == 17


def test_a_report_for_a_saved_hand_is_refused_and_the_phone_moves_on(session, keeper):
    game = captain7(session, keeper)
    t1 = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    services.hand_record(game=game, entry={"tables": [{"draw": True}] * 3},
                         recorded_by=keeper, idempotency_key=uuid.uuid4(), number=1)
    with pytest.raises(ReportStale) as refused:
        services.report_submit(link=t1, number=1, values=knock("R1", 5, "B1", 30))
    assert refusal_words(refused.value) == ("Hand 1 was already recorded; this phone moves on to "
                                     "hand 2.")
    assert refused.value.number == 2
    with pytest.raises(ReportStale):
        services.report_submit(link=t1, number=7, values={"draw": True})
    assert TableReport.objects.count() == 0


@pytest.mark.parametrize(("part", "code", "words"), [
    (knock("R1", 12, "B1", 30), "knock_over_limit", "knocker deadwood 12 is above"),
    ({"knocker": "R1", "gin": True, "deadwood": {"R1": 4, "B1": 30}}, "gin_with_deadwood",
     "a gin has no deadwood, but the knocker R1 counted 4"),
    ({"knocker": "R1", "cards": {"R1": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S",
                                 "B1": "AS 2H 3H 4H 5H 6H 7H 8H 9H 10H"}},
     "cards_unreadable", "\"AS\" is in both hands"),
    ({"knocker": "R1", "deadwood": {"R1": 5, "B1": 99}}, "deadwood_out_of_range",
     "99 is above 98"),
    (knock("R2", 5, "B2", 30), "knocker_not_playing", "R2 is not playing this hand"),
])
def test_the_core_refuses_a_tables_part_with_its_own_words(session, keeper, part, code,
                                                           words):
    game = captain7(session, keeper)
    t1 = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    with pytest.raises(RecordRefused) as refused:
        services.report_submit(link=t1, number=1, values=part)
    assert refused.value.details[0].code == code
    assert words in refused.value.details[0].line
    assert refused.value.details[0].table == 1
    assert TableReport.objects.count() == 0


def test_capit_players_report_their_own_points(session, keeper):
    game = capit(session, keeper)
    link = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    services.report_submit(link=link, number=1, player="A",
                           values={"went_out": "A", "points": {"A": 0}})
    services.report_submit(link=link, number=1, player="B",
                           values={"went_out": None, "points": {"B": 25}})
    with pytest.raises(RecordRefused) as refused:
        services.report_submit(link=link, number=1, player="C",
                               values={"went_out": "C", "points": {"C": 25}})
    assert refused.value.details[0].code == "went_out_holds_cards"
    with pytest.raises(RecordRefused) as refused:
        services.report_submit(link=link, number=1, player="C",
                               values={"went_out": None, "points": {"D": 25}})
    assert "reports his own points only" in refused.value.details[0].line
    with pytest.raises(RecordRefused) as refused:  # a count no cards can make
        services.report_submit(link=link, number=1, player="C",
                               values={"went_out": None, "points": {"C": 12}})
    assert refused.value.details[0].code == "capit_points_impossible"
    assert refused.value.details[0].line.startswith("hand 1 (round 1), C: points: 12 points")
    with refuses(LedgerError, match="Pick your name"):
        services.report_submit(link=link, number=1, player="Zed",
                               values={"went_out": None, "points": {"Zed": 5}})
    live = TableReport.objects.filter(game=game, replaced_at__isnull=True)
    assert sorted((r.player, r.values["points"][r.player]) for r in live) == [("A", 0),
                                                                               ("B", 25)]


# -- the core, pure --------------------------------------------------------------------------

def test_report_parts_come_from_the_cores_facts(session, keeper):
    result = game_result(captain7(session, keeper))
    assert report_parts(result) == {"kind": "tables", "number": 1,
                                    "tables": [["R1", "B1"], ["R2", "B2"], ["R3", "B3"]]}
    assert report_parts(game_result(gin_game(session, keeper)))["kind"] is None
    assert check_report(result, table=2, part=knock("R2", 5, "B2", 30)) == []
    assert check_report(result, table=4, part={"draw": True})[0].code == "tables_invalid"


def test_the_same_report_sent_twice_is_kept_once(session, keeper):
    game = captain7(session, keeper)
    t1 = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    first = services.report_submit(link=t1, number=1, values=knock("R1", 5, "B1", 30))
    again = services.report_submit(link=t1, number=1, values=knock("R1", 5, "B1", 30))
    assert again.pk == first.pk and TableReport.objects.count() == 1
    assert again.replaces_id is None  # not "changed"


# -- a table's part in the sheet's words (issue 37.6) ---------------------------------------

@pytest.mark.parametrize(("part", "scored"), [
    ({"knocker": "Rosa", "deadwood": {"Rosa": 0, "Dmitri": 30}},
     {"result": "gin", "winner": "Rosa", "points": 55}),            # 30 + the gin's 25
    ({"knocker": "Rosa", "deadwood": {"Rosa": 5, "Dmitri": 3}},
     {"result": "undercut", "winner": "Dmitri", "points": 27}),     # 2 + 25
    ({"knocker": "Rosa", "deadwood": {"Rosa": 4, "Dmitri": 30}},
     {"result": "knock", "winner": "Rosa", "points": 26}),
    ({"draw": True}, {"result": "draw", "winner": None, "points": 0}),
    ({"knocker": "Rosa", "deadwood": {"Rosa": 15, "Dmitri": 30}}, None),  # over the limit
])
def test_the_core_scores_a_tables_reported_part_by_itself(part, scored):
    from ledger.rules.report import reported_table
    from ledger.rules.settings import resolve_rules

    _, rules = resolve_rules("captain", "standard", None, 7, [])
    got = reported_table(part, rules)
    if scored is None:
        assert got is None
    else:
        assert {k: got[k] for k in scored} == scored


def test_who_reported_what_writes_a_gin_as_the_sheet_does(session, keeper):
    from ledger.presentation.reports import report_words

    game = captain7(session, keeper)
    rules = game_result(game)["rules"]
    assert report_words(knock("Rosa", 0, "Dmitri", 30), rules) == "Rosa gin v Dmitri 30"
    assert report_words(knock("Rosa", 4, "Dmitri", 30), rules) == "Rosa knocks 4 v Dmitri 30"
    assert report_words({"draw": True}, rules) == "Draw"
    cards = {"knocker": "R1", "cards": {"R1": "AS 2S 3S 5H 6H 7H 9C 9D 9H 4D",
                                        "B1": "KS QH JC 10D 8S 6C 4S 2H KC QD"}}
    assert report_words(cards, rules) == "R1 knocks 4 v B1 76"  # the core's counts


@pytest.mark.parametrize(("said", "end"), [
    ({"A": "A", "B": None}, {"state": "out", "players": ["A"]}),
    ({"B": "B", "A": "A", "C": None}, {"state": "conflict", "players": ["A", "B"]}),
    ({"A": None, "B": None, "C": None, "D": None}, {"state": "stock", "players": []}),
    ({"A": None, "B": None, "C": None}, {"state": "open", "players": []}),
    ({}, {"state": "open", "players": []}),
])
def test_the_core_reads_a_capit_rounds_end_from_the_players_reports(said, end):
    """RULES §3.8: a round ends when one player goes out, or when the stock runs out and
    nobody did; two who both say they went out cannot both be right."""
    from ledger.rules.report import round_end_reported

    assert round_end_reported(["A", "B", "C", "D"], said) == end
