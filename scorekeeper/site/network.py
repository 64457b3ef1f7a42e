"""This machine's addresses on the Wi-Fi: what to print for the people at the table,
outside of any request."""

import os
import re
import socket


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, as phones on the Wi-Fi see it."""
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    # An AF_INET address is (host, port): the host is always text.
    addresses = [str(info[4][0]) for info in infos] + [_default_route_address()]
    for address in addresses:
        if address and not address.startswith("127.") and address not in found:
            found.append(address)
    return found


def _default_route_address() -> str:
    """The address the system would send from. Connecting a UDP socket only picks a
    route: no packet leaves the machine (192.0.2.1 is a documentation address)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            host: str = probe.getsockname()[0]
            return host
        except OSError:
            return ""


def base_urls(port: int = 8000) -> list[str]:
    """Where phones should point their browsers; OFCBOARD_BASE_URL wins when set."""
    configured = os.environ.get("OFCBOARD_BASE_URL", "").rstrip("/")
    if configured:
        return [configured]
    hosts = lan_addresses() or ["localhost"]
    return [f"http://{host}:{port}" for host in hosts]


LOOPBACK = {"localhost", "127.0.0.1"}
HOST_AND_PORT = re.compile(r"([A-Za-z0-9.-]+)(?::([0-9]{1,5}))?")


def table_base_url(requested_host: str, default_port: int = 8000) -> str:
    """The address to build links and QR codes from on the table's Wi-Fi, where any
    Host header is accepted: never the Host header itself unless it names this machine.

    OFCBOARD_BASE_URL wins when set. A phone that opened one of this machine's own
    addresses gets that address back (its port too: it reached us through it); any
    other host (``evil.example``) gets this machine's first address on the Wi-Fi.
    """
    configured = os.environ.get("OFCBOARD_BASE_URL", "").rstrip("/")
    if configured:
        return configured
    own = lan_addresses()
    match = HOST_AND_PORT.fullmatch(requested_host)
    host, port = (match[1].lower(), match[2]) if match else ("", None)
    if host in own:
        return f"http://{requested_host}"
    first = own[0] if own else "localhost"
    # A loopback address is this machine too, but not one a phone can open.
    return f"http://{first}:{port if host in LOOPBACK and port else default_port}"
