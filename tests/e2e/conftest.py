"""Browser tests: Debian's Chromium driven by Playwright, at a phone's size."""

import os
import shutil

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

# Playwright's sync API keeps an event loop running in the test thread; the tests
# only touch the database between browser steps, never concurrently with it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Two phones' polls (every 2 s) may queue behind a busy CI machine: wait up to 10 s
# for what a person would see, rather than the default 5.
expect.set_options(timeout=10_000)

# Debian's headless shell of Chromium when it is installed (make test installs it):
# the same engine as the browser, at half its CPU; otherwise the browser itself.
CHROMIUM = (
    shutil.which("chromium-headless-shell") or shutil.which("chromium") or "/usr/bin/chromium"
)
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Without these Chromium keeps calling home, and this network refuses it.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser, live_server):
    """A factory of phones: each call is a separate browser context (its own cookies),
    made with ``options`` (a locale, downloads), and given to ``before`` (a log-in, a
    script) before its page opens."""
    contexts = []

    violations: list[str] = []

    def open_phone(before=None, **options):
        context = browser.new_context(viewport=PHONE, base_url=live_server.url, **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        if before is not None:
            before(context)
        page = context.new_page()
        page.on("console", lambda message: _note_violation(message.text, violations))
        return page

    yield open_phone
    for context in contexts:
        context.close()
    assert violations == [], "the Content-Security-Policy blocked something"


def _note_violation(text: str, violations: list[str]) -> None:
    if "Content Security Policy" in text:
        violations.append(text)


def log_in_context(context, user, url: str) -> None:
    """The browser context ``context`` logged in as ``user`` on the server at ``url``:
    a session made by Django's test client, its cookie handed to the browser. The
    login form itself is tested once (test_join_by_link.py); every other test starts
    logged in, without the form's two page loads and password check."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": url}])


@pytest.fixture
def log_in_phone(phone, live_server):
    """A phone logged in as `user` by its session cookie, on no page yet."""

    def open_as(user):
        page = phone()
        log_in_context(page.context, user, live_server.url)
        return page

    return open_as
