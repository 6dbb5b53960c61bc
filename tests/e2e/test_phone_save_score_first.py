"""A hand saved online on the phone: the server's new score is put in first and drawn alone,
the rest of its answer (the next hand's form, the sheet's new row, the chart, the totals, the
undo) in the frame after (static/ledger/queue/page.js, swapIn; issue 42: together they held
the score back by the form's layout and the page's paint, 4x CPU). The page after is the
page a reload draws. Chromium at 360x740 (and 1280 wide), in English and German. Expected
scores are the rules' (RULES.md §2, two-hand gin, standard preset): a knock scores the
difference of the deadwood counts to the knocker."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import Hand
from tests.factories import ANN_KNOCKS, gin_game

from .helpers import SCALE, duel, login, score, settled, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"save": "Save hand {n}", "recorded": "Hand {n} recorded"},
    "de": {"save": "Spiel {n} speichern", "recorded": "Spiel {n} eingetragen"},
}

# each element put in the page, in the order they came: #score and #entry, with the frame
# (animation frames counted from here) and the Save button of the form then on the page
WATCH = """() => {
  window.__put = [];
  let frames = 0;
  const tick = () => { frames += 1; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  new MutationObserver((records) => {
    records.forEach((r) => r.addedNodes.forEach((node) => {
      if (node.id !== "score" && node.id !== "entry") return;
      const button = document.querySelector("#entry button[type=submit]");
      window.__put.push({id: node.id, frame: frames, button: button.textContent.trim(),
                         disabled: button.disabled});
    }));
  }).observe(document.body, {childList: true, subtree: true});
}"""

# what a reload must draw the same: the tiles, the strip, the totals, the chart, the sheet
# (without the server's numbers the tiles keep once the page is idle, data-server*)
PAGE = """() => {
  const html = (el) => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll("[data-server]").forEach((e) => {
      ["data-server", "data-server-leader", "data-server-detail"]
        .forEach((a) => e.removeAttribute(a));
    });
    return copy.innerHTML;
  };
  return {
  score: html(document.getElementById("score")),
  strip: html(document.querySelector(".score-strip")),
  // (the text, not innerText: the sheet is laid out only near the screen, app.css)
  totals: document.getElementById("totals").textContent,
  chart: document.getElementById("chart").innerHTML,
  rows: [...document.querySelectorAll("#sheet-rows tr")].map((tr) => tr.textContent),
  scores: document.querySelectorAll("#score").length,
  entries: document.querySelectorAll("#entry").length,
  oob: document.querySelectorAll("[hx-swap-oob]").length,
  };
}"""


@pytest.fixture
def evening(keeper):
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    return services.session_create(table=table, currency="USD", rate="0.01", created_by=keeper)


@pytest.mark.parametrize("code", ["en", "de"])
@pytest.mark.parametrize("width", [360, 1280])
def test_a_save_puts_the_new_score_first_and_the_page_after_is_a_reloads(
        browser, live_server, evening, keeper, code, width):
    if width == 1280 and code == "de":
        pytest.skip("the wide screen once, in English")
    gin = gin_game(evening, keeper, preset="standard", hands=[ANN_KNOCKS] * 3)
    words = WORDS[code]
    context = browser.new_context(viewport={"width": width, "height": 740}, locale=code,
                                  service_workers="block", device_scale_factor=SCALE,
                                  is_mobile=width < 400, has_touch=width < 400)
    try:
        page = context.new_page()
        login(page, live_server.url, "keeper")
        page.goto(f"{live_server.url}/games/{gin.pk}/")
        assert score(page, "Ann") == "36"  # 3 x (17 - 5)
        duel(page, 1, "Ann", {0: "5", 1: "20"})
        page.wait_for_load_state("networkidle")  # the hand's preview, asked as it is typed
        page.evaluate(WATCH)
        page.get_by_role("button", name=words["save"].format(n=4), exact=True).click()
        expect(page.get_by_role("button", name=words["save"].format(n=5), exact=True)
               ).to_be_visible()
        expect(page.locator(".flash")).to_contain_text(words["recorded"].format(n=4))
        settled(page)
        assert score(page, "Ann") == "51" and score(page, "Bob") == "0"  # 36 + (20 - 5)
        put = page.evaluate("window.__put")
        # the score first, while the form is still the hand being saved (its button off);
        # the next hand's form a frame later
        assert [p["id"] for p in put] == ["score", "entry"], put
        assert put[0]["disabled"] and put[0]["button"] != words["save"].format(n=5), put
        assert put[1]["frame"] > put[0]["frame"], put
        assert put[1]["button"] == words["save"].format(n=5) and not put[1]["disabled"], put
        shot(page, f"save-score-first-{code}-{width}", full_page=False)
        assert Hand.objects.filter(game=gin, voided_at=None).count() == 4

        after = page.evaluate(PAGE)
        assert (after["scores"], after["entries"], after["oob"]) == (1, 1, 0)
        assert len(after["rows"]) == 4
        page.reload()
        again = page.evaluate(PAGE)
        assert after == again
    finally:
        context.close()
