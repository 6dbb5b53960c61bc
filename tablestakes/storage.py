"""The production storage of static files: WhiteNoise's compressed manifest storage, which
also rewrites the imports between the app's ES modules (``static/ledger/offline.js`` and
``static/ledger/queue/``) to the hashed names it writes. Without it a module served as
``offline.<hash>.js`` imports ``./queue/store.js`` by its plain name: a second copy that
the service worker does not keep (SHELL lists hashed names), so the page would not load
its queue offline.

Django's own support (``support_js_module_import_aggregation``) applies to every ``*.js``
collected, the admin's and htmx's minified code too, where its patterns can match text that
is no import; here it applies to the app's modules only."""

from __future__ import annotations

from django.contrib.staticfiles.storage import ManifestStaticFilesStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage

#: The static files written as ES modules (their relative imports are rewritten).
MODULES = ("ledger/offline.js", "ledger/queue/*.js")

_IMPORTS = ManifestStaticFilesStorage._js_module_import_aggregation_patterns[1]


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    patterns = (*CompressedManifestStaticFilesStorage.patterns,
                *((pattern, _IMPORTS) for pattern in MODULES))
