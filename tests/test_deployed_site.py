"""The site as `make run` deploys it: the project's own settings (not the tests'), DEBUG
off in table mode, migrate, collectstatic into a folder of its own, welcome, then the
server of ofcboard/serve.py. Every file the main pages, the installable app's manifest
and the service worker name is served, with its type, by its hashed name; the service
worker and the manifest answer; the language switcher answers odd pages to come back to
with a redirect. And `manage.py` by hand keeps DEBUG off unless asked for."""

import contextlib
import http.client
import json
import os
import re
import subprocess
import sys
import urllib.parse
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path

import pytest

from tests.helpers import PASSWORD, start_server
from tests.test_project import manage

ROOT = Path(__file__).resolve().parent.parent

# What the files a page names are sent as, by the end of their names.
CONTENT_TYPES = {
    ".css": ("text/css",),
    ".js": ("text/javascript", "application/javascript"),
    ".png": ("image/png",),
    ".svg": ("image/svg+xml",),
    ".ico": ("image/x-icon", "image/vnd.microsoft.icon"),
    ".woff2": ("font/woff2",),
    ".webmanifest": ("application/manifest+json",),
}
HASHED = re.compile(r"\.[0-9a-f]{12}\.[a-z0-9]+$")

# The test run's own settings, which a server started as `make run` starts it never has.
TEST_RUN_SETTINGS = (
    "DJANGO_SETTINGS_MODULE",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "CACHE_URL",
    "THROTTLE_CACHE_URL",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "OFCBOARD_BACKUP_DIR",
    "STATIC_ROOT",
)

# Made by `manage.py shell` on the site's database: members beside the one who logs
# in (no password: nobody logs in as them), a finished night and one still running.
SET_UP_NIGHTS = """
import json
from scorekeeper.models import Group, User
from scorekeeper.services.groups import join_group
from tests.helpers import PASSWORD, finish, make_night, open_round, play

group = Group.objects.get()
join_group(group=group, user=User.objects.create_user(name="Anna", password=PASSWORD))
for name in ("Bram", "Chris"):
    join_group(group=group, user=User.objects.create_user(name=name))
finished = make_night(group=group)
play(finished, {"Anna": 10, "Bram": -4, "Chris": -6})
finish(finished)
running = make_night(group=group)
play(running, {"Anna": 3, "Bram": -1, "Chris": -2})
print(json.dumps({
    "group": group.pk,
    "finished": finished.pk,
    "running": running.pk,
    "round": open_round(running).number,
    "seat": running.seats.get(name="Anna").pk,
}))
"""


class Phone:
    """A browser's part that matters here: its cookies, and answers read whole,
    redirects not followed."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None, **headers: str
    ) -> tuple[http.client.HTTPResponse, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {k.replace("_", "-"): v for k, v in headers.items()}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            content = response.read()
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response, content

    def get(self, path: str, **headers: str) -> tuple[http.client.HTTPResponse, bytes]:
        return self.request("GET", path, **headers)

    def post(self, path: str, form: dict[str, str]) -> http.client.HTTPResponse:
        if "csrftoken" not in self.cookies:
            self.get("/login/")  # the CSRF cookie, as a browser has it from a page
        token = self.cookies["csrftoken"]
        return self.request("POST", path, {**form, "csrfmiddlewaretoken": token})[0]


class NamedFiles(HTMLParser):
    """The addresses a page asks the browser to load: scripts, style sheets, icons,
    the manifest, images, the icon sprite its ``<use href>`` draw from, and the service
    worker it registers."""

    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()

    LOADED_LINKS = {"stylesheet", "icon", "apple-touch-icon", "manifest", "preload"}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        wanted = {"script": ["src"], "img": ["src"], "source": ["src"], "use": ["href"]}
        if tag == "link" and set((named.get("rel") or "").split()) & self.LOADED_LINKS:
            wanted["link"] = ["href"]  # not a link to another page (rel="alternate")
        for attribute in [*wanted.get(tag, []), "data-service-worker"]:
            if value := named.get(attribute):
                self.found.add(value)


def files_named_by(html: bytes) -> set[str]:
    parser = NamedFiles()
    parser.feed(html.decode())
    # An icon is a fragment of the sprite: the browser loads the file without it.
    return {url.split("#", 1)[0] for url in parser.found if not url.startswith(("data:", "#"))}


def run(*command: str, env: dict[str, str]) -> str:
    result = subprocess.run(
        [sys.executable, *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The server `make run` starts, on a database and static folder of its own, with a
    group (made by `welcome`, as on a first `make run`), Anna logged in, and its nights."""
    folder = tmp_path_factory.mktemp("deployed")
    env = {k: v for k, v in os.environ.items() if k not in TEST_RUN_SETTINGS}
    env |= {
        "DEBUG": "0",
        "OFCBOARD_TABLE": "1",
        # What `make run` keeps in the checkout (.secret_key, db.sqlite3, staticfiles/,
        # backups/), here in the test's own folder.
        "SECRET_KEY": "deployed-site-test-" + "k" * 40,
        "DATABASE_URL": f"sqlite:///{folder}/db.sqlite3",
        "STATIC_ROOT": str(folder / "staticfiles"),
        "OFCBOARD_BACKUP_DIR": str(folder / "backups"),
    }
    run("manage.py", "migrate", "--noinput", "-v", "0", env=env)
    run("manage.py", "collectstatic", "--noinput", "-v", "0", env=env)
    assert "/join/" in run("manage.py", "welcome", env=env)
    ids = json.loads(run("manage.py", "shell", "-c", SET_UP_NIGHTS, env=env).splitlines()[-1])
    process, port = start_server(env)
    try:
        phone = Phone(port)
        answer = phone.post("/login/", {"username": "Anna", "password": PASSWORD})
        assert answer.status == 302 and "sessionid" in phone.cookies, answer.status
        yield phone, ids, folder
    finally:
        process.terminate()
        process.wait(10)


