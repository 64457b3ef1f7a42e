"""The front's configuration (ofcboard/front.py), read as nginx would be given it."""

import subprocess
from pathlib import Path

import pytest

from ofcboard import front, serve

NGINX = front.Nginx(
    "nginx",
    Path("modules") / "ngx_nchan_module.so",
    ("client_body_temp_path", "proxy_temp_path"),
)


def written(**options) -> str:
    defaults = {
        "folder": Path("front"),
        "listen": "0.0.0.0:8000",
        "apps": ["127.0.0.1:8001"],
        "publish": "127.0.0.1:8002",
        "pass_secret": "s3cret",
    }
    return front.config(NGINX, **{**defaults, **options})


def test_the_phones_server_bounds_bodies_headers_phones_and_addresses():
    text = written()
    assert "listen 0.0.0.0:8000 backlog=4096;" in text
    assert f"client_max_body_size {front.MAX_BODY};" in text
    # A body is buffered in memory up to a small size, never as announced.
    assert f"client_body_buffer_size {front.BODY_IN_MEMORY};" in text
    assert f"client_body_timeout {front.BODY_SECONDS}s;" in text
    assert f"client_header_timeout {front.HEADER_SECONDS}s;" in text
    assert f"limit_conn phone_holds {front.PHONE_HOLDS};" in text
    assert f"limit_conn stranger_holds {front.STRANGER_HOLDS};" in text
    assert f"limit_conn address_holds {front.ADDRESS_HOLDS};" in text
    assert f"limit_conn stranger_bodies {front.STRANGER_BODIES};" in text
    assert f"rate={front.PHONE_ASKS_PER_SECOND}r/s" in text
    # Every place a request from outside lands carries the limits, each of them: the
    # pages (the static files too) and the streams; every other place of the phones'
    # server is reached only from inside.
    limits = [
        f"limit_conn phone_holds {front.PHONE_HOLDS};",
        f"limit_conn stranger_holds {front.STRANGER_HOLDS};",
        f"limit_conn address_holds {front.ADDRESS_HOLDS};",
        f"limit_conn stranger_bodies {front.STRANGER_BODIES};",
        f"limit_req zone=phone_asks burst={front.PHONE_BURST} nodelay;",
        f"limit_req zone=stranger_asks burst={front.STRANGER_BURST} nodelay;",
        f"limit_req zone=address_asks burst={front.ADDRESS_BURST} nodelay;",
    ]
    phones_server = text.split("# Where the app publishes")[0]
    places = phones_server.split("location ")[1:]
    outside = [place for place in places if "internal;" not in place]
    assert [place.split(" {")[0] for place in outside] == [
        "/",
        "~ ^/streams/(?<channel>[a-z]+-[0-9]+)$",
    ]
    for place in outside:
        assert all(limit in place for limit in limits), place
    # The pass and the streams are checked with the secret they were signed with.
    assert 'secure_link_md5 "$pass_id.$secure_link_expires.s3cret";' in text
    assert 'secure_link_md5 "$channel.$secure_link_expires.s3cret";' in text
    # Every temporary file nginx was built to keep goes into the front's own folder.
    assert f"client_body_temp_path {Path('front') / 'client_body'};" in text
    assert f"proxy_temp_path {Path('front') / 'proxy'};" in text


def test_a_stream_is_ended_for_its_right_to_be_checked_again():
    assert f"nchan_subscriber_timeout {front.STREAM_SECONDS}s;" in written()
    assert front.STREAM_SECONDS < 60


def test_streams_are_held_only_where_their_pass_is_checked():
    text = written()
    stream_place = text.split("location ~ ^/streams/")[1].split("# The front's refusals")[0]
    assert "secure_link $arg_pass,$arg_expires;" in stream_place
    assert 'if ($secure_link = "") {\n        return 403;' in stream_place
    assert 'if ($secure_link = "0") {\n        return 410;' in stream_place
    assert "nchan_subscriber eventsource;" in stream_place
    assert text.count("nchan_subscriber ") == 1
    # The publishing server listens where it was told: loopback, not the phones' side.
    publishing = text.split("# Where the app publishes")[1]
    assert "listen 127.0.0.1:8002;" in publishing
    assert "nchan_publisher;" in publishing


def test_without_a_proxy_before_it_nobody_is_believed_about_address_or_scheme():
    text = written()
    assert "set_real_ip_from" not in text
    assert "proxy_set_header X-Forwarded-Proto $forwarded_scheme;" in text
    assert " 1;" not in text.split("$through_a_proxy {")[1].split("}")[0]


def test_behind_a_load_balancer_its_word_on_the_phones_address_and_scheme_is_taken():
    text = written(trusted_proxies=["10.0.0.5", " 10.1.0.0/16 ", ""])
    assert "set_real_ip_from 10.0.0.5;" in text
    assert "set_real_ip_from 10.1.0.0/16;" in text
    assert "real_ip_header X-Forwarded-For;" in text
    assert "real_ip_recursive on;" in text
    # Its scheme, from it only: anyone else's X-Forwarded-Proto is not passed on.
    through = text.split("$through_a_proxy {")[1].split("}")[0]
    assert "10.0.0.5 1;" in through
    assert "10.1.0.0/16 1;" in through
    assert "default 0;" in through


def test_any_proxy_trusted_takes_only_the_entry_the_last_hop_added():
    text = written(trusted_proxies=["*"])
    assert "set_real_ip_from 0.0.0.0/0;" in text
    assert "set_real_ip_from ::/0;" in text
    assert "real_ip_recursive off;" in text
    assert "*" not in text.split("$through_a_proxy {")[1].split("}")[0]


