"""No hand lost with the connection gone, the installable app, and the live share page, in
Chromium at 360x740 (the phone at the card table).

The scorekeeper's phone goes offline (``context.set_offline``) while hands are entered; they
wait on the page and in the browser's storage, marked "not sent yet", and are sent in order
when the connection returns (static/ledger/offline.js, ledger/views/queue.py). Expected
scores are the rules' (RULES.md §2, two-hand gin, standard preset): a knock scores the
difference of the deadwood counts to the knocker; a draw scores nothing.
"""

from __future__ import annotations

import re
import time
import uuid

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import Hand
from tests.factories import gin_game

from .helpers import duel, login, score, shot, worker_in_control

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _routes_end_with_the_test(request):
    """A test that intercepts the page's requests lets go of them when it ends, so a
    request still on its way then neither fails the teardown nor reaches the next test."""
    page = request.getfixturevalue("page") if "page" in request.fixturenames else None
    yield  # (the page, asked for first, is closed after this)
    if page is not None:
        page.unroute_all(behavior="ignoreErrors")

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def gin(keeper):
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    return gin_game(session, keeper, preset="standard")


def open_game(page, base, game):
    page.set_viewport_size(PHONE)
    login(page, base, "keeper")
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.get_by_role("button", name="Save hand 1")).to_be_visible()


def save(page, number: int) -> None:
    page.get_by_role("button", name=f"Save hand {number}").click()


def queued(page) -> list[tuple[str, str]]:
    items = page.locator("#offline-queue .queue-item")
    return [(items.nth(i).get_attribute("data-number"), items.nth(i).get_attribute("data-state"))
            for i in range(items.count())]


def stored(game) -> list[tuple[int, dict]]:
    return [(h.number, h.entry) for h in Hand.objects.filter(game=game, voided_at=None)
            .order_by("number")]


def test_three_hands_entered_offline_are_stored_once_in_order(page, context, live_server, gin):
    open_game(page, live_server.url, gin)
    context.set_offline(True)
    expect(page.locator("#offline-banner")).to_contain_text("Hands you save are kept")

    duel(page, 1, "Ann", {0: "5", 1: "20"})
    save(page, 1)
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()
    duel(page, 1, "Bob", {0: "10", 1: "3"})
    save(page, 2)
    expect(page.get_by_role("button", name="Save hand 3")).to_be_visible()
    duel(page, 1, None, {})
    save(page, 3)
    expect(page.get_by_role("button", name="Save hand 4")).to_be_visible()

    assert queued(page) == [("1", "pending"), ("2", "pending"), ("3", "pending")]
    expect(page.locator("#offline-queue")).to_contain_text("Not sent yet")
    expect(page.locator("#score-pending")).to_have_text("Without the 3 hands not sent yet (below).")
    expect(page.locator("#offline-queue .queue-item").nth(1)).to_contain_text("Bob")
    # corrections, undo and the rest need the connection, and say so
    expect(page.locator("#actions form.needs-network button").first).to_be_disabled()
    shot(page, "offline-1-pending")
    # kept in the browser: a reload (or a closed tab) does not lose them
    kept = page.evaluate(f"JSON.parse(localStorage.getItem('tablestakes.queue.v1.{gin.pk}'))")
    assert [item["number"] for item in kept] == [1, 2, 3]
    assert len({item["key"] for item in kept}) == 3
    assert stored(gin) == []

    context.set_offline(False)
    expect(page.locator(".flash")).to_contain_text("Hand 3 recorded", timeout=15_000)
    assert stored(gin) == [
        (1, {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}}),
        (2, {"knocker": "Bob", "deadwood": {"Bob": 3, "Ann": 10}}),
        (3, {"draw": True}),
    ]
    # knock 20 - 5 = 15 to Ann; knock 10 - 3 = 7 to Bob; the draw scores nothing
    assert score(page, "Ann") == "15" and score(page, "Bob") == "7"
    expect(page.locator("#offline-queue")).to_be_hidden()
    expect(page.get_by_role("button", name="Save hand 4")).to_be_visible()
    assert page.evaluate(f"localStorage.getItem('tablestakes.queue.v1.{gin.pk}')") is None
    shot(page, "offline-3-synced")


