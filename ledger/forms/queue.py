"""What the phone's queue (static/ledger/offline.js and static/ledger/queue/) must know of
the hand form, handed to the page with the form (``_entry.html``, as JSON): the names of the
form's fields, the words of its required choices, the value of a drawn table, and the
labels that name a table's players, so that the script copies none of them.

A hand typed offline where who plays depends on the hands not sent yet carries who the
scorekeeper picked at each table: ``picked_names(i)``, read back by ``views/queue.py``."""

from __future__ import annotations

from ledger.presentation.catalog import BIG_GIN, GIN, KNOCK, PLAY_PLACES, ROUND_PLACES, Place

from .fields import DRAW, NOBODY, SegmentedRadio
from .hands import NO_TIE


def picked_names(i: int) -> list[str]:
    """The fields that say who played table ``i`` (from 1) of a hand typed offline: the
    script adds them to the form, the queue's view reads them."""
    return [f"t{i}_p0", f"t{i}_p1"]


def _as_template(label: str, name: str) -> str:
    """``"Ann's count"`` for Ann -> ``"{name}'s count"``: the label with the player's name
    as a place to fill, wherever the language puts it ("Punkte von {name}")."""
    label = str(label)
    return label.replace(name, "{name}", 1) if name in label else label


def queue_fields(form) -> dict:
    """The hand form described for the script: ``number`` and ``key`` (its hidden fields),
    ``required`` (each choice that must be tapped, with the form's own words for it), and
    ``tables``: for each table of a hand, its knocker and kind fields, the value that means
    a draw, its players and, by seat, the fields of each player (``seats``) with their
    labels as templates (``labels``), and the fields that say who played (``picked``)."""
    required = {name: str(field.error_messages["required"])
                for name, field in form.fields.items()
                if field.required and isinstance(field.widget, SegmentedRadio)}
    tables = []
    for i, duel in enumerate(form.spec.get("duels") or [], start=1):
        players = list(duel["players"])
        seats = [[f"t{i}_c{c}", f"t{i}_cards{c}"] for c in (0, 1)]
        labels = {name: _as_template(form.fields[name].label, players[c])
                  for c, names in enumerate(seats) for name in names}
        tables.append({"knocker": f"t{i}_knocker", "kind": f"t{i}_kind", "draw": DRAW,
                       "players": players, "seats": seats, "labels": labels,
                       "picked": picked_names(i)})
    return {"number": form["number"].html_name, "key": form["key"].html_name,
            "required": required, "tables": tables,
            # how the form makes the record's hand (forms/hands.py entry): by its tables, or
            # as a CAP-IT round; whether the deal may carry a knock card
            "by_tables": bool(form.spec.get("tables")), "rounds": bool(form.spec.get("rounds")),
            "knock_card": bool(form.spec.get("knock_card")),
            **hand_making(form)}


def _name(form, name: str) -> str | None:
    return form[name].html_name if name in form.fields else None


#: where the phone finds the field of a place at a card table or in a round (the rest are
#: fields of the whole hand, by name): a key of the table (``tables[i]``), a player's seat
#: field (``seats[position][seat]``: the count, the cards), a player's points in the round
_AT = {Place.KNOCKER: {"table": "knocker"}, Place.COUNT: {"seat": 0},
       Place.CARDS: {"seat": 1}, Place.POINTS: {"round": True}}


def hand_making(form) -> dict:
    """How the phone makes the record's hand from the form's fields, as ``entry`` does
    (forms/hands.py), and where a problem of the core goes (``_place``), as data: the kind
    that is a plain knock (``plain``) and the record's flag of each other kind (``with_count``: the
    flag only when the knocker's count was typed: a gin with deadwood, for the core to
    refuse); the up-card's, knock card's and cut's fields (None where the form has none)
    and the cut's "no tie"; CAP-IT's went-out field, its "nobody" and each player's points
    field; and ``places``: each record field a problem names -> where its field is (``_AT``: a key
    of the table, a seat's field, the player's points in a round; or ``{"field": name}``)."""
    rounds = bool(form.spec.get("rounds"))
    players = form.spec.get("players") or []
    up = {"rank": _name(form, "up_rank"), "suit": _name(form, "up_suit")}
    knock_card = {"rank": _name(form, "kc_rank"), "suit": _name(form, "kc_suit")}
    cut = _name(form, "cut_loser")
    # the places of the whole hand are this form's fields (by name; None where it has none)
    fields = {Place.UPCARD: up["rank"], Place.CUT_LOSER: cut,
              Place.KNOCK_CARD: knock_card["rank"], Place.WENT_OUT: _name(form, "went_out")}
    places = {}
    for field, place in (ROUND_PLACES if rounds else PLAY_PLACES).items():
        where = _AT.get(place) or ({"field": fields[place]} if fields.get(place) else None)
        if where:
            places[field] = where
    return {
        "plain": KNOCK,
        "kinds": {GIN: {"flag": GIN, "with_count": True},
                  BIG_GIN: {"flag": BIG_GIN, "with_count": False}},
        "upcard": up if up["rank"] else None,
        "knock_card_fields": knock_card if knock_card["rank"] else None,
        "cut": {"field": cut, "no_tie": NO_TIE} if cut else None,
        "round": ({"went_out": _name(form, "went_out"), "nobody": NOBODY,
                   "points": [_name(form, f"pts_{j}") for j in range(len(players))]}
                  if rounds else None),
        "places": places,
    }
