"""Issue 21 item 7: "These are paid: square the book" asks first and can be undone, as a
paid mark is (book_scenario.py's evenings: Bob pays Ann $1.55 and Cy 0.03, 3 unpaid)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger import services
from ledger.exceptions import LedgerError
from ledger.models import BookSettlement, BookSettlementUndo, PaymentMark, SettlementPayment
from tests.pages import Page
from tests.refusing import refuses

from .book_scenario import build

pytestmark = pytest.mark.django_db


def unpaid() -> int:
    return SettlementPayment.objects.filter(paid_at__isnull=True,
                                            settlement__void__isnull=True).count()


@pytest.fixture
def evenings(table, keeper):
    return build(table, keeper)


def test_the_book_asks_before_squaring(logged_in, table, evenings):
    page = Page(logged_in.get(reverse("ledger:table_book", args=[table.pk])))
    dialog = page.one("dialog", id="confirm-square-USD")
    words = page.text(dialog)
    assert "Square the book in USD?" in words
    assert "Bob pays Ann $1.55" in words and "Bob pays Cy $0.03" in words
    assert "marks the 3 unpaid payments of the settled evenings paid" in words
    # the button on the page only opens the question: no form posts from it
    link = page.one("a", data_dialog="confirm-square-USD")
    assert link.get("href") == reverse("ledger:book_settle", args=[table.pk]) + "?currency=USD"
    assert unpaid() == 3


def test_without_javascript_the_question_is_a_page_and_nothing_is_marked(logged_in, table,
                                                                        evenings):
    url = reverse("ledger:book_settle", args=[table.pk])
    response = logged_in.get(url + "?currency=USD")
    assert response.status_code == 200
    page = Page(response)
    assert "Square the book in USD?" in page.text()
    form = page.one("form", action=url)
    assert "These are paid: square the book" in page.text(form)
    expected = page.one("input", name="expected").get("value")
    assert len(expected.split(",")) == 3
    assert unpaid() == 3 and not BookSettlement.objects.exists()
    # answering it squares the book
    done = logged_in.post(url, {"currency": "USD", "expected": expected}, follow=True)
    assert "3 payments of the evenings marked paid" in Page(done).text()
    assert unpaid() == 0
    # nothing outstanding in a currency: back to the book, not a question
    none = logged_in.get(url + "?currency=EUR", follow=True)
    assert "Nothing is outstanding in EUR" in Page(none).text()


def test_squaring_can_be_undone_from_the_book(logged_in, table, keeper, evenings):
    ids = sorted(SettlementPayment.objects.filter(paid_at__isnull=True,
                                                  settlement__void__isnull=True)
                 .values_list("pk", flat=True))
    done = services.book_settle(table=table, currency="USD", expected=ids, settled_by=keeper)
    assert unpaid() == 0
    page = Page(logged_in.get(reverse("ledger:table_book", args=[table.pk])))
    undo_url = reverse("ledger:book_settle_undo", args=[table.pk, done.pk])
    assert page.one("form", action=undo_url) is not None
    response = logged_in.post(undo_url, follow=True)
    words = Page(response).text()
    assert "Undone: 3 payments of the evenings in USD are unpaid again" in words
    assert "Bob pays Ann $1.55" in words and "Bob pays Cy $0.03" in words
    assert "undone" in words
    assert unpaid() == 3
    # append-only: the squaring stays, each payment has a paid and a "not paid" mark
    assert BookSettlement.objects.filter(pk=done.pk).exists()
    undo = BookSettlementUndo.objects.get(book_settlement=done)
    assert sorted(undo.restored) == ids
    for pk in ids:
        assert list(PaymentMark.objects.filter(payment_id=pk).order_by("id")
                    .values_list("paid", flat=True)) == [True, False]
    # not twice
    again = logged_in.post(undo_url, follow=True)
    assert "undone already" in Page(again).text()
    assert PaymentMark.objects.filter(paid=False).count() == 3


def test_undo_leaves_a_payment_marked_again_since(table, keeper, evenings):
    ids = sorted(SettlementPayment.objects.filter(paid_at__isnull=True,
                                                  settlement__void__isnull=True)
                 .values_list("pk", flat=True))
    done = services.book_settle(table=table, currency="USD", expected=ids, settled_by=keeper)
    first = SettlementPayment.objects.get(pk=ids[0])
    services.settlement_payment_mark_paid(payment=first, paid_by=keeper, paid=False)
    services.settlement_payment_mark_paid(payment=first, paid_by=keeper, paid=True)
    undo = services.book_settle_undo(book_settlement=done, undone_by=keeper)
    assert sorted(undo.restored) == ids[1:]
    assert SettlementPayment.objects.get(pk=ids[0]).is_paid
    assert unpaid() == 2


def test_undo_with_nothing_left_to_undo_is_refused(table, keeper, evenings):
    ids = sorted(SettlementPayment.objects.filter(paid_at__isnull=True,
                                                  settlement__void__isnull=True)
                 .values_list("pk", flat=True))
    done = services.book_settle(table=table, currency="USD", expected=ids, settled_by=keeper)
    for payment in SettlementPayment.objects.filter(pk__in=ids):
        services.settlement_payment_mark_paid(payment=payment, paid_by=keeper, paid=False)
    with refuses(LedgerError, match="nothing to undo"):
        services.book_settle_undo(book_settlement=done, undone_by=keeper)
    assert not BookSettlementUndo.objects.exists()


def test_another_keeper_cannot_undo(client, other_keeper, table, keeper, evenings):
    ids = sorted(SettlementPayment.objects.filter(paid_at__isnull=True,
                                                  settlement__void__isnull=True)
                 .values_list("pk", flat=True))
    done = services.book_settle(table=table, currency="USD", expected=ids, settled_by=keeper)
    client.force_login(other_keeper)
    response = client.post(reverse("ledger:book_settle_undo", args=[table.pk, done.pk]))
    assert response.status_code == 404 and unpaid() == 0


def test_an_undone_squaring_goes_through_export_and_import(table, keeper, evenings, tmp_path):
    import json

    from django.core.management import call_command

    from ledger.services.table_import import table_import

    ids = sorted(SettlementPayment.objects.filter(paid_at__isnull=True,
                                                  settlement__void__isnull=True)
                 .values_list("pk", flat=True))
    done = services.book_settle(table=table, currency="USD", expected=ids, settled_by=keeper)
    services.book_settle_undo(book_settlement=done, undone_by=keeper)
    path = tmp_path / "table.json"
    call_command("export_table", table.pk, output=str(path))
    document = json.loads(path.read_text())
    [entry] = document["book_settlements"]
    assert len(entry["undone"]["restored"]) == 3 and entry["undone"]["undone_by"] == "keeper"
    copy = table_import(document=document, name="Friday copy",
                        accounts={"keeper": keeper}).table
    undo = BookSettlementUndo.objects.get(book_settlement__table=copy)
    assert len(undo.restored) == 3
    assert SettlementPayment.objects.filter(
        pk__in=undo.restored, paid_at__isnull=True).count() == 3
    # a file from before the undo existed (no "undone") still imports
    del entry["undone"]
    older = table_import(document=document, name="Friday older",
                         accounts={"keeper": keeper}).table
    assert not BookSettlementUndo.objects.filter(book_settlement__table=older).exists()
