"""Issue 23: who reported what, and when, kept with each saved hand in the game's export
(CSV and XLSX) and on the printed game sheet's audit (its HTML preview and the PDF)."""

from __future__ import annotations

import csv
import datetime
import io
import uuid
from unittest import mock

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from ledger import services
from tests.ledger.test_table_reports import capit, captain7, knock
from tests.pages import Page
from tests.scoresheets.conftest import pdf_text

pytestmark = pytest.mark.django_db

AT = datetime.datetime(2026, 11, 25, 22, 41, tzinfo=datetime.UTC)


def _reported_captain_hand(session, keeper):
    """Hand 1 of a captain-7 game reported by all three tables (table 1 twice: the second
    replaces the first; table 2 a gin), saved by the scorekeeper; hand 2 saved without
    reports."""
    game = captain7(session, keeper)
    t1, t2, t3 = services.report_links_get_or_create(game=game, created_by=keeper)
    sent = [(t1, knock("R1", 7, "B1", 30)), (t1, knock("R1", 5, "B1", 30)),
            (t2, knock("B2", 0, "R2", 10)), (t3, {"draw": True})]  # table 2's is a gin
    for minutes, (link, values) in enumerate(sent):  # reported at AT, AT + 1 min...
        # (the clock, not an UPDATE: on PostgreSQL what was reported never changes)
        with mock.patch("django.utils.timezone.now",
                        return_value=AT + datetime.timedelta(minutes=minutes)):
            services.report_submit(link=link, number=1, values=values)
    parts = [knock("R1", 5, "B1", 30), knock("B2", 0, "R2", 10), {"draw": True}]
    services.hand_record(game=game, entry={"tables": parts}, recorded_by=keeper,
                         idempotency_key=uuid.uuid4(), number=1)
    services.hand_record(game=game, entry={"tables": [{"draw": True}] * 3},
                         recorded_by=keeper, idempotency_key=uuid.uuid4(), number=2)
    return game


# each table's part in the sheet's own words for a table of a hand (issue 37.6: a gin read
# "B2 knock B2 0 v R2 10")
EXPECTED = ("table 1 at Nov 25, 2026, 10:41\u202fPM (replaced): R1 knocks 7 v B1 30; "
            "table 1 at Nov 25, 2026, 10:42\u202fPM (changed): R1 knocks 5 v B1 30; "
            "table 2 at Nov 25, 2026, 10:43\u202fPM: B2 gin v R2 10; "
            "table 3 at Nov 25, 2026, 10:44\u202fPM: Draw")


