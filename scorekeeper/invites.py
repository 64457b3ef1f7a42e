"""Addresses to print for the people at the table, outside of any request."""

import os
import socket

from django.urls import reverse

from scorekeeper.models import Group


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, as phones on the Wi-Fi see it."""
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = info[4][0]
        if not address.startswith("127.") and address not in found:
            found.append(address)
    return found


def base_urls(port: int = 8000) -> list[str]:
    """Where phones should point their browsers; OFCBOARD_BASE_URL wins when set."""
    configured = os.environ.get("OFCBOARD_BASE_URL", "").rstrip("/")
    if configured:
        return [configured]
    hosts = lan_addresses() or ["localhost"]
    return [f"http://{host}:{port}" for host in hosts]


def invitation_link(group: Group, base_url: str) -> str:
    return base_url.rstrip("/") + reverse("join", args=[group.invite_token])
