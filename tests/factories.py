"""Small factories for the tests: the game most tests need, started through the services."""

from __future__ import annotations

import uuid

from ledger import services

#: A knock by Ann, 5 against Bob's 17: Ann +12.
ANN_KNOCKS = {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 17}}


def gin_game(session, by, *, first_dealer: str = "Bob", players=("Ann", "Bob"), hands=(),
             **options):
    """Two-player gin, Ann v Bob, in ``session``, started by ``by`` (Bob deals first unless
    told), with ``hands`` recorded in order; ``options`` go to ``services.game_start``
    (preset, rules, rate...)."""
    game = services.game_start(session=session, variant="gin", players=list(players),
                               started_by=by, setup={"first_dealer": first_dealer}, **options)
    for entry in hands:
        services.hand_record(game=game, entry=entry, recorded_by=by,
                             idempotency_key=uuid.uuid4())
    return game
