"""The phone's copy of the core (static/ledger/core/worker.mjs: ledger/rules under Pyodide in a
Web Worker) gives, in Chromium, exactly what ``manage.py score`` prints: every public case of
tests/data and a corpus of every variant, finished and running, valid and spoilt
(tests/core/corpus.py), under the app's own content security policy, from the app's own
static files; and a game page starts the worker by itself when it is idle."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from ledger import services
from tablestakes.staticfiles import core_cache_urls, core_config, csp_text
from tests.core.corpus import records, reference
from tests.factories import gin_game

from .helpers import login, shot, wait_for_async, worker_in_control

PHONE = {"width": 360, "height": 740}

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BOOT_MS = 90_000

SCORE_ALL = """async ({client, where, texts, limit}) => {
  const core = await import(client);
  const bootMs = await Promise.race([core.start(where), new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`no answer from the worker in ${limit} ms`)), limit))]);
  const answers = [];
  for (const text of texts) {
    const answer = await core.score(text);
    answers.push(answer.ok
      ? {exit: 0, json: answer.json, problems: []}
      : {exit: answer.exit, json: null, problems: answer.problems});
  }
  return {bootMs, answers};
}"""


@pytest.fixture
def gin(keeper):
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    return gin_game(session, keeper, preset="standard")


def under_the_app_policy(context) -> list[str]:
    """The worker's script with the app's policy on it, as WhiteNoise sends it in production
    (tablestakes/staticfiles.py add_headers; the test server sends static files bare)."""
    policy = csp_text()
    seen: list[str] = []

    def fulfil(route):
        response = route.fetch()
        seen.append(route.request.url)
        route.fulfill(response=response,
                      headers={**response.headers, "content-security-policy": policy})

    context.route(re.compile(r".*/ledger/core/worker\.mjs(\?.*)?$"), fulfil)
    return seen


def watch_csp(page) -> list[str]:
    seen: list[str] = []
    page.on("console", lambda msg: seen.append(msg.text)
            if "Content Security Policy" in msg.text else None)
    return seen


def test_the_worker_scores_every_record_as_the_server_does(browser, live_server):
    where = core_config()
    assert where is not None, "Pyodide is not installed (scripts/bootstrap runs npm ci)"
    corpus = records()
    names = [name for name, _ in corpus]
    assert len(corpus) >= 100
    context = browser.new_context(viewport=PHONE, service_workers="block")
    policed = under_the_app_policy(context)
    page = context.new_page()
    violations = watch_csp(page)
    # any page of the app: its content security policy is the one the worker runs under
    page.goto(live_server.url + reverse("ledger:offline"))
    page.set_default_timeout(BOOT_MS)
    got = page.evaluate(SCORE_ALL, {
        "client": live_server.url + "/static/ledger/core/client.mjs",
        "where": {key: live_server.url + value for key, value in where.items()},
        "texts": [text for _, text in corpus], "limit": BOOT_MS})
    context.close()
    assert violations == [] and len(policed) == 1
    assert got["bootMs"] > 0
    differ = [name for name, (_, text), answer in zip(names, corpus, got["answers"], strict=True)
              if answer != reference(text)]
    assert differ == []
    # both kinds were compared: results and refusals
    exits = [answer["exit"] for answer in got["answers"]]
    assert exits.count(0) >= 40 and exits.count(1) >= 40
    # a known case, to the cent: the 5-player captain sample's money
    captain = next(answer for name, answer in zip(names, got["answers"], strict=True)
                   if name == "captain-five-money")
    assert '"money"' in captain["json"]


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_game_page_starts_the_worker_when_idle(browser, live_server, keeper, gin, language):
    """The game page looks and works as before (the tag draws nothing; Save hand 1 is there at
    once), and the worker starts by itself once the page is idle, under the page's policy."""
    context = browser.new_context(viewport=PHONE, service_workers="block", locale=language)
    under_the_app_policy(context)
    page = context.new_page()
    violations = watch_csp(page)
    login(page, live_server.url, "keeper")
    page.goto(live_server.url + reverse("ledger:game_detail", args=[gin.pk]))
    save = {"en": "Save hand 1", "de": "Spiel 1 speichern"}[language]
    expect(page.get_by_role("button", name=save)).to_be_visible()
    expect(page.locator("#core-worker")).to_have_count(1)
    shot(page, f"core-worker-game-{language}")
    client = page.locator("#core-worker").get_attribute("src")
    # nobody calls start(): client.mjs does, when the page is idle
    wait_for_async(page, f"""async () => (await import({client!r})).state() === "ready" """,
                   timeout=BOOT_MS)
    result = page.evaluate(f"""async () => (await import({client!r})).score({{
      format: "tablestakes.game/1", variant: "gin", rules: {{}}, players: ["Ann", "Bob"],
      stakes: {{rate: "0.01", per_points: 1, currency: "USD"}},
      setup: {{first_dealer: "Ann"}}, abandoned: false,
      hands: [{{knocker: "Ann", deadwood: {{Ann: 2, Bob: 20}}}}]}})""")
    context.close()
    assert violations == []
    # Ann's knock of 2 against 20: 18 to Ann (issue 41's example)
    assert result["ok"]
    assert {name: total["final"] for name, total in result["result"]["totals"].items()} == {
        "Ann": 18, "Bob": 0}


