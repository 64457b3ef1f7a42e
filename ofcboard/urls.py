from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

urlpatterns = [
    path("", include("scorekeeper.urls")),
    # The scripts' few sentences, in the reader's language (locale/*/djangojs.po).
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["scorekeeper"]), name="javascript-catalog"),
]
