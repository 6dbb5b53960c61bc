"""The print URLs (scorekeepers only) and the print_game / print_session commands."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from .conftest import demo_game, pdf_text

# Print URLs and commands: what is printed is the same on any engine (SQLite only in CI).
pytestmark = [pytest.mark.django_db, pytest.mark.engine_independent]


def test_url_names():
    assert reverse("scoresheets:game_pdf", kwargs={"pk": 7}) == "/sheets/games/7.pdf"
    assert reverse("scoresheets:blank_pdf", kwargs={"pk": 7}) == "/sheets/games/7/blank.pdf"
    assert reverse("scoresheets:session_pdf", kwargs={"pk": 3}) == "/sheets/sessions/3.pdf"


def test_scorekeeper_prints_game_blank_and_session(client, demo, keeper):
    client.force_login(keeper)
    game = demo_game(demo, 1)
    for url, name in (
        (reverse("scoresheets:game_pdf", kwargs={"pk": game.pk}),
         "thursday-rummy-club-2025-11-20-game-1.pdf"),
        (reverse("scoresheets:blank_pdf", kwargs={"pk": game.pk}),
         "thursday-rummy-club-2025-11-20-game-1-blank.pdf"),
        (reverse("scoresheets:session_pdf", kwargs={"pk": demo.pk}),
         "thursday-rummy-club-2025-11-20.pdf"),
    ):
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Type"] == "application/pdf"
        assert response.content.startswith(b"%PDF")
        assert f'inline; filename="{name}"' == response["Content-Disposition"]
    response = client.get(reverse("scoresheets:game_pdf", kwargs={"pk": game.pk}),
                          {"download": "1"})
    assert response["Content-Disposition"].startswith("attachment")
    assert "Bob pays Ann $2.02" in pdf_text(response.content)


def test_html_previews(client, demo, keeper):
    client.force_login(keeper)
    game = demo_game(demo, 1)
    response = client.get(reverse("scoresheets:game_html", kwargs={"pk": game.pk}))
    assert response.status_code == 200 and b"Bob pays Ann $2.02" in response.content
    response = client.get(reverse("scoresheets:session_html", kwargs={"pk": demo.pk}))
    assert response.status_code == 200 and b"Each player" in response.content


def test_other_accounts_get_404_and_anonymous_must_log_in(client, demo, django_user_model):
    game = demo_game(demo, 1)
    urls = [reverse("scoresheets:game_pdf", kwargs={"pk": game.pk}),
            reverse("scoresheets:blank_pdf", kwargs={"pk": game.pk}),
            reverse("scoresheets:session_pdf", kwargs={"pk": demo.pk})]
    for url in urls:
        assert client.get(url).status_code == 302
    client.force_login(django_user_model.objects.create_user("stranger", password="pw"))
    for url in urls:
        assert client.get(url).status_code == 404
    assert client.get(reverse("scoresheets:game_pdf", kwargs={"pk": 99999})).status_code == 404


def test_print_game_command_writes_the_sheet(demo, tmp_path):
    game = demo_game(demo, 2)
    out = tmp_path / "box.pdf"
    call_command("print_game", str(game.pk), "-o", str(out), stderr=io.StringIO())
    assert "Dev pays Carla $1.55" in pdf_text(out.read_bytes())
    blank = tmp_path / "blank.pdf"
    call_command("print_game", str(game.pk), "--blank", "--paper", "letter", "-o", str(blank),
                 stderr=io.StringIO())
    assert "Blank score sheet" in pdf_text(blank.read_bytes())
    with pytest.raises(CommandError):
        call_command("print_game", "99999", "-o", str(out))


def test_print_session_command_with_progress_bar(demo, tmp_path, capsys):
    out = tmp_path / "evening.pdf"
    call_command("print_session", str(demo.pk), "-o", str(out))
    err = capsys.readouterr().err
    assert "Scoring games [" in err and "5/5" in err
    assert f"Wrote {out}" in err
    assert "Finn Dev 3.56" in pdf_text(out.read_bytes())