def test_a_refused_hand_stops_the_queue_with_its_reason_and_keeps_the_later_ones(
        page, context, live_server, gin):
    # the server's refusal, as on a phone whose core did not start (with it, the phone
    # refuses the hand at its field before keeping it: test_offline_scoring.py)
    # (the context's routes see the service worker's fetches too, which the page's do not)
    for pattern in ("**/pyodide/**", "**/ledger/core/**"):
        context.route(pattern, lambda route: route.abort())
    open_game(page, live_server.url, gin)
    context.set_offline(True)
    duel(page, 1, "Ann", {0: "5", 1: "20"})
    save(page, 1)
    # the form is the next hand's before it is typed in (the Save asks the core first)
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()
    duel(page, 1, "Ann", {0: "15", 1: "20"})  # a knock above the knock limit (10)
    save(page, 2)
    expect(page.get_by_role("button", name="Save hand 3")).to_be_visible()
    duel(page, 1, "Bob", {0: "10", 1: "3"})
    save(page, 3)
    # each Save first asks the phone's core (here it cannot start), then keeps the hand
    expect(page.locator("#offline-queue .queue-item")).to_have_count(3)
    assert queued(page) == [("1", "pending"), ("2", "pending"), ("3", "pending")]

    context.set_offline(False)
    # hand 1 lands; hand 2 is refused: the queue stops there, hand 3 waits
    expect(page.locator(".flash")).to_contain_text("Hand 1 recorded", timeout=15_000)
    expect(page.locator("#offline-queue .queue-item").first).to_have_attribute(
        "data-state", "refused")
    assert queued(page) == [("2", "refused"), ("3", "waiting")]
    reason = page.locator("#offline-queue .queue-why").inner_text()
    assert "10" in reason and "15" in reason, reason
    # the refused hand is back in the form, the reason at Ann's count
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()
    assert page.locator("input[name=t1_c0]").input_value() == "15"
    expect(page.locator(".field.has-error .error").first).to_contain_text("10")
    assert stored(gin) == [(1, {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}})]
    shot(page, "offline-2-refused")

    # fixed and saved again: it and the waiting hand land, in order
    page.fill("input[name=t1_c0]", "6")
    save(page, 2)
    expect(page.locator(".flash")).to_contain_text("Hand 3 recorded", timeout=15_000)
    assert stored(gin) == [
        (1, {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}}),
        (2, {"knocker": "Ann", "deadwood": {"Ann": 6, "Bob": 20}}),
        (3, {"knocker": "Bob", "deadwood": {"Bob": 3, "Ann": 10}}),
    ]
    assert score(page, "Ann") == "29" and score(page, "Bob") == "7"


def test_a_hand_whose_answer_was_lost_is_stored_once(page, context, live_server, gin):
    """The hand reached the server but its answer did not reach the phone: sent again with
    the same key, it is not stored twice."""
    open_game(page, live_server.url, gin)
    answers = []

    def drop_first_answer(route):
        response = route.fetch()  # the server records the hand...
        answers.append(response.json())
        if len(answers) == 1:
            route.abort("connectionreset")  # ...and the answer is lost
        else:
            route.fulfill(response=response)

    page.route(re.compile(r".*/hands/send/$"), drop_first_answer)
    duel(page, 1, "Ann", {0: "5", 1: "20"})
    save(page, 1)
    # the first answer lost on the way (the server had recorded it): the phone keeps the
    # hand and says it tries again
    expect(page.locator("#offline-queue .queue-item").first).to_contain_text("not sent yet")
    expect(page.locator("#offline-queue")).to_contain_text("Trying again by itself")
    assert len(answers) >= 1
    assert len(stored(gin)) == 1  # recorded, though the phone does not know it yet
    # sent again by itself (the retry waits 1 s): the server knows the key
    expect(page.locator(".flash")).to_contain_text("Hand 1 recorded", timeout=15_000)
    assert [(a["status"], a["created"]) for a in answers] == [("recorded", True),
                                                                ("recorded", False)]
    assert stored(gin) == [(1, {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}})]
    assert score(page, "Ann") == "15"


