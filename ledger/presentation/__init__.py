"""Presentation: a game's record and the core's result turned into what people read (rows,
words, money lines), and what the core offers (variants, presets, settings) listed for the
screens. Screens, the CSV, printed sheets and share pages render from here; none of them
builds rows or words of its own, and they never import ``ledger.rules`` themselves. Plain
dataclasses out; money stays the core's decimal strings until ``money.format_money`` (the
one money formatter, behind the ``money``/``signed`` template filters) prints it.

    words.py    names joined one way, one sentence per kind of hand, roles, status lines
    rows.py     HandRow: one per hand, live or voided (a voided hand scored in its place)
    sheet.py    GameSheet: a game's layout (its variant's columns), rows, totals, money
    money.py    scores (the tiles), totals, Hollywood's games, CAP-IT's pot, money lines
                format_money: every printed amount (sign, minus, currency, decimal mark)
    columns.py  the sheet's columns (key, header, short, kind, cell) for screen, CSV, paper;
                the one totals vocabulary
    stakes.py   the one stake sentence ("0.01 USD per point")
    changes.py  a game's corrections in words (the settings screen)
    notices.py  what the game page and the queue say (undo, rematch, stale, refused)
    header.py   the stakes, the rules and who plays, in words (the printed sheet's top)
    session.py  SessionSummary: an evening's games, nets and payments
    catalog.py  the variants, presets and settings the core offers, for the forms;
                CAP-IT's contracts in words
    dates.py    every date and time people read, as CLDR writes it (Babel): an evening's
                name, the short and medium forms, a moment, a clock
    elision.py  gettext that fills a name in French with its elision ("Points d’Eve")
    cards.py    the card preview's verdict, in words
    queue.py    the words of the phone's queue of hands not sent yet (offline.js)
"""
