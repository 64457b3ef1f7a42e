"""Pages with a member's data are never kept by a browser or a proxy; links and QR
codes on the table's Wi-Fi never point where the Host header says."""

import pytest
from django.urls import reverse

from scorekeeper.site import network


def test_private_pages_say_private_no_store(login, make_group):
    group = make_group(members=("Anna",))
    client = login("Anna")
    for url in (reverse("group_detail", args=[group.pk]), reverse("home") + "?stay=1"):
        cache_control = client.get(url).headers["Cache-Control"]
        assert "private" in cache_control and "no-store" in cache_control
    assert "no-store" in client.get(reverse("login")).headers["Cache-Control"]


def test_static_files_keep_their_own_caching(client, db):
    response = client.get("/static/ofcboard/app.css")
    assert response.status_code == 200
    assert "no-store" not in response.headers.get("Cache-Control", "")


@pytest.fixture
def table_wifi(settings, monkeypatch):
    """The server as `make run` starts it: any Host accepted, this machine at 192.0.2.5."""
    settings.ALLOWED_HOSTS = ["*"]
    monkeypatch.delenv("OFCBOARD_BASE_URL", raising=False)
    monkeypatch.setattr(network, "lan_addresses", lambda: ["192.0.2.5"])


def test_in_table_mode_the_invitation_ignores_a_foreign_host(login, make_group, table_wifi):
    group = make_group(members=("Anna",))
    page = login("Anna").get(reverse("group_detail", args=[group.pk]), HTTP_HOST="evil.example")
    body = page.content.decode()
    assert "evil.example" not in body
    assert f"http://192.0.2.5:8000/join/{group.invite_token}/" in body


def test_in_table_mode_the_machines_own_address_is_kept(login, make_group, table_wifi):
    group = make_group(members=("Anna",))
    page = login("Anna").get(reverse("group_detail", args=[group.pk]), HTTP_HOST="192.0.2.5:8123")
    assert f"http://192.0.2.5:8123/join/{group.invite_token}/" in page.content.decode()


def test_a_configured_base_address_wins(login, make_group, table_wifi, monkeypatch):
    monkeypatch.setenv("OFCBOARD_BASE_URL", "https://ofc.example.org/")
    group = make_group(members=("Anna",))
    page = login("Anna").get(reverse("group_detail", args=[group.pk]), HTTP_HOST="evil.example")
    assert f"https://ofc.example.org/join/{group.invite_token}/" in page.content.decode()


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("evil.example", "http://192.0.2.5:8000"),
        ("evil.example:8000", "http://192.0.2.5:8000"),
        ("192.0.2.5:9000", "http://192.0.2.5:9000"),
        ("localhost:9000", "http://192.0.2.5:9000"),
        ("", "http://192.0.2.5:8000"),
        ("a b\r\nc", "http://192.0.2.5:8000"),
    ],
)
def test_table_base_url(monkeypatch, host, expected):
    monkeypatch.delenv("OFCBOARD_BASE_URL", raising=False)
    monkeypatch.setattr(network, "lan_addresses", lambda: ["192.0.2.5"])
    assert network.table_base_url(host, 8000) == expected