def test_a_hand_saved_in_place_after_one_kept_offline_shows_both_rows_and_totals(
        page, context, live_server, gin):
    """Hand 1 is kept on the phone (no connection); hand 2 is saved once the connection is
    back: both are sent, in order, and the page is brought up to date in place, without a
    reload, with both rows and the totals of both."""
    open_game(page, live_server.url, gin)
    page.evaluate("window.notReloaded = true")
    sent = []

    def hand_1_alone_never_arrives(route):
        body = route.request.post_data or ""
        sent.append((re.search(r'name="number"\r\n\r\n(\d+)', body).group(1),
                     'name="parts"' in body))
        if sent[-1] == ("1", True):  # sent alone (asking for the parts): lost on the way
            route.abort("internetdisconnected")
        else:
            route.continue_()

    context.set_offline(True)
    duel(page, 1, "Ann", {0: "5", 1: "20"})
    save(page, 1)
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()
    page.route(re.compile(r".*/hands/send/$"), hand_1_alone_never_arrives)
    context.set_offline(False)
    expect(page.locator("#offline-queue .queue-item").first).to_contain_text("not sent yet")
    assert stored(gin) == []

    duel(page, 1, "Bob", {0: "10", 1: "3"})
    save(page, 2)
    expect(page.locator("#saved")).to_contain_text("Hand 2 recorded: Bob +7.", timeout=15_000)
    assert page.evaluate("window.notReloaded") is True  # in place, no reload
    # the last hand sent asked for the parts; the one before it did not
    assert sent[-2:] == [("1", False), ("2", True)]
    expect(page.locator("#saved")).to_contain_text("Hand 1 recorded: Ann +15.")
    expect(page.locator("#sheet #hand-1")).to_contain_text("Ann")
    expect(page.locator("#sheet #hand-2")).to_contain_text("Bob")
    expect(page.locator("#sheet tbody tr[id^=hand-]")).to_have_count(2)
    # knock 20 - 5 = 15 to Ann; knock 10 - 3 = 7 to Bob
    assert score(page, "Ann") == "15" and score(page, "Bob") == "7"
    expect(page.locator("#offline-queue")).to_be_hidden()
    expect(page.locator("#score-pending")).to_have_count(0)
    assert stored(gin) == [
        (1, {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}}),
        (2, {"knocker": "Bob", "deadwood": {"Bob": 3, "Ann": 10}}),
    ]
    assert page.evaluate(f"localStorage.getItem('tablestakes.queue.v1.{gin.pk}')") is None

    # the next hand, in the new form: one more row, in place (Ann knocks 2 v 9: +7)
    duel(page, 1, "Ann", {0: "2", 1: "9"})
    save(page, 3)
    expect(page.locator("#saved")).to_have_text("Hand 3 recorded: Ann +7.")
    expect(page.locator("#sheet tbody tr[id^=hand-]")).to_have_count(3)
    assert score(page, "Ann") == "22" and score(page, "Bob") == "7"
    assert page.evaluate("window.notReloaded") is True
    assert len(stored(gin)) == 3
    # the copy kept for opening the page offline follows (a few seconds after the save)
    kept = f"""async () => {{
      const name = (await caches.keys()).find(k => k.startsWith('ts-pages-'));
      const hit = name && await (await caches.open(name)).match('/games/{gin.pk}/');
      return hit ? (await hit.text()).includes('data-next="4"') : false;
    }}"""
    page.wait_for_function(kept, timeout=15_000)
    # and the messages said in place are not said again by the next page
    page.reload()
    expect(page.locator("#flash")).to_have_count(0)


