from django.urls import include, path
from django.views.decorators.cache import cache_control
from django.views.i18n import JavaScriptCatalog

# The scripts' few sentences, in the reader's language (locale/*/djangojs.po). Pages ask
# for it with their language in the address, so a phone keeps one copy per language.
catalogue = cache_control(max_age=3600)(JavaScriptCatalog.as_view(packages=["scorekeeper"]))

urlpatterns = [
    path("", include("scorekeeper.urls")),
    path("jsi18n/", catalogue, name="javascript-catalog"),
]
