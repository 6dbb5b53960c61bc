"""Forms of the scorekeeper's screens, one module per screen.

The forms only collect what the scorekeeper typed and turn it into the objects of the game
record (docs/game-record.md); every check of the rules is the scoring core's. When the
core refuses a hand, ``HandForm.add_problems`` puts each of its problems
(``RecordRefused.details``: where, a code, the words) at the field its where names, keeping
what was typed; no form reads the words to find the place.
"""

from .fields import ReasonForm
from .game_settings import GameSettingsForm
from .hands import HandForm, initial_from_entry, new_hand_initial, next_hand_form
from .start import (
    SETTING_LABELS,
    VARIANT_COUNTS,
    VARIANT_SETTINGS,
    GameStartForm,
    needs_first_dealer,
    slots_for,
)
from .tables import PlayerForm, SessionForm, TableForm
from .targets import TargetForm, new_target_form

__all__ = [
    "SETTING_LABELS", "VARIANT_COUNTS", "VARIANT_SETTINGS",
    "GameSettingsForm", "GameStartForm", "HandForm", "PlayerForm", "ReasonForm",
    "SessionForm", "TableForm", "initial_from_entry", "needs_first_dealer",
    "new_hand_initial", "next_hand_form", "slots_for", "TargetForm", "new_target_form",
]