def test_the_worker_waits_while_a_hand_is_typed_and_starts_when_the_connection_goes(
        browser, live_server, keeper, gin):
    """Pyodide's boot never competes with a keeper typing and saving a hand (issue 41: "never
    delaying the first Save"): while a tap or a key comes at least every QUIET ms, the core is
    not started; once the page is quiet for QUIET ms it starts; and it starts at once when
    the connection goes, whatever is being typed."""
    context = browser.new_context(viewport=PHONE, service_workers="block")
    page = context.new_page()
    login(page, live_server.url, "keeper")
    page.goto(live_server.url + reverse("ledger:game_detail", args=[gin.pk]))
    client = page.locator("#core-worker").get_attribute("src")
    state = f"""async () => (await import({client!r})).state()"""
    quiet = page.evaluate(f"""async () => (await import({client!r})).QUIET""")
    assert quiet == 2000
    # a keeper's taps, one every 600 ms, for more than twice the quiet time (and more than
    # the old start: at the first idle moment after the load)
    for _ in range(8):
        page.locator("input[name=t1_c0]").press("5")
        page.wait_for_timeout(600)
        assert page.evaluate(state) == "idle"
    # quiet now: it starts by itself
    wait_for_async(page, f"""async () => (await import({client!r})).state() !== "idle" """,
                   timeout=quiet + 15_000)
    context.close()

    context = browser.new_context(viewport=PHONE, service_workers="block")
    page = context.new_page()
    login(page, live_server.url, "keeper")
    page.goto(live_server.url + reverse("ledger:game_detail", args=[gin.pk]))
    for _ in range(3):
        page.locator("input[name=t1_c0]").press("5")
        page.wait_for_timeout(300)
    assert page.evaluate(state) == "idle"
    context.set_offline(True)
    page.wait_for_timeout(300)  # far less than the quiet time
    # started: "failed" here, since with no service worker nothing serves its files offline
    # (on a phone the service worker has them: test_offline_scoring.py)
    assert page.evaluate(state) != "idle"
    context.close()


KEPT = """async () => {
  const cache = await caches.open("ts-core");
  const out = {};
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    out[url.pathname + url.search] = (await cache.match(request)).headers.get("date");
  }
  return out;
}"""

NEXT_RELEASE = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  const cache = await caches.open("ts-core");
  await cache.put("/static/pyodide/0.0.1/pyodide.asm.wasm", new Response("an old release's"));
  await registration.update();
  const next = registration.installing || registration.waiting;
  if (!next) return "no new worker";
  await new Promise((resolve) => {
    if (next.state === "activated") resolve();
    next.addEventListener("statechange", () => { if (next.state === "activated") resolve(); });
  });
  return next.state;
}"""


def test_the_service_worker_keeps_the_core_once_across_releases(browser, live_server, keeper,
                                                                gin, settings):
    """The worker's files come through the service worker, which keeps them in ts-core; a new
    release (here: one that changes neither Pyodide nor the core) drops only what it no
    longer names and downloads nothing again."""
    from ledger.views.freshness import release

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    page.goto(live_server.url + reverse("ledger:game_detail", args=[gin.pk]))
    worker_in_control(page)
    page.reload()
    client = page.locator("#core-worker").get_attribute("src")
    wait_for_async(page, f"""async () => (await import({client!r})).state() === "ready" """,
                   timeout=BOOT_MS)
    first = page.evaluate(KEPT)
    assert sorted(first) == sorted(core_cache_urls())
    assert len(first) == 7  # the zip, the worker, Pyodide's five files
    page.wait_for_timeout(1100)  # a re-download would have a later Date
    settings.TABLESTAKES_RELEASE = "next-release"
    release.cache_clear()
    try:
        assert page.evaluate(NEXT_RELEASE) == "activated"
        second = page.evaluate(KEPT)
    finally:
        release.cache_clear()
        context.close()
    assert second == first  # the old release's file dropped, nothing fetched again
