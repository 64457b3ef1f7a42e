"""Over HTTPS ("running it for real") the app is installable: a manifest and a service
worker that registers, caches the static files and opens the night page offline.

The server is this test's own: the Django app behind Python's ssl, with a
self-signed certificate made for the test by the openssl command."""

import shutil
import ssl
import subprocess
import threading

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
from django.core.wsgi import get_wsgi_application
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from scorekeeper.models import User
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, log_in_context

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command"),
]


class HttpsRequestHandler(WSGIRequestHandler):
    def get_environ(self):
        # The socket speaks TLS; tell Django, so its CSRF origin check expects https.
        return {**super().get_environ(), "HTTPS": "on"}

    def log_message(self, *args):
        pass


@pytest.fixture
def https_url(tmp_path):
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    command = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    command += ["-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost"]
    command += ["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"]
    subprocess.run(
        command,
        check=True,
        capture_output=True,
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = ThreadedWSGIServer(("localhost", 0), HttpsRequestHandler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.set_app(get_wsgi_application())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"https://localhost:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def secure_phone(browser, https_url):
    """A phone that trusts the test's certificate. Its own Chromium: a context's
    ``ignore_https_errors`` does not cover fetching the service worker's script."""
    trusting = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--ignore-certificate-errors"]
    )
    context = trusting.new_context(viewport=PHONE, base_url=https_url, ignore_https_errors=True)
    context.set_default_timeout(10_000)
    yield context.new_page()
    trusting.close()


def test_over_https_the_worker_registers_and_the_night_page_opens_offline(
    make_night, secure_phone, https_url
):
    page = secure_phone
    night = make_night(("Anna", "Bram"))
    manifest = page.request.get("/manifest/en.webmanifest")
    assert manifest.ok and manifest.json()["icons"][0]["sizes"] == "192x192"
    assert page.request.get("/static/ofcboard/icon-512.png").ok
    worker = page.request.get("/service-worker.js")
    assert worker.ok and worker.headers["content-type"].startswith("application/javascript")

    log_in_context(page.context, User.objects.get(name="Anna"), https_url)
    page.goto(f"/nights/{night.pk}/")
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == page.url.split("/nights/")[0] + "/"
    # The screen stays on while the night runs, with a switch to turn it off.
    expect(page.get_by_label("Keep the screen on while the night runs")).to_be_checked()

    page.reload()  # now under the worker, which keeps this night page
    expect(page.locator("#id_points")).to_be_visible()
    page.context.set_offline(True)
    page.fill("#id_points", "12")
    page.locator("#entry-form").get_by_role("button", name="Save").click()
    expect(page.get_by_test_id("queued")).to_have_text("Waiting for the Wi-Fi: +12, round 1.")

    page.reload()  # no connection: the worker opens the kept page, showing what is queued
    expect(page.locator("#round-head")).to_contain_text("Round 1")
    expect(page.get_by_test_id("queued")).to_have_text("Waiting for the Wi-Fi: +12, round 1.")

    page.context.set_offline(False)
    expect(page.locator("#queued")).to_contain_text("Sent: +12, round 1.")
    assert User.objects.get(name="Anna").pk and night.rounds.get().entries.get().points == 12


# Every request this phone's caches keep, as "cache name url".
CACHED = """async () => {
  const kept = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) kept.push(name + " " + request.url);
  }
  return kept;
}"""


def night_pages(page) -> list[str]:
    return [entry for entry in page.evaluate(CACHED) if "/nights/" in entry]


def test_logging_out_sends_the_saves_first_and_leaves_no_page_of_the_account(
    make_night, secure_phone, https_url
):
    page = secure_phone
    night = make_night(("Anna", "Bram"))
    log_in_context(page.context, User.objects.get(name="Anna"), https_url)
    page.goto(f"/nights/{night.pk}/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # under the worker, which keeps this night page
    expect(page.locator("#id_points")).to_be_visible()
    assert night_pages(page), "the night page was kept for offline use"

    # A save that cannot go: logging out says so, and waits for the person.
    page.context.set_offline(True)
    page.fill("#id_points", "12")
    page.locator("#entry-form").get_by_role("button", name="Save").click()
    expect(page.get_by_test_id("queued")).to_have_text("Waiting for the Wi-Fi: +12, round 1.")
    page.get_by_role("button", name="Log out", exact=True).click()
    expect(page.get_by_test_id("logout-unsent")).to_contain_text("Not everything was sent")
    assert "/nights/" in page.url  # still logged in, on the night

    # Back online, logging out sends it first, then drops the kept page.
    page.context.set_offline(False)
    with page.expect_response(lambda response: "/logout/" in response.url) as answer:
        page.get_by_role("button", name="Log out", exact=True).click()
    assert answer.value.all_headers()["clear-site-data"] == '"cache"'
    page.wait_for_url("**/login/")
    assert night.rounds.get().entries.get().points == 12
    assert night_pages(page) == []
    page.context.set_offline(True)
    with pytest.raises(PlaywrightError):
        page.goto(f"/nights/{night.pk}/")  # no night page opens offline any more
