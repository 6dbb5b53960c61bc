"""The marked screens in each shipped language on a 360x740 phone whose browser asks for that
language (issue 22): the tables page, a game being played (its hand form), a finished game
and the evening page show their translated words and nothing is cut off by longer words
(FITS). Screenshots: SHOTS_DIR=... (issue22-<screen>-<code>.png)."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from ledger import services

from ..ledger.conftest import load_case, start_empty
from .helpers import FITS, SCALE, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# the top bar's pieces (the brand, the game's tools button, the account and log-out) drawn
# over each other: longer words ("Werkzeuge", "Инструменты") covered the user name
OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll(
      '.topbar .brand, summary.tools-button, .topbar .logout > *')]
    .filter((el) => el.offsetParent !== null || getComputedStyle(el).position === 'fixed')
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && r.height > 0);
  const out = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i], [b, rb] = boxes[j];
      if (a.contains(b) || b.contains(a)) continue;
      if (ra.left < rb.right - 1 && rb.left < ra.right - 1 && ra.top < rb.bottom - 1
          && rb.top < ra.bottom - 1)
        out.push(a.textContent.trim().slice(0, 20) + ' over ' + b.textContent.trim().slice(0, 20));
    }
  return out;
}"""

# a word of each screen in each language (from its catalog), to be sure the page speaks it
HEADINGS = {"en": ("Your tables", "Save hand 2", "Game over", "The evening's money"),
            "de": ("Deine Runden", "Spiel 2 speichern", "Partie beendet", "Das Geld des Abends"),
            "es": ("Tus mesas", "Guardar mano 2", "Partida terminada", "El dinero de la velada"),
            "fr": ("Vos tables", "Enregistrer la donne 2", "Partie terminée",
                   "L’argent de la soirée"),
            "ru": ("Ваши компании", "Сохранить раздачу 2", "Партия окончена", "Деньги вечера")}


@pytest.mark.parametrize("code", [code for code, _ in settings.LANGUAGES])
def test_the_marked_screens_speak_the_phones_language_and_fit(browser, live_server, keeper,
                                                             code):
    table = services.table_create(name="Freitagsrunde am Stammtisch", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.05",
                                      created_by=keeper)
    record = load_case("gin-standard-game")
    playing = start_empty(session, keeper, load_case("gin-standard-game"))
    services.hand_record(game=playing, entry=record["hands"][0], recorded_by=keeper,
                         idempotency_key=uuid.uuid4())
    finished = services.game_import(session=session, record=record, imported_by=keeper)
    client = Client()
    client.force_login(get_user_model().objects.get(username="keeper"))
    context = browser.new_context(viewport={"width": 360, "height": 740},
                                  device_scale_factor=SCALE, is_mobile=True, has_touch=True,
                                  locale=code)
    try:
        page = context.new_page()
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_server.url,
                              "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
        home, save, over, money = HEADINGS[code]
        for name, path, words in [
                ("home", reverse("ledger:home"), home),
                ("game", reverse("ledger:game_detail", args=[playing.pk]), save),
                ("finished", reverse("ledger:game_detail", args=[finished.pk]), over),
                ("evening", reverse("ledger:session_detail", args=[session.pk]), money)]:
            page.goto(live_server.url + path)
            assert page.locator("html").get_attribute("lang") == code
            assert words in page.inner_text("body"), f"{name} in {code}"
            assert page.evaluate(FITS) == [], f"{name} in {code}"
            assert page.evaluate(OVERLAPS) == [], f"{name} in {code}"
            shot(page, f"issue22-{name}-{code}")
    finally:
        context.close()