def test_what_is_typed_stays_when_kept_hands_land_in_place(page, context, live_server, gin):
    open_game(page, live_server.url, gin)
    page.evaluate("window.notReloaded = true")
    context.set_offline(True)
    duel(page, 1, "Ann", {0: "5", 1: "20"})
    save(page, 1)
    duel(page, 1, "Bob", {0: "10"})  # hand 2, half typed when the connection returns
    context.set_offline(False)
    expect(page.locator("#sheet #hand-1")).to_be_visible(timeout=15_000)
    assert page.evaluate("window.notReloaded") is True
    assert score(page, "Ann") == "15"
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()
    assert page.locator("input[name=t1_knocker][value=Bob]").is_checked()
    assert page.input_value("input[name=t1_c0]") == "10"
    page.fill("input[name=t1_c1]", "3")
    save(page, 2)
    expect(page.locator("#saved")).to_have_text("Hand 2 recorded: Bob +7.")
    assert stored(gin)[1] == (2, {"knocker": "Bob", "deadwood": {"Bob": 3, "Ann": 10}})


def test_the_share_page_follows_a_new_hand_within_3_seconds(browser, live_server, gin, keeper):
    from ledger.models import ShareLink

    link = ShareLink.objects.create(table=gin.session.table, game=gin, created_by=keeper)
    watcher = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    share = watcher.new_page()
    polls = []
    share.on("response", lambda r: polls.append(r.status) if "/live/" in r.url else None)
    share.goto(f"{live_server.url}/s/{link.token}/")
    expect(share.locator(".score-tile[data-key='Ann'] .score-value")).to_have_text("0")
    for _ in range(2):  # two polls (every 2 s) answered
        share.wait_for_event("response", lambda r: "/live/" in r.url, timeout=10_000)
    assert polls and set(polls) == {304}, polls  # nothing changed: empty answers

    services.hand_record(game=gin, entry={"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4(), number=1)
    expect(share.locator(".score-tile[data-key='Ann'] .score-value")).to_have_text(
        "15", timeout=3000)
    expect(share.locator("#sheet")).to_contain_text("20")
    assert 200 in polls
    shot(share, "share-live")
    watcher.close()


def test_the_app_installs_manifest_worker_and_offline_page(page, context, live_server, gin):
    base = live_server.url
    open_game(page, base, gin)
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.request.get(base + href)
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["display"] == "standalone" and data["start_url"].startswith("/")
    sizes = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in data["icons"]:
        got = page.request.get(base + icon["src"])
        assert got.ok and got.headers["content-type"] == "image/png"

    worker = page.request.get(base + "/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert "self.TABLESTAKES" in worker.text()
    script = page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;
        return registration.active.scriptURL;
    }""")
    assert script == base + "/sw.js"
    # the worker kept the app's files and the offline page, named by the release
    names = page.evaluate("caches.keys()")
    assert any(name.startswith("ts-static-") for name in names), names

    # the game page, once loaded, opens from the home screen without a connection
    page.reload()
    worker_in_control(page)
    context.set_offline(True)
    page.goto(f"{base}/games/{gin.pk}/")
    expect(page.get_by_role("button", name="Save hand 1")).to_be_visible()
    expect(page.locator("#offline-banner")).to_be_visible()
    # a page never opened: the offline page
    page.goto(f"{base}/tables/{gin.session.table.pk}/")
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    shot(page, "offline-page")

    # back online, a hand's Save goes to the network without the worker (its static route
    # for a POST, set at install): the worker never stands between Save and the server
    context.set_offline(False)
    page.goto(f"{base}/games/{gin.pk}/")
    worker_in_control(page)
    duel(page, 1, "Ann", {0: "5", 1: "20"})
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".flash")).to_contain_text("Hand 1 recorded")
    routed = page.evaluate("""() => performance.getEntriesByType("resource")
        .filter((e) => e.name.includes("/hands/send/"))
        .map((e) => [e.workerMatchedSourceType, e.workerFinalSourceType])""")
    assert routed == [["network", "network"]], routed


def test_offline_in_the_box_the_scorekeeper_picks_who_played(page, context, live_server,
                                                             keeper):
    """Three-handed: who plays hand 2 depends on hand 1. Offline the form asks who played,
    and the server checks it when the hands are sent (RULES.md §3.5: the winner stays in
    the box, the one who sat out comes in as captain)."""
    table = services.table_create(name="Three", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    box = services.game_start(session=session, variant="box", players=["P", "Q", "R"],
                              started_by=keeper, preset="simple")
    open_game(page, live_server.url, box)
    expect(page.locator(".who-played")).to_have_count(0)  # roles known: nothing to pick
    context.set_offline(True)
    duel(page, 1, "P", {0: "3", 1: "18"})
    save(page, 1)
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()
    picker = page.locator(".who-played")
    expect(picker).to_contain_text("Roles are checked when the hands are sent")
    page.select_option("select[name=t1_p1]", "R")
    expect(page.locator("label[for=id_t1_c1]")).to_have_text("R's count")
    duel(page, 1, "R", {0: "12"}, kind="gin")
    save(page, 2)
    shot(page, "offline-4-box-picked")
    context.set_offline(False)
    expect(page.locator(".flash")).to_contain_text("Hand 2 recorded", timeout=15_000)
    assert stored(box) == [(1, {"knocker": "P", "deadwood": {"P": 3, "Q": 18}}),
                           (2, {"knocker": "R", "deadwood": {"R": 0, "P": 12}})]


# Not the service worker's test (the page is never reloaded offline here), and with it the
# reload that the "stale" answer asks for could fail: Playwright takes the service worker
# back online a moment after the page, so that reload (the page not yet kept) met the
# worker's offline page once in a full run.
@pytest.mark.browser_context_args(service_workers="block")
def test_a_queued_hand_whose_number_another_phone_took_is_kept_and_sent_as_the_next(
        page, context, live_server, gin, keeper):
    open_game(page, live_server.url, gin)
    context.set_offline(True)
    duel(page, 1, "Ann", {0: "5", 1: "20"})
    save(page, 1)
    # meanwhile another phone, online, records hand 1 (a draw)
    services.hand_record(game=gin, entry={"draw": True}, recorded_by=keeper,
                         idempotency_key=uuid.uuid4(), number=1)
    context.set_offline(False)
    head = page.locator("#offline-queue .queue-item").first
    expect(head).to_have_attribute("data-state", "stale", timeout=15_000)
    expect(head).to_contain_text("Hand 1 is already recorded by keeper")
    expect(page.locator("#sheet")).to_contain_text("Draw")  # the page as it is now
    expect(page.get_by_role("button", name="Save hand 3")).to_be_visible()
    assert stored(gin) == [(1, {"draw": True})]
    shot(page, "offline-5-stale")
    page.get_by_role("button", name="Send it as hand 2").click()
    expect(page.locator(".flash")).to_contain_text("Hand 2 recorded", timeout=15_000)
    assert stored(gin) == [(1, {"draw": True}),
                           (2, {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}})]
    # corrections and undo need the connection: offline, they say so instead of leaving
    context.set_offline(True)
    undo = page.get_by_role("link", name="↶ Undo hand 2")
    expect(undo).to_have_attribute("aria-disabled", "true")
    undo.click(force=True)
    expect(page.locator("dialog[open]")).to_have_count(0)  # no question: it says why
    fix = page.locator("#sheet a[href*='/fix/']").first
    expect(fix).to_have_class(re.compile("needs-network"))
    fix.click(force=True)  # aria-disabled: a person can still tap it
    expect(page.locator("#offline-banner")).to_contain_text("Corrections, undo")
    assert page.url.endswith(f"/games/{gin.pk}/")


def test_a_server_error_keeps_the_hand_and_it_is_sent_again(page, live_server, gin):
    open_game(page, live_server.url, gin)
    calls = []

    def fail_once(route):
        calls.append(1)
        if len(calls) == 1:
            route.fulfill(status=502, body="Bad gateway")  # the proxy's error page
        else:
            route.continue_()

    page.route(re.compile(r".*/hands/send/$"), fail_once)
    duel(page, 1, "Ann", {0: "5", 1: "20"})
    save(page, 1)
    expect(page.locator("#offline-queue .queue-why")).to_contain_text("(502)")
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()  # go on meanwhile
    expect(page.locator(".flash")).to_contain_text("Hand 1 recorded", timeout=15_000)
    assert len(calls) == 2
    assert stored(gin) == [(1, {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}})]


def test_a_revoked_share_link_stops_following(browser, live_server, gin, keeper):
    from ledger.models import ShareLink

    link = ShareLink.objects.create(table=gin.session.table, game=gin, created_by=keeper)
    watcher = browser.new_context(viewport=PHONE)
    share = watcher.new_page()
    share.goto(f"{live_server.url}/s/{link.token}/")
    expect(share.locator("#live")).to_be_visible()
    link.revoked_at = link.created_at
    link.save()
    expect(share.get_by_text("This link no longer works")).to_be_visible(timeout=3000)
    expect(share.locator("#live")).to_have_count(0)
    watcher.close()


STRICT_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
              "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'")


def with_strict_csp(route):
    """The production policy (issue 12's django-csp settings), put on every page here."""
    response = route.fetch()
    headers = {**response.headers, "content-security-policy": STRICT_CSP}
    route.fulfill(response=response, headers=headers)


def test_offline_queue_and_live_view_run_under_a_strict_csp(browser, live_server, gin, keeper):
    """No inline script, style or handler: everything works under the production policy.
    (Service workers are blocked here: Playwright's routes do not see what a worker
    answers; /sw.js itself is a same-origin script, which 'self' allows.)"""
    from ledger.models import ShareLink

    context = browser.new_context(viewport=PHONE, service_workers="block")
    violations = []

    def watch(page):
        page.on("console", lambda m: violations.append(m.text)
                if "Content Security Policy" in m.text else None)
        page.route(re.compile(r".*/(games/\d+/|s/[^/]+/)$"), with_strict_csp)
        return page

    page = watch(context.new_page())
    login(page, live_server.url, "keeper")
    page.goto(f"{live_server.url}/games/{gin.pk}/")
    context.set_offline(True)
    duel(page, 1, "Ann", {0: "5", 1: "20"})
    save(page, 1)
    expect(page.locator("#offline-queue .queue-item")).to_have_count(1)
    context.set_offline(False)
    expect(page.locator(".flash")).to_contain_text("Hand 1 recorded", timeout=15_000)

    link = ShareLink.objects.create(table=gin.session.table, game=gin, created_by=keeper)
    share = watch(context.new_page())
    share.goto(f"{live_server.url}/s/{link.token}/")
    services.hand_record(game=gin, entry={"draw": True}, recorded_by=keeper,
                         idempotency_key=uuid.uuid4(), number=2)
    expect(share.locator("#sheet")).to_contain_text("Draw", timeout=3000)
    context.close()
    assert violations == [], violations


def test_settling_up_needs_the_connection_and_says_so(page, context, live_server, gin, keeper):
    services.game_abandon(game=gin, abandoned_by=keeper, reason="late")
    page.set_viewport_size(PHONE)
    login(page, live_server.url, "keeper")
    page.goto(f"{live_server.url}/sessions/{gin.session.pk}/")
    settle = page.get_by_role("link", name="Settle up")
    expect(settle).not_to_have_attribute("aria-disabled", "true")
    context.set_offline(True)
    expect(settle).to_have_attribute("aria-disabled", "true")
    expect(page.locator("#offline-banner")).to_contain_text("Settling up needs it too")
    settle.click(force=True)
    expect(page.locator("dialog[open]")).to_have_count(0)
    assert page.url.endswith(f"/sessions/{gin.session.pk}/")
    context.set_offline(False)
    expect(settle).not_to_have_attribute("aria-disabled", "true")
    expect(page.locator("#offline-banner")).to_be_hidden()


def cache_names(page, until, timeout: float = 10.0) -> list[str]:
    """The browser's cache names, once ``until(names)`` holds (or the last seen)."""
    deadline = time.monotonic() + timeout
    while True:
        names = page.evaluate("caches.keys()")
        if until(names) or time.monotonic() > deadline:
            return names
        page.wait_for_timeout(100)


def test_a_new_release_replaces_the_kept_files(page, live_server, gin, settings):
    from ledger.views import freshness

    open_game(page, live_server.url, gin)
    worker_in_control(page)
    old = freshness.release()
    names = cache_names(page, lambda names: f"ts-static-{old}" in names)
    assert f"ts-static-{old}" in names, names
    settings.TABLESTAKES_RELEASE = "next-release"  # a deploy: the worker's code changes
    freshness.release.cache_clear()
    try:
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        # the old release's static files are gone; the core's cache (ts-core) keeps what the
        # new release still names (tests/e2e/test_core_worker.py)
        names = cache_names(page, lambda names: [n for n in names if n != "ts-core"]
                            == ["ts-static-next-release"])
        assert [n for n in names if n != "ts-core"] == ["ts-static-next-release"], names
    finally:
        freshness.release.cache_clear()


def test_a_refused_box_hand_comes_back_with_each_count_at_its_player(page, context,
                                                                     live_server, keeper):
    table = services.table_create(name="Three", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    box = services.game_start(session=session, variant="box", players=["P", "Q", "R"],
                              started_by=keeper, preset="simple")
    open_game(page, live_server.url, box)
    context.set_offline(True)
    duel(page, 1, "P", {0: "3", 1: "18"})
    save(page, 1)
    # hand 2 picked as R v P (the server draws it P v R): R's knock of 15 is too many
    page.select_option("select[name=t1_p0]", "R")
    page.select_option("select[name=t1_p1]", "P")
    expect(page.locator("label[for=id_t1_c0]")).to_have_text("R's count")
    duel(page, 1, "R", {0: "15", 1: "20"})
    save(page, 2)
    context.set_offline(False)
    expect(page.locator(".flash")).to_contain_text("Hand 1 recorded", timeout=15_000)
    # refused, alone, and back in the form with its reason: said there, not in the list
    expect(page.locator("#id_t1_c1_error")).to_be_visible()
    expect(page.locator("#offline-queue")).to_be_hidden()
    # the form is the server's (P in the box v R), each count at its player
    expect(page.locator(".who-played")).to_have_count(0)
    expect(page.locator("label[for=id_t1_c0]")).to_have_text("P's count")
    assert page.locator("input[name=t1_c0]").input_value() == "20"
    assert page.locator("input[name=t1_c1]").input_value() == "15"
    assert page.locator("input[name=t1_knocker][value=R]").is_checked()
    expect(page.locator("#id_t1_c1_error")).to_contain_text("R counted 15")
    page.fill("input[name=t1_c1]", "5")
    save(page, 2)
    expect(page.locator(".flash")).to_contain_text("Hand 2 recorded", timeout=15_000)
    assert stored(box)[1] == (2, {"knocker": "R", "deadwood": {"R": 5, "P": 20}})
