from django.urls import path

from ledger.views.heavy import heavy

from . import views

app_name = "scoresheets"

urlpatterns = [
    path("games/<int:pk>.pdf", views.game_pdf, name="game_pdf"),
    path("games/<int:pk>/blank.pdf", views.blank_pdf, name="blank_pdf"),
    path("sessions/<int:pk>.pdf", views.session_pdf, name="session_pdf"),
    path("sessions/<int:pk>/blank/", views.session_blank, name="session_blank"),
    path("sessions/<int:pk>/blank.pdf", views.session_blank_pdf, name="session_blank_pdf"),
    path("games/<int:pk>.html", heavy(views.game_html), name="game_html"),
    path("sessions/<int:pk>.html", heavy(views.session_html), name="session_html"),
]
