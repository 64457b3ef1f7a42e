"""The project as a person sets it up: settings, deploy checks, the set-up commands."""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from scorekeeper.models import Group

ROOT = Path(__file__).resolve().parent.parent


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    # As a person's shell would have it: none of the test run's own settings.
    ours = (
        "DEBUG",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "DJANGO_SETTINGS_MODULE",
        "DJANGO_ALLOW_ASYNC_UNSAFE",
    )
    clean = {k: v for k, v in os.environ.items() if k not in ours}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_deploy_checks_pass_with_debug_off_and_a_real_key():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="ofc.example.org",
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_a_production_start_without_a_key_is_refused_in_plain_words():
    result = manage("check", DEBUG="0")
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_creategroup_prints_the_invitation_link(db, capsys):
    call_command("creategroup", "Friday OFC", "--base-url", "http://192.0.2.7:8000")
    group = Group.objects.get(name="Friday OFC")
    out = capsys.readouterr().out
    assert f"http://192.0.2.7:8000/join/{group.invite_token}/" in out


def test_creategroup_refuses_an_empty_name(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="give the group a name"):
        call_command("creategroup", "   ")
    assert not Group.objects.exists()


def test_welcome_makes_a_first_group_only_on_an_empty_database_and_always_hands_out_its_code(
    db, capsys, monkeypatch
):
    monkeypatch.setenv("OFCBOARD_BASE_URL", "http://192.0.2.7:8000")
    call_command("welcome")
    out = capsys.readouterr().out
    group = Group.objects.get()
    assert "http://192.0.2.7:8000/" in out
    assert f"/join/{group.invite_token}/" in out
    call_command("welcome")
    assert Group.objects.count() == 1
    again = capsys.readouterr().out
    assert f"/join/{group.invite_token}/" in again and group.join_code in again


def test_htmx_is_served_from_our_own_static_files(client, login, make_user):
    login(make_user("Anna"))
    body = client.get("/?stay=1").content.decode()
    assert "/static/django_htmx/htmx" in body
    assert "https://" not in body  # no CDN anywhere


def test_static_files_get_hashed_compressed_names_for_production(
    client, login, make_user, tmp_path, settings
):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", "--noinput", verbosity=0)
    login(make_user("Anna"))
    body = client.get("/?stay=1").content.decode()

    css = re.search(r'href="/static/(ofcboard/app\.[0-9a-f]{12}\.css)"', body)
    htmx = re.search(r'src="/static/(django_htmx/htmx-2\.min\.[0-9a-f]{12}\.js)"', body)
    assert css and htmx, "pages must link the hashed names"
    for name in (css[1], htmx[1]):
        assert (tmp_path / name).exists()
        assert (tmp_path / f"{name}.gz").exists()


def test_pages_carry_a_strict_content_security_policy(client, db):
    policy = client.get("/login/").headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_table_mode_serves_plain_http_to_the_wifi_without_debug_pages():
    script = (
        "from django.conf import settings as s; "
        "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.ALLOWED_HOSTS)"
    )
    result = manage("shell", "-c", script, DEBUG="0", OFCBOARD_TABLE="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-4:] == ["False", "False", "False", "['*']"]
