"""The installable app's manifest in the page's language: its name and description are
what a phone shows when the app is added to the home screen."""

import json
import re

import pytest
from django.test import Client

from scorekeeper.views.offline import OFFLINE_FILES

DESCRIPTIONS = {
    "en": "Scores for a night of Open Face Chinese poker.",
    "nl": "De scores van een avond Open Face Chinese poker.",
    "zh-hans": "记录一场开放式中国扑克（OFC）的得分。",
    "de": "Punktestand für einen Abend Open Face Chinese Poker.",
}


@pytest.mark.parametrize("language", sorted(DESCRIPTIONS))
def test_every_page_links_the_manifest_of_its_language(db, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = client.get("/login/").content.decode()
    link = re.search(r'<link rel="manifest" href="([^"]+)"', page)[1]
    assert link == f"/manifest/{language}.webmanifest"
    response = client.get(link)
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["description"] == DESCRIPTIONS[language]
    assert (manifest["lang"], manifest["name"], manifest["start_url"]) == (
        language,
        "OFC Board",
        "/",
    )
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon["src"]


def test_a_language_the_app_does_not_speak_has_no_manifest(db):
    assert Client().get("/manifest/fr.webmanifest").status_code == 404


def test_the_manifest_is_no_static_file_left_in_english():
    assert not any("manifest" in name for name in OFFLINE_FILES)