@pytest.mark.skipif(front.find() is None, reason="nginx with Nchan is not installed")
@pytest.mark.parametrize("proxies", [[], ["*"], ["10.0.0.5", "2001:db8::/32"]])
def test_nginx_takes_the_configuration(tmp_path, proxies):
    nginx = front.find()
    assert nginx is not None
    text = front.config(
        nginx,
        folder=tmp_path,
        listen="127.0.0.1:18000",
        apps=["127.0.0.1:1"],
        publish="127.0.0.1:18001",
        pass_secret="s3cret",
        trusted_proxies=proxies,
    )
    (tmp_path / "nginx.conf").write_text(text)
    folder = str(tmp_path)
    checked = subprocess.run(
        [nginx.binary, "-p", folder, "-e", "stderr", "-c", f"{folder}/nginx.conf", "-t", "-q"],
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("redis", ["", "redis://cache:6379"])
def test_nodes_share_their_channels_only_through_a_redis_given(redis):
    text = written(redis_url=redis, redis_namespace="site-a")
    assert ("nchan_redis_url redis://cache:6379;" in text) is bool(redis)
    assert ("nchan_redis_namespace site-a;" in text) is bool(redis)


def test_the_refusals_are_written_in_every_language_the_site_speaks(tmp_path, settings):
    front.refusal_pages(tmp_path)
    pages = {page.name: page.read_text() for page in (tmp_path / "words").iterdir()}
    for code, _name in settings.LANGUAGES:
        assert f"busy.{code}.txt" in pages
        assert f"too-large.{code}.txt" in pages
    assert pages["busy.en.txt"].strip() == front.BUSY
    assert pages["busy.de.txt"] != pages["busy.en.txt"]
    assert pages["too-large.zh-hans.txt"] != pages["too-large.en.txt"]


def test_make_run_serves_without_a_front_where_there_is_none_and_says_for_what(monkeypatch, capsys):
    monkeypatch.setattr(serve, "find_front", lambda: None)
    monkeypatch.delenv("OFCBOARD_TRUSTED_PROXY", raising=False)
    assert serve._the_front("auto") is None
    serve._say_which_way(None)
    said = capsys.readouterr().out
    assert "for a table's own Wi-Fi where everyone is trusted" in said
    assert "the phones ask for changes every 2 s" in said
    assert "apt install nginx libnginx-mod-nchan" in said
    with pytest.raises(SystemExit, match="There is no nginx with its Nchan module here"):
        serve._the_front("yes")
    assert serve._the_front("no") is None


def test_a_proxy_named_without_a_front_stops_the_server(monkeypatch):
    monkeypatch.setattr(serve, "find_front", lambda: None)
    monkeypatch.setenv("OFCBOARD_TRUSTED_PROXY", "10.0.0.1")
    for wanted in ("auto", "no"):
        with pytest.raises(SystemExit, match="only nginx in front believes one"):
            serve._the_front(wanted)
    monkeypatch.setattr(serve, "find_front", lambda: NGINX)
    assert serve._the_front("auto") is NGINX


def test_make_run_says_it_serves_through_the_front_where_there_is_one(monkeypatch, capsys):
    monkeypatch.setattr(serve, "find_front", lambda: NGINX)
    assert serve._the_front("auto") is NGINX
    serve._say_which_way(NGINX)
    assert "changes are pushed to the phones" in capsys.readouterr().out


class DyingFront:
    """A front whose nginx stops each time it is waited for."""

    stopping = False

    def __init__(self) -> None:
        self.restarts = 0

    def wait(self) -> int:
        return 1

    def restart(self) -> None:
        self.restarts += 1


def test_make_run_starts_a_dead_front_again_and_stops_when_it_keeps_dying(capsys):
    front_here, times, stopped = DyingFront(), iter([0.0, 20.0, 40.0]), []
    serve.keep_the_front(
        front_here, clock=lambda: next(times), stop_server=lambda: stopped.append(1)
    )
    said = capsys.readouterr().err
    assert front_here.restarts == 2
    assert said.count("was started again") == 2
    assert "nginx stopped 3 times within a minute" in said
    assert stopped == [1]


def test_a_front_that_dies_now_and_then_is_always_started_again(capsys):
    front_here, stopped = DyingFront(), []
    times = iter([0.0, 50.0, 100.0, 150.0])

    def clock() -> float:
        moment = next(times, None)
        if moment is None:
            front_here.stopping = True  # the server stops it
            return 1000.0
        return moment

    front_here.wait = lambda: 1 if not front_here.stopping else 0  # type: ignore[method-assign]
    serve.keep_the_front(front_here, clock=clock, stop_server=lambda: stopped.append(1))
    assert stopped == []
    assert front_here.restarts >= 3


def test_the_configuration_is_the_template_file_with_every_blank_filled():
    text = written(redis_url="redis://127.0.0.1:6379/0", trusted_proxies=["10.0.0.1"])
    assert "{{" not in text and "}}" not in text
    # Every line of the file but its blanks' is given to nginx as it is written there.
    for line in front.TEMPLATE.read_text().splitlines():
        if "{{" not in line:
            assert line in text, line


def test_a_blank_without_a_value_is_an_error_never_left_in():
    with pytest.raises(KeyError):
        front._NginxTemplate("listen {{ listen }};\nroot {{ nowhere }};").substitute(listen="80")
    with pytest.raises(ValueError):
        front._NginxTemplate("listen {{ Listen! }};").substitute(listen="80")
