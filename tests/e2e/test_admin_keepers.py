"""Issue 38.7 in the admin on a phone: a staff co-keeper who unticks the table's other keeper
is told at the field, in his language, that only a superuser may take a table from its
keepers; the keepers stay."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from ledger import services
from ledger.models import Table

from .helpers import login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": "Only a superuser may take a table from its scorekeepers: keep partner_pat chosen "
          "(you may add keepers).",
    "de": "Nur ein Superuser kann einer Runde ihre Schreiber nehmen: lass partner_pat "
          "ausgewählt (Schreiber hinzufügen darfst du).",
}


@pytest.mark.parametrize("code", ["en", "de"])
@pytest.mark.parametrize("width,height", [(360, 740), (1280, 800)])
def test_a_co_keeper_is_told_he_cannot_remove_the_other_keeper(
        browser, live_server, django_user_model, code, width, height):
    staff = django_user_model.objects.create_user("clubstaff", password="pw", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(content_type__app_label="ledger"))
    partner = django_user_model.objects.create_user("partner_pat", password="pw")
    table = services.table_create(name="Ours", scorekeepers=[staff, partner])
    context = browser.new_context(viewport={"width": width, "height": height}, locale=code,
                                  service_workers="block")
    page = context.new_page()
    login(page, live_server.url, "clubstaff")
    page.goto(f"{live_server.url}/admin/ledger/table/{table.pk}/change/")
    chosen = page.locator("#id_scorekeepers_to")
    chosen.select_option(label="partner_pat")
    page.locator("#id_scorekeepers_remove").click()
    page.locator("input[name=_save]").click()
    error = page.locator(".field-scorekeepers .errorlist")
    assert error.inner_text().strip() == SAYS[code]
    shot(page, f"admin-keepers-{code}-{width}")
    assert sorted(u.username for u in Table.objects.get(pk=table.pk).scorekeepers.all()) == [
        "clubstaff", "partner_pat"]
    context.close()