def main_pages(ids: dict[str, int]) -> list[str]:
    night, finished = f"/nights/{ids['running']}/", f"/nights/{ids['finished']}/"
    return [
        f"/groups/{ids['group']}/",
        night,
        f"{night}rounds/",
        f"{night}rounds/{ids['round']}/cards/{ids['seat']}/",
        f"{night}screen/",
        f"{finished}settle/",
        "/account/",
        "/rules/",
    ]


def test_every_file_the_pages_and_the_service_worker_name_is_served_with_its_type(site):
    phone, ids, _folder = site
    named: dict[str, str] = {}  # each address, and a page that names it
    for page in main_pages(ids):
        answer, html = phone.get(page)
        assert answer.status == 200, page
        assert answer.headers["Content-Type"].startswith("text/html"), page
        named |= {url: page for url in files_named_by(html)}
    anonymous = Phone(phone.port)
    answer, html = anonymous.get("/login/")
    assert answer.status == 200
    named |= {url: "/login/" for url in files_named_by(html)}

    answer, worker = phone.get("/service-worker.js")
    assert answer.status == 200
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", worker.decode())[1])
    assert len(files) >= 9
    named |= {url: "/service-worker.js" for url in files}
    for url in [url for url in named if url.endswith(".webmanifest")]:
        answer, manifest = phone.get(url)
        named |= {icon["src"]: url for icon in json.loads(manifest)["icons"]}

    assert "/service-worker.js" in named and "/manifest/en.webmanifest" in named
    assert [url for url in named if "/ofcboard/icons." in url], "the icons' sprite"
    assert not [url for url in named if not url.startswith("/") or url.startswith("//")], (
        "every file comes from the table's own server"
    )
    checked = set()
    while unchecked := sorted(set(named) - checked):
        for url in unchecked:
            checked.add(url)
            answer, content = phone.get(url)
            assert answer.status == 200, (url, named[url], answer.status)
            suffix = Path(urllib.parse.urlsplit(url).path).suffix
            assert suffix in CONTENT_TYPES, f"{url} (named by {named[url]}): a new kind of file"
            assert answer.headers["Content-Type"].startswith(CONTENT_TYPES[suffix]), (
                url,
                answer.headers["Content-Type"],
            )
            if not url.startswith("/static/"):
                continue
            # As collectstatic made them: by hashed names, kept for good, compressed.
            assert HASHED.search(url), f"{url} (named by {named[url]}) is not a hashed name"
            assert "immutable" in answer.headers["Cache-Control"], url
            if suffix in (".css", ".js"):
                packed, _ = phone.get(url, Accept_Encoding="br, gzip")
                assert packed.headers["Content-Encoding"] in ("br", "gzip"), url
            if suffix == ".css":  # what a style sheet loads in turn
                for found in re.findall(r"url\(\s*['\"]?([^'\")]+)", content.decode()):
                    if not found.startswith("data:"):
                        named.setdefault(urllib.parse.urljoin(url, found), url)
    assert len(checked) >= 12


def test_the_service_worker_and_the_installable_apps_manifest_answer(site):
    phone, _ids, _folder = site
    for who in (phone, Phone(phone.port)):  # logged in, and not
        answer, worker = who.get("/service-worker.js")
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("application/javascript")
        assert 'const STATIC_URL = "/static/";' in worker.decode()
        for language in ("en", "nl", "de", "zh-hans"):
            answer, manifest = who.get(f"/manifest/{language}.webmanifest")
            assert answer.status == 200, language
            assert json.loads(manifest)["lang"] == language


ODD_PAGES = ["home", "abc", "", ".", "//evil.example/", "javascript:alert(1)", "x" * 3000]


# One test for every odd page, not one each: make test's workers steal tests from each
# other, and each worker handed one of this module's tests set the site up again
# (migrate, collectstatic, a server: about 15 s of CPU each time).
def test_the_language_switcher_answers_an_odd_page_to_go_back_to_with_a_redirect(site):
    phone, _ids, _folder = site
    answers = {
        next_page[:20]: Phone(phone.port).post("/language/", {"language": "nl", "next": next_page})
        for next_page in ODD_PAGES
    }
    assert {page: answer.status for page, answer in answers.items()} == dict.fromkeys(answers, 302)
    assert {page: answer.headers["Location"] for page, answer in answers.items()} == dict.fromkeys(
        answers, "/"
    )


def test_manage_py_by_hand_keeps_debug_off_unless_asked_for(tmp_path):
    script = "from django.conf import settings as s; print(s.DEBUG, s.TABLE_MODE)"
    key_file = ROOT / ".secret_key"
    had_key = key_file.exists()
    try:
        # Nothing said: as `make run` runs its commands (table mode, DEBUG off).
        by_hand = manage("shell", "-c", script)
        assert by_hand.returncode == 0, by_hand.stderr
        assert by_hand.stdout.split()[-2:] == ["False", "True"]
    finally:
        if not had_key:
            with contextlib.suppress(FileNotFoundError):
                key_file.unlink()
    # Asked for, as `make dev` asks.
    asked = manage("shell", "-c", script, DEBUG="1", SECRET_KEY="k" * 50)
    assert asked.returncode == 0, asked.stderr
    assert asked.stdout.split()[-2:] == ["True", "False"]
