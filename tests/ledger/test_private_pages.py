"""Issue 38: what no cache may keep, and the report link's withdraw number.

- Logged-in pages, the money downloads (CSV, XLSX, PDF, JSON) and the capability pages (a
  share link, a report link: whoever holds it sees the table's money) answer
  ``Cache-Control: private, no-store``; none of them said so (a shared computer's back
  button, a company proxy could keep them). The public files stay cacheable.
- The report link's withdraw read ``number`` with ``int()``: ``١`` was hand 1 and a number
  past the column reached the database. It is read by the one number reader: a 400 that
  names it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils.cache import get_max_age

from ledger import services
from ledger.models import TableReport
from tests.ledger.test_table_reports import captain7
from tests.pages import Page

pytestmark = pytest.mark.django_db


def cache_control(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part}


@pytest.fixture
def game(session, keeper):
    return captain7(session, keeper)


def test_every_answer_to_a_logged_in_account_is_kept_by_no_cache(logged_in, game, table):
    for url in (f"/games/{game.pk}/", f"/tables/{table.pk}/", f"/sessions/{game.session_id}/",
                f"/tables/{table.pk}/book/", f"/games/{game.pk}/hands.csv",
                f"/games/{game.pk}/hands.csv?_export=xlsx", f"/tables/{table.pk}/export.json",
                "/"):
        response = logged_in.get(url)
        assert response.status_code == 200, url
        assert {"private", "no-store"} <= cache_control(response), (url, response.headers)
        assert "public" not in cache_control(response)


def test_a_pdf_of_the_money_is_kept_by_no_cache(logged_in, game):
    response = logged_in.get(f"/sheets/sessions/{game.session_id}.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert {"private", "no-store"} <= cache_control(response)


def test_the_capability_pages_are_kept_by_no_cache(game, table, keeper):
    share = services.share_link_get_or_create(table=table, created_by=keeper)
    links = services.report_links_get_or_create(game=game, created_by=keeper)
    anonymous = Client()
    for url in (f"/s/{share.token}/", f"/s/{share.token}/live/",
                f"/s/{share.token}/games/{game.pk}/", f"/r/{links[0].token}/",
                f"/r/{links[0].token}/live/"):
        response = anonymous.get(url)
        assert response.status_code == 200, url
        assert {"private", "no-store"} <= cache_control(response), (url, response.headers)
    # the live part still answers 304 to its poll (its own ETag, sent by live.js)
    live = anonymous.get(f"/s/{share.token}/live/")
    assert "no-cache" in cache_control(live)
    assert anonymous.get(f"/s/{share.token}/live/",
                         HTTP_IF_NONE_MATCH=live["ETag"]).status_code == 304


def test_the_public_files_stay_cacheable(logged_in):
    manifest = logged_in.get("/manifest.webmanifest")
    assert cache_control(manifest) == {"public", "max-age=3600"}
    assert get_max_age(manifest) == 3600
    worker = logged_in.get("/sw.js")
    assert cache_control(worker) == {"no-cache"}
    login = Client().get("/accounts/login/")
    assert login.status_code == 200  # Django's own never_cache, unchanged
    assert "public" not in cache_control(login)


@pytest.mark.parametrize(("number", "said"), [
    ("١", "write a whole number with the digits 0-9, like 25, not '١'"),
    ("３", "write a whole number with the digits 0-9, like 25, not '３'"),
    (" 1", "write a whole number with the digits 0-9"),
    ("99999999999999999", "99999999999999999 is above 2147483647, the most allowed"),
    ("9" * 40, "write a whole number with the digits 0-9"),
])
def test_the_withdraw_number_is_read_by_the_one_number_reader(game, keeper, number, said):
    links = services.report_links_get_or_create(game=game, created_by=keeper)
    phone = Client()
    phone.post(f"/r/{links[2].token}/", {"number": "1", "key": "5b0c4a3e-1f9d-4c38-9a0e-"
                                                                  "0c3f7d2b6a11",
                                         "t1_knocker": "-draw-"})
    assert TableReport.objects.filter(withdrawn_at=None).count() == 1
    response = phone.post(f"/r/{links[2].token}/withdraw/", {"number": number})
    assert response.status_code == 400
    assert "The parameter 'number': " in Page(response).text()
    assert said in Page(response).text()
    assert TableReport.objects.filter(withdrawn_at=None).count() == 1  # nothing withdrawn
    assert phone.post(f"/r/{links[2].token}/withdraw/", {"number": "1"}).status_code == 302
    assert TableReport.objects.filter(withdrawn_at=None).count() == 0
