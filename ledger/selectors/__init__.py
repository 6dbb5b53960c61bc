"""Reads of the ledger, by topic. Services push, selectors pull; none of these write, and
none says anything in words (``ledger/presentation/`` does).

    games.py     a game's record as the core reads it (``game_record``), its result, its
                 seats, stakes and posted money
    names.py     a game's names as played and as they are now (a renamed player)
    hands.py     a game's hands: the history, a hand previewed, a hand found by its key
    evenings.py  an evening's games, players and nets, its settlement, the next evening
    exports.py   the export of an evening (``export_session``) and the JSON text of any
    sharing.py   what a share page polls to learn that something changed
    table_reports.py  the reports the card tables send from their phones (a report link,
                 the reports of a hand, their version for the scorekeeper's poll)

Import from the topic module (``from ledger.selectors import games``); this package
re-exports nothing. The central read is ``games.game_record``: it rebuilds the JSON game
record (docs/game-record.md) from the stored rows, and every score shown anywhere is
``games.score`` of that record. Selectors that work on a whole evening prefetch, so their
number of queries does not grow with the number of hands or games.
"""
