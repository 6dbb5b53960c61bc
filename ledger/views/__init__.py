"""The scorekeeper's screens, one module per concern; ``ledger.urls`` maps them."""
