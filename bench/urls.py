"""The app's URLs plus a bare Django view: the reference the poll is measured against.
It answers 204 like an unchanged poll, through the same middleware, without a query."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse(status=204)


urlpatterns = [path("bench/bare/", bare), path("", include("ofcboard.urls"))]
