"""What the game page hands to its queue script (static/ledger/offline.js, queue/), so that
the script copies no word, field name or sentinel of the server's: the form's own
description (ledger/forms/queue.py, ``#hand-form-fields``), the queue's words
(ledger/presentation/queue.py, ``#offline-queue-words``), the list's <template>s; and a
refused hand sent back as the server read it, each count at its player (the seat swap is
the server's only)."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils.html import escape

from ledger import services
from ledger.forms.fields import DRAW, NOBODY
from ledger.forms.hands import NO_TIE
from ledger.presentation.queue import QUEUE_WORDS

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def json_block(page: str, element_id: str):
    match = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>',
                      page, re.S)
    assert match, element_id
    return json.loads(match.group(1))


@pytest.fixture
def client_in(client, keeper):
    client.force_login(keeper)
    return client


def box_game(session, keeper):
    return services.game_start(session=session, variant="box", players=["P", "Q", "R"],
                               started_by=keeper, preset="simple")


def test_the_page_hands_over_the_forms_names_words_and_the_draw(client_in, session, keeper):
    game = services.game_start(session=session, variant="captain",
                               players=["R1", "R2", "B1", "B2", "B3"], started_by=keeper,
                               preset="standard",
                               setup={"captains": ["R1", "R2"], "opponents": ["B1", "B2"],
                                      "sitter": "B3"})
    page = client_in.get(f"/games/{game.pk}/").content.decode()
    schema = json_block(page, "hand-form-fields")
    assert schema["number"] == "number" and schema["key"] == "key"
    # the required choices with the form's own words (one per table)
    assert schema["required"] == {"t1_knocker": "Who knocked? Tap a name, or Draw.",
                                  "t2_knocker": "Who knocked? Tap a name, or Draw."}
    assert [t["players"] for t in schema["tables"]] == [["R1", "B1"], ["R2", "B2"]]
    second = schema["tables"][1]
    assert second == {
        "knocker": "t2_knocker", "kind": "t2_kind", "draw": DRAW, "players": ["R2", "B2"],
        "seats": [["t2_c0", "t2_cards0"], ["t2_c1", "t2_cards1"]],
        "labels": {"t2_c0": "{name}'s count", "t2_cards0": "{name}'s cards",
                   "t2_c1": "{name}'s count", "t2_cards1": "{name}'s cards"},
        "picked": ["t2_p0", "t2_p1"]}
    # each field named there is in the form, each label is the one drawn for its player
    for table in schema["tables"]:
        for seat, names in enumerate(table["seats"]):
            for name in names:
                assert f'name="{name}"' in page
                label = table["labels"][name].replace("{name}", table["players"][seat])
                assert re.search(rf'<label[^>]*for="id_{name}"[^>]*>{re.escape(escape(label))}<',
                                 page), label
        assert f'name="{table["knocker"]}" value="{DRAW}"' in page
    # the legend names each player in a place of its own, for the script to rename
    # (several tables: each row's legend, issue 21)
    assert re.search(r'<legend[^>]*>(?:(?!</legend>).)*Table 2(?:(?!</legend>).)*'
                     r'data-seat="0">R2<(?:(?!</legend>).)*data-seat="1">B2<', page, re.S)
    assert json_block(page, "offline-queue-words") == QUEUE_WORDS


def test_a_capit_form_hands_over_who_went_out(client_in, session, keeper):
    game = services.game_start(session=session, variant="cap-it", players=["A", "B", "C", "D"],
                               setup={"first_dealer": "A"},
                               started_by=keeper, preset="standard")
    page = client_in.get(f"/games/{game.pk}/").content.decode()
    schema = json_block(page, "hand-form-fields")
    assert schema["required"] == {"went_out": "Who went out? Tap a name, or Nobody."}
    assert schema["tables"] == []


def test_the_lists_templates_and_the_module_are_on_the_page(client_in, session, keeper):
    game = box_game(session, keeper)
    page = client_in.get(f"/games/{game.pk}/").content.decode()
    assert '<script type="module" src="/static/ledger/offline.js"></script>' in page
    item = re.search(r'<template id="offline-queue-item">(.*?)</template>', page, re.S).group(1)
    assert re.findall(r'data-queue-action="(\w+)"', item) == [
        "renumber", "send", "reload", "discard"]
    picker = re.search(r'<template id="offline-who-played">(.*?)</template>', page,
                       re.S).group(1)
    assert picker.count('<option value="Q">Q</option>') == 2
    assert "Roles are checked when the hands are sent" in picker


def test_the_script_holds_no_copy_of_the_servers_words_or_names():
    # every module of the queue, the phone's offline scoring (queue/scoring.js) too: it makes
    # a record's hand and places a refusal from the form's own description (forms/queue.py
    # hand_making), not from a second writing of forms/hands.py
    sources = [ROOT / "static/ledger/offline.js",
               *(ROOT / "static/ledger/queue").glob("*.js")]
    assert len(sources) == 10  # offline.js and the queue's nine modules that take the page's
    # the code, without its comments (which may quote the page)
    code = "\n".join(re.sub(r"^\s*//.*$|\s//\s.*$", "", p.read_text(), flags=re.M)
                     for p in sources)
    assert "createSender" in code and "The hands" not in code
    for copy in (DRAW, "Who knocked", "Who went out", "_knocker", "_kind", "_p0", "_c0",
                 "cards0", "'s count", "Not sent yet", "Discard hand", "not sent yet",
                 "Sending stopped", "Without the", "No connection", "Who played",
                 # the hand form's other fields and sentinels (forms/hands.py, fields.py)
                 NOBODY, NO_TIE, '"up_rank"', '"up_suit"', '"kc_rank"', '"kc_suit"',
                 '"cut_loser"', '"went_out"', "pts_", '"big_gin"', '"knock"',
                 # words the page hands over (presentation/phone.py)
                 "Game over", "Sits out", '"deals"', "in the box", "Money", " pays "):
        assert copy not in code, copy


def test_a_refused_hand_comes_back_seated_as_the_server_read_it(client_in, session, keeper):
    game = box_game(session, keeper)
    services.hand_record(game=game, entry={"knocker": "P", "deadwood": {"P": 3, "Q": 18}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4(), number=1)
    url = reverse("ledger:hand_send", args=[game.pk])
    # hand 2 is P (in the box) v R; the phone picked R v P and R knocked with 15 (> 10)
    answer = client_in.post(url, {
        "key": str(uuid.uuid4()), "number": "2", "t1_p0": "R", "t1_p1": "P",
        "t1_knocker": "R", "t1_kind": "knock", "t1_c0": "15", "t1_c1": "20",
        "t1_cards0": "", "t1_cards1": ""}).json()
    assert answer["status"] == "refused"
    fields = dict(answer["fields"])
    assert (fields["t1_c0"], fields["t1_c1"]) == ("20", "15")  # P's at P's place
    assert "t1_p0" not in fields and "csrfmiddlewaretoken" not in fields
    assert list(answer["errors"]) == ["t1_c1"]
    # picked wrong (Q does not play): R's count goes to R, Q's is left out
    answer = client_in.post(url, {
        "key": str(uuid.uuid4()), "number": "2", "t1_p0": "Q", "t1_p1": "R",
        "t1_knocker": "Q", "t1_kind": "knock", "t1_c0": "4", "t1_c1": "9"}).json()
    fields = dict(answer["fields"])
    assert (fields["t1_c0"], fields["t1_c1"]) == ("", "9")
    assert list(answer["errors"]) == ["t1_knocker"]


def test_the_form_says_how_the_phone_makes_a_hand_and_places_a_problem(client_in, session,
                                                                      keeper):
    # issue 41: what queue/scoring.js needs of the form, as data (forms/queue.py hand_making)
    oklahoma = services.game_start(session=session, variant="oklahoma", players=["A", "B"],
                                   started_by=keeper, setup={"first_dealer": "A"})
    schema = json_block(client_in.get(f"/games/{oklahoma.pk}/").content.decode(),
                        "hand-form-fields")
    assert schema["plain"] == "knock"
    assert schema["kinds"]["gin"] == {"flag": "gin", "with_count": True}
    assert schema["upcard"] == {"rank": "up_rank", "suit": "up_suit"}
    assert schema["cut"] is None and schema["round"] is None
    # (where: a key of the problem's table, a seat's field (0 the count, 1 the cards), or a
    # field of the hand by name)
    assert schema["places"] == {"knocker": {"table": "knocker"}, "deadwood": {"seat": 0},
                                "cards": {"seat": 1}, "upcard": {"field": "up_rank"}}
    capit = services.game_start(session=session, variant="cap-it", players=["A", "B", "C", "D"],
                                started_by=keeper, setup={"first_dealer": "A"}, ante="1.00")
    schema = json_block(client_in.get(f"/games/{capit.pk}/").content.decode(),
                        "hand-form-fields")
    assert schema["round"] == {"went_out": "went_out", "nobody": NOBODY,
                               "points": ["pts_0", "pts_1", "pts_2", "pts_3"]}
    assert schema["places"] == {"went_out": {"field": "went_out"}, "points": {"round": True},
                                "cards": {"round": True}}
    captain = services.game_start(session=session, variant="captain",
                                  players=["R1", "R2", "B1", "B2", "B3"], started_by=keeper,
                                  preset="standard",
                                  setup={"captains": ["R1", "R2"], "opponents": ["B1", "B2"],
                                         "sitter": "B3"})
    schema = json_block(client_in.get(f"/games/{captain.pk}/").content.decode(),
                        "hand-form-fields")
    assert schema["cut"] == {"field": "cut_loser", "no_tie": NO_TIE}
    assert schema["places"]["cut_loser"] == {"field": "cut_loser"}
