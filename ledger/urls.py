"""URLs of the scorekeeper's screens (namespace ``ledger``) and the shared sheets."""

from django.urls import path

from .views import (
    abandon,
    book,
    cards,
    confirm_hand,
    corrections,
    game_downloads,
    game_page,
    game_settings,
    hand_entry,
    live,
    pwa,
    queue,
    rematch,
    report,
    sessions,
    share_admin,
    shared,
    start,
    table_download,
    table_locale,
    tables,
    targets,
    undo,
)
from .views.heavy import heavy

app_name = "ledger"

# ``heavy(...)``: pages and downloads that hold a worker for long run in one of the
# account's slots (TABLESTAKES_HEAVY_PER_ACCOUNT, ledger/views/heavy.py); the PDFs have
# their own (TABLESTAKES_PDF_RENDERS_PER_ACCOUNT).

urlpatterns = [
    path("", tables.home, name="home"),
    path("tables/<int:pk>/", tables.table_detail, name="table_detail"),
    path("tables/<int:pk>/locale/", table_locale.table_locale, name="table_locale"),
    path("tables/<int:pk>/share/", share_admin.share_create, name="share_create"),
    path("share/<int:pk>/revoke/", share_admin.share_revoke, name="share_revoke"),
    path("tables/<int:pk>/book/", heavy(book.table_book), name="table_book"),
    path("tables/<int:pk>/book/settle/", book.book_settle, name="book_settle"),
    path("tables/<int:pk>/book/settle/<int:settlement>/undo/", book.book_settle_undo,
         name="book_settle_undo"),
    path("tables/<int:pk>/standings/", heavy(book.table_standings), name="table_standings"),
    path("tables/<int:pk>/tidy/", heavy(book.table_tidy), name="table_tidy"),
    path("tables/<int:pk>/export.json", heavy(table_download.table_download),
         name="table_download"),
    path("players/<int:pk>/", heavy(book.player_detail), name="player_detail"),
    path("sessions/<int:pk>/reopen/", book.session_reopen, name="session_reopen"),
    path("sessions/<int:pk>/", heavy(sessions.session_detail), name="session_detail"),
    path("sessions/<int:pk>/settle/", sessions.session_settle, name="session_settle"),
    path("payments/<int:pk>/paid/", sessions.payment_mark, name="payment_mark"),
    path("sessions/<int:pk>/games/new/", start.game_new, name="game_new"),
    path("sessions/<int:pk>/games/new/<str:variant>/<int:count>/", start.game_start,
         name="game_start"),
    path("games/<int:pk>/", heavy(game_page.game_detail), name="game_detail"),
    path("games/<int:pk>/hands/", hand_entry.hand_create, name="hand_create"),
    path("games/<int:pk>/hands/preview/", hand_entry.hand_preview, name="hand_preview"),
    path("games/<int:pk>/hands/send/", queue.hand_send, name="hand_send"),
    path("games/<int:pk>/hands/undo/", undo.hand_undo, name="hand_undo"),
    path("games/<int:pk>/target/", targets.target_change, name="target_change"),
    path("games/<int:pk>/hands/<int:number>/fix/", corrections.hand_correct, name="hand_correct"),
    path("games/<int:pk>/settings/", game_settings.game_settings, name="game_settings"),
    path("games/<int:pk>/abandon/", abandon.game_abandon, name="game_abandon"),
    path("games/<int:pk>/delete/", abandon.game_delete, name="game_delete"),
    path("games/<int:pk>/again/", rematch.game_rematch, name="game_rematch"),
    path("games/<int:pk>/hands.csv", heavy(game_downloads.game_export), name="game_export"),
    path("cards/preview/", cards.cards_preview, name="cards_preview"),
    path("s/<str:token>/", shared.shared, name="shared"),
    path("s/<str:token>/games/<int:game_pk>/", shared.shared_game, name="shared_game"),
    # the live part of the share pages, polled (304 while nothing changed)
    path("s/<str:token>/live/", live.shared_live, name="shared_live"),
    path("s/<str:token>/games/<int:game_pk>/live/", live.shared_game_live,
         name="shared_game_live"),
    # report links (issue 23): a table's phone reports its part of the current hand
    path("r/<str:token>/", report.report_page, name="report_page"),
    path("r/<str:token>/withdraw/", report.report_withdraw, name="report_withdraw"),
    path("r/<str:token>/live/", report.report_live, name="report_live"),
    path("games/<int:pk>/reports/", report.game_reports, name="game_reports"),
    path("games/<int:pk>/reports/links/", report.report_links_create,
         name="report_links_create"),
    path("games/<int:pk>/reports/revoke/", report.report_links_revoke,
         name="report_links_revoke"),
    # a two-hand game's confirm link (issue 23, optional): the other player confirms
    path("c/<str:token>/", confirm_hand.confirm_page, name="confirm_page"),
    path("games/<int:pk>/reports/confirm/", confirm_hand.confirm_link_create,
         name="confirm_link_create"),
    # the installable app: at the site root, so that the worker looks after every page
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("offline/", pwa.offline, name="offline"),
]
