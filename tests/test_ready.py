"""`make run` says "Ready" once the server takes connections (ofcboard/ready.py): the
first server process to load the app says it, once, whatever the number of processes."""

import importlib
import io
import os

from django.utils import translation

from ofcboard.ready import MARK, READY, in_settings_language, prepare, say_ready_once


def test_the_first_process_to_load_says_ready_and_no_other(monkeypatch):
    monkeypatch.delenv(MARK, raising=False)
    folder = prepare()
    try:
        first, second = io.StringIO(), io.StringIO()
        assert say_ready_once(first)
        assert not say_ready_once(second)
        assert first.getvalue() == f"{in_settings_language(READY)}\n"
        assert second.getvalue() == ""
    finally:
        os.environ.pop(MARK, None)
        (folder / "said").unlink(missing_ok=True)
        folder.rmdir()


def test_a_server_started_without_its_mark_says_nothing(monkeypatch):
    monkeypatch.delenv(MARK, raising=False)
    out = io.StringIO()
    assert not say_ready_once(out)
    assert out.getvalue() == ""


def test_a_server_stopping_before_it_loaded_says_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv(MARK, str(tmp_path / "gone" / "said"))
    out = io.StringIO()
    assert not say_ready_once(out)
    assert out.getvalue() == ""


def test_ready_is_said_in_the_language_of_the_settings(monkeypatch):
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
