"""`make run` says "Ready" once the server takes connections (ofcboard/ready.py)."""

import importlib
import io
import os
import socket
import time

from django.utils import translation

from ofcboard.ready import READY, in_settings_language, say_when_listening


def a_free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_the_words_come_once_the_port_takes_connections():
    out = io.StringIO()
    port = a_free_port()
    thread = say_when_listening(port, "Ready now", out=out, give_up_after=20)
    time.sleep(0.5)
    assert out.getvalue() == ""  # nothing listens yet
    with socket.create_server(("127.0.0.1", port)):
        thread.join(10)
    assert not thread.is_alive()
    assert out.getvalue() == "Ready now\n"


def test_a_server_on_every_address_is_reached_through_this_machine():
    out = io.StringIO()
    with socket.create_server(("0.0.0.0", 0)) as server:
        port = server.getsockname()[1]
        say_when_listening(port, "Ready now", host="0.0.0.0", out=out).join(10)
    assert out.getvalue() == "Ready now\n"


def test_it_gives_up_without_a_word():
    out = io.StringIO()
    thread = say_when_listening(a_free_port(), "Ready now", out=out, give_up_after=0.3)
    thread.join(5)
    assert not thread.is_alive()
    assert out.getvalue() == ""


def test_by_default_it_says_ready_in_the_language_of_the_settings(monkeypatch):
    out = io.StringIO()
    with socket.create_server(("127.0.0.1", 0)) as server:
        say_when_listening(server.getsockname()[1], out=out).join(10)
    assert out.getvalue() == f"{in_settings_language(READY)}\n"
    # The catalogue read without Django's apps says what Django says (a message every
    # language has had for long, so this holds before READY's own translations come).
    message = "The server is busy for a moment. Please try again."
    # The settings module itself, as the server's main process reads it.
    settings = importlib.import_module(os.environ["DJANGO_SETTINGS_MODULE"])
    for language in ("nl", "de", "zh-hans"):
        monkeypatch.setattr(settings, "LANGUAGE_CODE", language)
        with translation.override(language):
            assert in_settings_language(message) == translation.gettext(message)
        assert in_settings_language(message) != message
