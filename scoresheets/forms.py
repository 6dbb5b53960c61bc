"""The blank sheet printed from the evening's screen, in two steps: which game (variant and
number of players, from the core's catalog), then who sits where (the start form's seats:
seat order, first dealer, captains and opponents, the sides), with the preset and the ante.
The sheet itself is built by scoresheets.blank; what is legal is the core's to say."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ledger.cleaning import is_ascii_number
from ledger.forms import GameStartForm
from ledger.models import Session
from ledger.presentation.catalog import VARIANT_COUNTS, VARIANT_NAMES

#: The evening form's games: "captain-5" and the like, as the core's catalog lists them.
GAME_CHOICES = [(f"{variant}-{count}", f"{VARIANT_NAMES[variant]}, {count} players")
                for variant, counts in VARIANT_COUNTS.items() for count in counts]


def split_game(value: str) -> tuple[str, int] | None:
    """("captain", 5) for "captain-5"; None for anything the catalog does not list."""
    variant, _, count = (value or "").rpartition("-")
    if not is_ascii_number(count) or int(count) not in VARIANT_COUNTS.get(variant, ()):
        return None  # ('captain-²': '²' is a digit to str.isdigit(), not to int())
    return variant, int(count)


def table_names(session: Session) -> list[str]:
    """The players who can take a seat: the table's, archived ones left out, by name."""
    return list(session.table.players.filter(archived_at__isnull=True)
                .order_by("name").values_list("name", flat=True))


class BlankSeatsForm(GameStartForm):
    """The start form's seats (and its checks: one seat each, the first dealer among the
    players, two different side names) with the preset and the ante; no stakes or settings
    to fill in: the sheet prints the evening's stake and the preset's rules."""

    KEEP = ("preset", "ante", "first_dealer", "first_dealer_side", "side_a", "side_b")

    def __init__(self, *args, session: Session, variant: str, count: int, **kwargs):
        super().__init__(*args, variant=variant, count=count, player_names=table_names(session),
                         session_rate=None, session_per_points=session.per_points, **kwargs)
        seats = {name for name, _ in self.slots}
        for name in list(self.fields):
            if name not in seats and name not in self.KEEP:
                del self.fields[name]
        for name in seats:
            self.fields[name].error_messages["required"] = _("Choose who sits here.")
        if "first_dealer" in self.fields:
            self.fields["first_dealer"].error_messages["required"] = _("Choose who deals first.")
        if "ante" in self.fields:
            self.fields["ante"].required = False
            self.fields["ante"].help_text = _("Empty: written in by hand.")
        if "preset" in self.fields:
            self.fields["preset"].label = _("Rules")
            self.fields["preset"].required = False  # none chosen: the variant's own

    def seat_fields(self):
        return [self[name] for name, _ in self.slots]

    def slot_rows(self):
        return [(field, None) for field in self.seat_fields()]

    def rule_fields(self):
        return []
