"""Phones in WebKit, Safari's engine: Debian's WebKitWebDriver driving its MiniBrowser
through Selenium, each in a window under Xvfb, logged in by a session cookie. Where
either is missing the test that asks for them is skipped (make test installs both)."""

import contextlib
import glob
import os
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.test import Client

from scorekeeper.models import Night
from tests.e2e.conftest import PHONE


def _minibrowser() -> str | None:
    found = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"))
    return found[-1] if found else None


def available() -> bool:
    return bool(shutil.which("WebKitWebDriver") and shutil.which("Xvfb") and _minibrowser())


@contextlib.contextmanager
def _screen():
    """A display of its own under Xvfb for the phones' windows."""
    for number in range(90, 140):
        if not os.path.exists(f"/tmp/.X11-unix/X{number}") and not os.path.exists(
            f"/tmp/.X{number}-lock"
        ):
            break
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    before = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = f":{number}"
    try:
        deadline = time.monotonic() + 10
        while not os.path.exists(f"/tmp/.X11-unix/X{number}") and time.monotonic() < deadline:
            time.sleep(0.05)
        yield
    finally:
        if before is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = before
        server.terminate()
        server.wait(10)


def _cookie(user) -> tuple[str, str]:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    return cookie.key, cookie.value


def _driver(url: str, cookie: tuple[str, str]):
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options

    options = Options()
    options.binary_location = _minibrowser()
    options.add_argument("--automation")
    driver = webdriver.WebKitGTK(options=options)
    driver.set_window_size(PHONE["width"], PHONE["height"])
    driver.set_script_timeout(15)
    driver.get(f"{url}/health/")
    driver.add_cookie({"name": cookie[0], "value": cookie[1], "path": "/"})
    return driver


class WebKitPhones:
    """Each player's phone as a WebKit window, with the scripts the tests run in it."""

    def __init__(self, drivers: dict) -> None:
        self.drivers = drivers

    def run(self, name: str, script: str, argument=None):
        return self.drivers[name].execute_script(f"return ({script})(arguments[0]);", argument)

    def asked(self, name: str) -> list[str]:
        return []  # WebKitWebDriver keeps no record of a page's requests


@contextlib.contextmanager
def webkit_phones(url: str, night: Night):
    """The night's players' phones in WebKit, on its page, for a ``with`` block."""
    if not available():
        pytest.skip("WebKitWebDriver, its MiniBrowser or Xvfb is not installed")
    seats = list(night.seats.select_related("user"))
    with _screen(), ThreadPoolExecutor(len(seats)) as pool:
        cookies = {seat.name: _cookie(seat.user) for seat in seats}
        started = {name: pool.submit(_driver, url, cookie) for name, cookie in cookies.items()}
        drivers = {}
        try:
            for name, future in started.items():
                drivers[name] = future.result()
                drivers[name].get(f"{url}/nights/{night.pk}/")
            yield WebKitPhones(drivers)
        finally:
            for future in started.values():
                with contextlib.suppress(Exception):
                    future.result().quit()
