"""Smoke test for the browser stack: live_server + Playwright + Debian chromium."""
import pytest

from .helpers import SCALE

pytestmark = pytest.mark.e2e


def test_admin_login_page_loads_on_a_phone(page, live_server):
    page.goto(live_server.url + "/admin/login/")
    assert "Log in" in page.title()
    assert page.viewport_size == {"width": 390, "height": 844}
    assert page.evaluate("window.devicePixelRatio") == SCALE
    assert page.locator("input[name=username]").is_visible()
