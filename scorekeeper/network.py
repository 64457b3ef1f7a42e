"""This machine's addresses on the Wi-Fi: what to print for the people at the table,
outside of any request."""

import os
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
