"""The automated accessibility audit (issue 21): axe-core (tests/e2e/axe.py) runs on every
screen of the phone tour at 360x740, in the same page load as the tour's other checks
(test_every_screen.test_every_screen_fits_the_phone_and_passes_the_audit), and no finding
of serious or critical impact is allowed there. This module shows the audit is not blind."""

from __future__ import annotations

import pytest

from .axe import serious_findings
from .test_every_screen import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

def audit(page, base: str, name: str, path: str, then, found: dict) -> None:
    response = page.goto(base + path)
    assert response is not None and response.status < 500, (name, response and response.status)
    if then is not None:
        then(page)
    page.wait_for_load_state("load")
    violations = serious_findings(page)
    if violations:
        found[name] = violations


def test_the_audit_finds_what_it_must(browser, live_server):
    """The audit is not blind: on a screen made worse on purpose (a button with no name,
    grey text on white) it reports both, as critical and serious."""
    context = browser.new_context(**PHONE, bypass_csp=True)
    page = context.new_page()
    found: dict = {}

    def spoil(page) -> None:
        page.evaluate("""() => {
          const main = document.querySelector('main');
          main.insertAdjacentHTML('beforeend',
            '<button type="button"></button><p style="color:#bbb;background:#fff">faint</p>');
        }""")

    audit(page, live_server.url, "login-spoiled", "/accounts/login/", spoil, found)
    context.close()
    rules = {v["id"]: v["impact"] for v in found["login-spoiled"]}
    assert rules == {"button-name": "critical", "color-contrast": "serious"}, found
