"""Presentation: turns a game's record and the core's result into what people read (rows,
words, money lines) and lists what the core offers (variants, presets, settings) for the
screens. Screens, CSV, printed sheets and share pages render from here; they never import
``ledger.rules`` themselves."""
