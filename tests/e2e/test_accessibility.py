"""An automated accessibility audit of every screen (issue 21): axe-core, vendored in
tests/e2e/vendor/axe-core/ (its version in README there), run by Chromium at 360x740 on each
screen the screen tour visits (test_every_screen: its lists of screens and its world, not a
copy), one page load a screen. No finding of serious or critical impact is allowed.

What axe checks here: WCAG 2.0-2.2 A and AA rules and its best practices (names of buttons,
links, fields and groups, landmarks, headings, colour contrast, ARIA used as specified...)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import login
from .test_every_screen import PHONE, public_screens, screens
from .test_every_screen import world as world  # noqa: F401  (the tour's fixture, reused)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                          resultTypes: ['violations']});
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ')
                    + ' :: ' + (n.failureSummary || '').split('\\n').slice(1, 2).join(''))}));
}"""


def audit(page, base: str, name: str, path: str, then, found: dict) -> None:
    response = page.goto(base + path)
    assert response is not None and response.status < 500, (name, response and response.status)
    if then is not None:
        then(page)
    page.wait_for_load_state("load")
    page.add_script_tag(content=AXE)
    violations = page.evaluate(RUN, TAGS)
    if violations:
        found[name] = violations


def test_no_serious_or_critical_accessibility_finding_on_any_screen(browser, live_server,
                                                                     world):  # noqa: F811
    found: dict = {}
    # the content security policy forbids inline scripts: the audit's script is let in here
    context = browser.new_context(**PHONE, bypass_csp=True)
    page = context.new_page()
    for name, path, then in public_screens(world):
        audit(page, live_server.url, name, path, then, found)
    login(page, live_server.url, "keeper")
    visited = 0
    for name, path, then in screens(world):
        audit(page, live_server.url, name, path, then, found)
        visited += 1
    context.close()
    assert visited > 40  # the tour's screens, not an empty list
    assert found == {}, json.dumps(found, indent=1)


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
