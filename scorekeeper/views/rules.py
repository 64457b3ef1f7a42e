"""The rules the app counts by, in plain words, with the tables read from the engine."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scorekeeper.reads.rules import rules_tables


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "scorekeeper/rules.html", rules_tables())
