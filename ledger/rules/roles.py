"""The names of the roles a player holds in a hand and of the sides and seats of the table
games (RULES §3), written once for the scorers, the seats and the catalog to share.

A role's name is a result's word (``roles``, ``hand_roles``, a seat's ``role``), not a
variant's: "box" is the player in the box, "captain" a captain, whatever the game.
"""

from __future__ import annotations

#: The roles in the order a hand's players are listed, who plays first first: in the box
#: before his captain, a captain before his opponent.
ROLE_ORDER = ("box", "captain", "opponent", "player", "sits_out")
#: Each role by name.
BOX, CAPTAIN, OPPONENT, PLAYER, SITS_OUT = ROLE_ORDER
#: A player's role in a hand (the result's ``roles``), in words (in English: the
#: presentation says them in the reader's language).
ROLE_WORDS = {
    BOX: "in the box", CAPTAIN: "captain", SITS_OUT: "sits out",
    OPPONENT: "opponent", PLAYER: "plays",
}
assert set(ROLE_ORDER) == set(ROLE_WORDS)

#: Captain play's two sides, as its results and its setup name them.
CAPTAINS, OPPONENTS = "captains", "opponents"
#: Partnership's two sides, as its seats' roles name them (first side, second side).
FIRST_SIDE, SECOND_SIDE = "a", "b"
#: The setup's key for captain play's first sitter (a seat of its own, the black Ace).
SITTER = "sitter"