def _csv_rows(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_the_csv_says_who_reported_what_and_when_for_each_saved_hand(logged_in, session,
                                                                     keeper):
    game = _reported_captain_hand(session, keeper)
    response = logged_in.get(reverse("ledger:game_export", args=[game.pk]))
    assert response.status_code == 200
    rows = _csv_rows(response)
    assert rows[0]["Hand"] == "1" and rows[0]["Reported by"] == EXPECTED
    assert rows[1]["Hand"] == "2" and rows[1]["Reported by"] == ""
    # the replaced report (R1 7) is kept too, marked


def test_the_xlsx_holds_the_same_words(logged_in, session, keeper):
    game = _reported_captain_hand(session, keeper)
    response = logged_in.get(reverse("ledger:game_export", args=[game.pk]),
                             {"_export": "xlsx"})
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('game-1.xlsx"') or ".xlsx" in \
        response["Content-Disposition"]
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = list(sheet.iter_rows(values_only=True))
    column = list(values[0]).index("Reported by")
    assert values[1][0] == 1 and values[1][column] == EXPECTED
    assert values[2][column] in ("", None)


def test_an_unknown_export_format_is_a_400_naming_the_parameter(logged_in, session, keeper):
    game = captain7(session, keeper)
    response = logged_in.get(reverse("ledger:game_export", args=[game.pk]),
                             {"_export": "pdf"})
    assert response.status_code == 400
    assert "_export" in response.content.decode()


def test_a_game_without_reports_exports_no_reported_column(logged_in, session, keeper):
    game = captain7(session, keeper)
    services.hand_record(game=game, entry={"tables": [{"draw": True}] * 3},
                         recorded_by=keeper, idempotency_key=uuid.uuid4(), number=1)
    response = logged_in.get(reverse("ledger:game_export", args=[game.pk]))
    assert "Reported by" not in response.content.decode()


def test_the_paper_audit_says_who_reported_what(logged_in, session, keeper):
    game = _reported_captain_hand(session, keeper)
    html = logged_in.get(reverse("scoresheets:game_html", args=[game.pk]))
    assert html.status_code == 200
    text = Page(html).text()
    audit = text.split("Who reported what", 1)[1].split("End of the game")[0]
    # (the page's text puts a space between the bold "Hand 1" and its colon)
    assert audit.replace(" :", ":").strip() == f"Hand 1: {EXPECTED}".replace("\u202f", " ")
    assert "Hand 2" not in audit
    pdf = logged_in.get(reverse("scoresheets:game_pdf", args=[game.pk]))
    words = " ".join(pdf_text(pdf.content).split())
    assert "WHO REPORTED WHAT" in words.upper()
    assert "table 3 at Nov 25, 2026, 10:44" in words and "B2 gin v R2 10" in words
    assert "R1 knocks 5 v B1 30" in words and "knock B2" not in words


def test_a_capit_players_reports_are_in_the_export_under_their_names(logged_in, session,
                                                                     keeper):
    game = capit(session, keeper)
    link = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    with mock.patch("django.utils.timezone.now", return_value=AT):
        services.report_submit(link=link, number=1, player="A",
                               values={"went_out": "A", "points": {"A": 0}})
        services.report_submit(link=link, number=1, player="B",
                               values={"went_out": None, "points": {"B": 25}})
    services.hand_record(game=game, entry={"went_out": "A", "points": {
        "A": 0, "B": 25, "C": 10, "D": 5}}, recorded_by=keeper,
        idempotency_key=uuid.uuid4(), number=1)
    rows = _csv_rows(logged_in.get(reverse("ledger:game_export", args=[game.pk])))
    assert rows[0]["Reported by"] == ("A at Nov 25, 2026, 10:41\u202fPM: A 0 went out; "
                                      "B at Nov 25, 2026, 10:41\u202fPM: B 25")


def test_the_game_page_says_who_reported_what_in_the_same_words(logged_in, session, keeper):
    game = _reported_captain_hand(session, keeper)
    text = Page(logged_in.get(reverse("ledger:game_detail", args=[game.pk]))).text()
    history = text.split("Who reported what", 1)[1].replace("\u202f", " ")
    assert ("Hand 1: table 1 at 10:41 PM (replaced): R1 knocks 7 v B1 30; "
            "table 1 at 10:42 PM (changed): R1 knocks 5 v B1 30; "
            "table 2 at 10:43 PM: B2 gin v R2 10; "
            "table 3 at 10:44 PM: Draw") in history


def test_the_scorekeepers_etag_follows_every_change_of_the_reports(session, keeper):
    from ledger.selectors.table_reports import reports_version

    game = captain7(session, keeper)
    t1, t2, _ = services.report_links_get_or_create(game=game, created_by=keeper)
    seen = [reports_version(game.pk)]

    def changed():
        seen.append(reports_version(game.pk))
        assert seen[-1] != seen[-2]

    assert reports_version(game.pk) == seen[0]  # nothing changed: the same
    services.report_submit(link=t1, number=1, values=knock("R1", 5, "B1", 30))
    changed()
    services.report_submit(link=t1, number=1, values=knock("R1", 6, "B1", 30))  # replaced
    changed()
    services.report_submit(link=t2, number=1, values={"draw": True})
    changed()
    services.report_withdraw(link=t2, number=1)
    changed()
    services.hand_record(game=game, entry={"tables": [{"draw": True}] * 3},
                         recorded_by=keeper, idempotency_key=uuid.uuid4(), number=1)
    changed()
    assert reports_version(game.pk) == seen[-1]
    assert len(set(seen)) == 6


def test_who_reported_what_is_said_in_the_tables_and_the_readers_language(logged_in, session,
                                                                          keeper):
    """The heads were English on a German page and German paper (issue 22)."""
    game = _reported_captain_hand(session, keeper)
    session.table.language = "de"
    session.table.save(update_fields=["language"])
    paper = Page(logged_in.get(reverse("scoresheets:game_html", args=[game.pk]))).text()
    assert "Wer was gemeldet hat" in paper and "Who reported what" not in paper
    export = logged_in.get(reverse("ledger:game_export", args=[game.pk]),
                           HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Gemeldet von" in export and "Reported by" not in export
    # the lines themselves too, in the sheet's German words, whatever the reader's language
    # (an English reader's were English under the German head)
    english_reader = logged_in.get(reverse("ledger:game_export", args=[game.pk]),
                                   HTTP_ACCEPT_LANGUAGE="en").content.decode()
    rows = list(csv.DictReader(io.StringIO(english_reader)))
    assert rows[0]["Gemeldet von"] == (
        "Tisch 1 um 25.11.2026, 22:41 (ersetzt): R1 klopft 7 gegen B1 30; "
        "Tisch 1 um 25.11.2026, 22:42 (geändert): R1 klopft 5 gegen B1 30; "
        "Tisch 2 um 25.11.2026, 22:43: B2 Gin gegen R2 10; "
        "Tisch 3 um 25.11.2026, 22:44: Remis")


def test_the_paper_audit_asks_once_of_a_game_without_links_and_keeps_revoked_links_reports(
        session, keeper, django_assert_num_queries):
    """A game no report or confirm link was made for has no reports and no confirmations:
    the sheet's audit asks one question of the database for it, not two. Revoking the links
    keeps what the tables reported before on the sheet."""
    from scoresheets.selectors import reported_lines

    plain = captain7(session, keeper)
    services.hand_record(game=plain, entry={"tables": [{"draw": True}] * 3},
                         recorded_by=keeper, idempotency_key=uuid.uuid4(), number=1)
    with django_assert_num_queries(1):
        assert reported_lines(plain) == []
    game = _reported_captain_hand(session, keeper)
    assert services.report_links_revoke(game=game) == 3
    lines = reported_lines(game)
    assert [line["number"] for line in lines] == [1]
    assert len(lines[0]["lines"]) == 4  # table 1 twice, tables 2 and 3
