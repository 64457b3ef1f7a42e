"""The front's configuration (ofcboard/front.py), read as nginx would be given it."""

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
    }
    return front.config(NGINX, **{**defaults, **options})


def test_the_phones_server_bounds_bodies_headers_and_each_address():
    text = written()
    assert "listen 0.0.0.0:8000 backlog=4096;" in text
    assert f"client_max_body_size {front.MAX_BODY};" in text
    assert f"client_body_timeout {front.BODY_SECONDS}s;" in text
    assert f"client_header_timeout {front.HEADER_SECONDS}s;" in text
    assert f"limit_conn held {front.PER_ADDRESS};" in text
    assert f"rate={front.ASKS_PER_SECOND}r/s" in text
    # Every temporary file nginx was built to keep goes into the front's own folder.
    assert f"client_body_temp_path {Path('front') / 'client_body'};" in text
    assert f"proxy_temp_path {Path('front') / 'proxy'};" in text


def test_streams_are_held_only_where_the_app_hands_them_over():
    text = written()
    stream_place = text.split("location ~ ^/_streams/")[1].split("}")[0]
    assert "internal;" in stream_place
    assert "nchan_subscriber eventsource;" in stream_place
    # The publishing server listens where it was told: loopback, not the phones' side.
    publishing = text.split("# Where the app publishes")[1]
    assert "listen 127.0.0.1:8002;" in publishing
    assert "nchan_publisher;" in publishing


def test_without_a_proxy_before_it_nobody_is_believed_about_address_or_scheme():
    text = written()
    assert "set_real_ip_from" not in text
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in text
    assert "$http_x_forwarded_proto" not in text


def test_behind_a_load_balancer_its_word_on_the_phones_address_and_scheme_is_taken():
    text = written(trusted_proxies=["10.0.0.5", " 10.1.0.0/16 ", ""])
    assert "set_real_ip_from 10.0.0.5;" in text
    assert "set_real_ip_from 10.1.0.0/16;" in text
    assert "real_ip_header X-Forwarded-For;" in text
    assert "proxy_set_header X-Forwarded-Proto $http_x_forwarded_proto;" in text


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


def test_make_run_serves_without_a_front_where_there_is_none_and_says_so(monkeypatch, capsys):
    monkeypatch.setattr(serve, "find_front", lambda: None)
    assert serve._the_front("auto") is None
    serve._say_which_way("auto", None)
    said = capsys.readouterr().out
    assert "the phones ask for changes every 2 s" in said
    assert "apt install nginx libnginx-mod-nchan" in said
    with pytest.raises(SystemExit, match="There is no nginx with its Nchan module here"):
        serve._the_front("yes")
    assert serve._the_front("no") is None
    serve._say_which_way("no", None)
    assert capsys.readouterr().out == ""


def test_make_run_says_it_serves_through_the_front_where_there_is_one(monkeypatch, capsys):
    monkeypatch.setattr(serve, "find_front", lambda: NGINX)
    assert serve._the_front("auto") is NGINX
    serve._say_which_way("auto", NGINX)
    assert "changes are pushed to the phones" in capsys.readouterr().out
