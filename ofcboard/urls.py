from django.urls import include, path

urlpatterns = [
    path("", include("scorekeeper.urls")),
]

# A database that cannot answer now is a 503 in words, not a 500 (views/errors.py).
handler500 = "scorekeeper.views.errors.server_error"
