"""URLs of the scorekeeper's screens (namespace ``ledger``) and the shared sheets."""

from django.urls import path

from . import views, views_cards, views_game, views_settings

app_name = "ledger"

urlpatterns = [
    path("", views.home, name="home"),
    path("tables/<int:pk>/", views.table_detail, name="table_detail"),
    path("tables/<int:pk>/share/", views.share_create, name="share_create"),
    path("share/<int:pk>/revoke/", views.share_revoke, name="share_revoke"),
    path("sessions/<int:pk>/", views.session_detail, name="session_detail"),
    path("sessions/<int:pk>/settle/", views.session_settle, name="session_settle"),
    path("payments/<int:pk>/paid/", views.payment_mark, name="payment_mark"),
    path("sessions/<int:pk>/games/new/", views_game.game_new, name="game_new"),
    path("sessions/<int:pk>/games/new/<str:variant>/<int:count>/", views_game.game_start,
         name="game_start"),
    path("games/<int:pk>/", views_game.game_detail, name="game_detail"),
    path("games/<int:pk>/hands/", views_game.hand_create, name="hand_create"),
    path("games/<int:pk>/hands/undo/", views_game.hand_undo, name="hand_undo"),
    path("games/<int:pk>/hands/<int:number>/fix/", views_game.hand_correct,
         name="hand_correct"),
    path("games/<int:pk>/settings/", views_settings.game_settings, name="game_settings"),
    path("games/<int:pk>/abandon/", views_game.game_abandon, name="game_abandon"),
    path("games/<int:pk>/hands.csv", views_game.game_export, name="game_export"),
    path("cards/preview/", views_cards.cards_preview, name="cards_preview"),
    path("s/<str:token>/", views_game.shared, name="shared"),
    path("s/<str:token>/games/<int:game_pk>/", views_game.shared_game, name="shared_game"),
]
