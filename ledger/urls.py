"""URLs of the scorekeeper's screens (namespace ``ledger``) and the shared sheets."""

from django.urls import path

from .views import (
    book,
    cards,
    game_settings,
    games,
    live,
    pwa,
    queue,
    sessions,
    share_admin,
    shared,
    start,
    table_download,
    table_locale,
    tables,
)

app_name = "ledger"

urlpatterns = [
    path("", tables.home, name="home"),
    path("tables/<int:pk>/", tables.table_detail, name="table_detail"),
    path("tables/<int:pk>/locale/", table_locale.table_locale, name="table_locale"),
    path("tables/<int:pk>/share/", share_admin.share_create, name="share_create"),
    path("share/<int:pk>/revoke/", share_admin.share_revoke, name="share_revoke"),
    path("tables/<int:pk>/book/", book.table_book, name="table_book"),
    path("tables/<int:pk>/book/settle/", book.book_settle, name="book_settle"),
    path("tables/<int:pk>/book/settle/<int:settlement>/undo/", book.book_settle_undo,
         name="book_settle_undo"),
    path("tables/<int:pk>/standings/", book.table_standings, name="table_standings"),
    path("tables/<int:pk>/tidy/", book.table_tidy, name="table_tidy"),
    path("tables/<int:pk>/export.json", table_download.table_download,
         name="table_download"),
    path("players/<int:pk>/", book.player_detail, name="player_detail"),
    path("sessions/<int:pk>/reopen/", book.session_reopen, name="session_reopen"),
    path("sessions/<int:pk>/", sessions.session_detail, name="session_detail"),
    path("sessions/<int:pk>/settle/", sessions.session_settle, name="session_settle"),
    path("payments/<int:pk>/paid/", sessions.payment_mark, name="payment_mark"),
    path("sessions/<int:pk>/games/new/", start.game_new, name="game_new"),
    path("sessions/<int:pk>/games/new/<str:variant>/<int:count>/", start.game_start,
         name="game_start"),
    path("games/<int:pk>/", games.game_detail, name="game_detail"),
    path("games/<int:pk>/hands/", games.hand_create, name="hand_create"),
    path("games/<int:pk>/hands/preview/", games.hand_preview, name="hand_preview"),
    path("games/<int:pk>/hands/send/", queue.hand_send, name="hand_send"),
    path("games/<int:pk>/hands/undo/", games.hand_undo, name="hand_undo"),
    path("games/<int:pk>/hands/<int:number>/fix/", games.hand_correct, name="hand_correct"),
    path("games/<int:pk>/settings/", game_settings.game_settings, name="game_settings"),
    path("games/<int:pk>/abandon/", games.game_abandon, name="game_abandon"),
    path("games/<int:pk>/again/", games.game_rematch, name="game_rematch"),
    path("games/<int:pk>/hands.csv", games.game_export, name="game_export"),
    path("cards/preview/", cards.cards_preview, name="cards_preview"),
    path("s/<str:token>/", shared.shared, name="shared"),
    path("s/<str:token>/games/<int:game_pk>/", shared.shared_game, name="shared_game"),
    # the live part of the share pages, polled (304 while nothing changed)
    path("s/<str:token>/live/", live.shared_live, name="shared_live"),
    path("s/<str:token>/games/<int:game_pk>/live/", live.shared_game_live,
         name="shared_game_live"),
    # the installable app: at the site root, so that the worker looks after every page
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("offline/", pwa.offline, name="offline"),
]
