"""Under the strict content security policy (no inline script or style) the screens still
work in Chromium, and the browser reports no violation: the card picker's script and its
live preview (htmx), the share box that selects itself, the printable preview, the admin."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .helpers import (
    choose_game,
    create_table,
    login_with_the_form,
    seat,
    start_evening,
    start_game,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def watch(page: Page) -> list[str]:
    """Every CSP violation the page reports (console and securitypolicyviolation events)."""
    seen: list[str] = []
    page.on("console", lambda msg: seen.append(f"{page.url}: {msg.text}")
            if "Content Security Policy" in msg.text else None)
    page.add_init_script("document.addEventListener('securitypolicyviolation', e => "
                         "console.log('Content Security Policy: ' + e.violatedDirective + ' ' "
                         "+ e.sourceFile + ':' + e.lineNumber + ' ' + e.sample))")
    return seen


def test_the_screens_work_and_nothing_is_blocked(page, live_server, keeper,
                                                  django_user_model):
    violations = watch(page)
    base = live_server.url
    login_with_the_form(page, base, "keeper")
    create_table(page, "Friday", ["Ann", "Bob"])
    # the share box selects the whole link on a tap (app.js; it was an inline onclick)
    page.click("button:has-text('Make a share link')")
    box = page.locator("input.copy")
    box.click()
    assert page.evaluate("window.getSelection().toString() || "
                         "document.activeElement.value.substring("
                         "document.activeElement.selectionStart, "
                         "document.activeElement.selectionEnd)") == box.input_value()
    # the share page a player opens (it polls for changes with htmx)
    shared = box.input_value()
    table_page = page.url
    page.goto(shared)
    expect(page.locator("body")).to_contain_text("Friday")
    # htmx runs under the policy: its first poll of the live part (every 2 s) is answered
    with page.expect_response(lambda r: r.request.headers.get("hx-request") == "true",
                              timeout=10_000):
        pass
    page.goto(table_page)
    start_evening(page)
    choose_game(page, "Gin", 2)
    seat(page, {"p1": "Ann", "p2": "Bob", "first_dealer": "Bob"})
    start_game(page)
    # the card picker (cards.js) and its live preview fetched from /cards/preview/
    picker = page.locator("details.cards[data-cards='1']")
    picker.locator("summary").click()
    expect(picker.locator(".picker")).to_be_visible()  # shown by the script
    page.locator("label.seg-opt:has(input[name='t1_knocker'][value='Ann'])").click()
    for position, cards in ((0, "AD 2D 3D 4D JS JC JH 6C 7C 8C"),
                            (1, "9C 9S 9D 4H 8H QH KD 2C 5S AS")):
        picker.locator(f".picker-tab[data-pos='{position}']").click()
        for card in cards.split():
            picker.locator(f".deck-card[data-card='{card}']").click()
    expect(picker.locator(".cards-preview .cp")).to_have_attribute("data-legal", "1")
    # the printable preview links its stylesheet
    page.goto(base + page.locator("a:has-text('Print sheet')").get_attribute("href")
              .replace(".pdf", ".html"))
    expect(page.locator("body")).to_contain_text("Ann")
    # the admin, with its own scripts (the scorekeepers widget)
    django_user_model.objects.create_superuser("root", password="pw", email="r@example.org")
    page.goto(base + "/admin/login/")
    page.fill("input[name=username]", "root")
    page.fill("input[name=password]", "pw")
    page.click("input[type=submit]")
    page.goto(base + "/admin/ledger/table/add/")
    expect(page.locator("#id_scorekeepers_from")).to_be_visible()  # built by SelectFilter2.js
    assert violations == []
