"""The front that faces the phones: nginx with its Nchan module, in front of the app
server (ofcboard/serve.py), when both are installed (Debian: `apt install nginx
libnginx-mod-nchan`).

It does two jobs no code of ours should:

- **It holds the phones' streams.** A live page's stream is allowed by the app
  (scorekeeper/views/streams.py) and handed here with ``X-Accel-Redirect``; Nchan keeps
  it open and sends down it what the app publishes on its channel
  (scorekeeper/services/push.py). An idle stream is a few kilobytes of nginx's memory and
  no Python at all.
- **It reads every request before the app sees it.** A body is read whole (with a
  deadline, BODY_SECONDS between two reads) before it is passed on, so a client that
  announces a body and never sends it holds a connection of nginx's, which costs
  nothing, never a thread of the app; headers have the same deadline. One address may
  hold PER_ADDRESS requests at once and ask ASKS_PER_SECOND a second (with a burst),
  so a script on the table's Wi-Fi cannot crowd out the phones behind the same router
  or anyone else.

Why nginx with Nchan and not Pushpin (both Debian packages, measured side by side by
bench/fronts.py, figures in the README): 10,000 idle streams cost nginx 18 KiB each
and 0.3 % of the two cores, Pushpin 45 KiB and 1.7-2.6 %; a message to each of 1,000
channels reached every stream at p95 1 ms through Nchan, and 7-10 s late through
Pushpin as Debian configures it (its publish limiter waits while publishes keep
coming; 2 ms with it off). And the abuse half of the job is nginx's own: it cuts a
body held back after 10 s where Pushpin waits 30 minutes, and it limits what one
address may hold and ask, where Pushpin has no per-address limit at all. Nchan's
subscriber is handed over by an ordinary Django answer (X-Accel-Redirect) as GRIP's
is, and shares its channels between nodes through Redis.

Why Nchan's Server-Sent Events and not its WebSocket: a page only listens, and an
EventSource reconnects by itself.
"""

import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ofcboard.ready import in_language, settings_module
from ofcboard.refusals import BUSY, TOO_LARGE

# The same bounds the app server keeps for itself without a front (ofcboard/serve.py).
MAX_BODY = "1m"
HEADER_SECONDS = 10
BODY_SECONDS = 10
# One address: a table of six phones behind one router holds about three each (a
# stream, a poll or a page, a save); a script on the same address may open many more,
# which the per-address limit and nginx's low cost per connection both absorb.
PER_ADDRESS = 256
ASKS_PER_SECOND = 20
ASKS_BURST = 200
# Connections one nginx worker holds (10,000 phones and their polls on one node).
CONNECTIONS = 30000
# The newest version of a channel is kept this long, for a phone that comes back.
MESSAGE_SECONDS = 600


@dataclass(frozen=True)
class Nginx:
    binary: str
    module: Path
    # The temporary-file directives nginx was built with (client_body_temp_path, ...).
    temp_paths: tuple[str, ...]


def find() -> Nginx | None:
    """nginx with Nchan's module, or None when either is missing."""
    search = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/local/sbin"])
    binary = shutil.which("nginx", path=search)
    if binary is None:
        return None
    built = subprocess.run([binary, "-V"], capture_output=True, text=True).stderr
    modules = re.search(r"--modules-path=(\S+)", built)
    if modules is None:
        return None
    module = Path(modules.group(1)) / "ngx_nchan_module.so"
    if not module.exists():
        return None
    temp_paths = tuple(
        f"{name.replace('-', '_')}_temp_path"
        for name in re.findall(r"--http-([a-z-]+)-temp-path=", built)
    )
    return Nginx(binary, module, temp_paths)


def config(
    nginx: Nginx,
    *,
    folder: Path,
    listen: str,
    apps: list[str],
    publish: str,
    redis_url: str = "",
    redis_namespace: str = "ofcboard",
    trusted_proxies: list[str] | None = None,
) -> str:
    """nginx's whole configuration: the phones' server on ``listen`` ("0.0.0.0:8000"),
    passing to the app servers ``apps`` ("127.0.0.1:8001"), and the app's publishing
    server on ``publish`` (loopback only). With ``redis_url``, Nchan keeps its channels
    in that Redis (under ``redis_namespace``), so every node's front sends what any
    node's app published. Behind a TLS proxy or load balancer (``trusted_proxies``,
    its addresses or networks), each request's address is the one that proxy says it
    came from, so the limits count phones, not the proxy; and its scheme is believed."""
    files = open_files()
    languages = _language_maps()
    temp = "\n".join(
        f"  {directive} {folder / directive.removesuffix('_temp_path')};"
        for directive in nginx.temp_paths
    )
    upstream = "\n".join(f"    server {app};" for app in apps)
    redis = ""
    if redis_url:
        # Several sites may share one Redis: each keeps its channels under its own name.
        redis = (
            f"  nchan_redis_url {redis_url};\n  nchan_use_redis on;\n"
            f"  nchan_redis_namespace {redis_namespace};\n"
        )
    proxies = [proxy.strip() for proxy in trusted_proxies or [] if proxy.strip()]
    real_ip = "".join(f"  set_real_ip_from {proxy};\n" for proxy in proxies)
    if real_ip:
        real_ip += "  real_ip_header X-Forwarded-For;\n  real_ip_recursive on;\n"
    scheme = "$http_x_forwarded_proto" if proxies else "$scheme"
    to_app = f"""      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto {scheme};
      proxy_read_timeout 120s;
      proxy_max_temp_file_size 0;"""
    return f"""# Written by ofcboard/front.py each time the front starts.
load_module {nginx.module};
# One worker: its event loop held 10,000 idle streams at 0.6 % of the node (bench/push.py).
worker_processes 1;
worker_rlimit_nofile {files};
pid {folder / "nginx.pid"};
error_log stderr error;
events {{
  worker_connections {files - 100};
}}
http {{
  access_log off;
  server_tokens off;
  variables_hash_max_size 2048;
  variables_hash_bucket_size 128;
{temp}
  client_header_timeout {HEADER_SECONDS}s;
  client_body_timeout {BODY_SECONDS}s;
  send_timeout 30s;
  keepalive_timeout 75s;
  client_max_body_size {MAX_BODY};
  client_body_buffer_size {MAX_BODY};
  limit_conn_zone $binary_remote_addr zone=held:10m;
  limit_req_zone $binary_remote_addr zone=asks:10m rate={ASKS_PER_SECOND}r/s;
  limit_conn_status 503;
  limit_req_status 503;
  nchan_message_buffer_length 1;
  nchan_message_timeout {MESSAGE_SECONDS}s;
{redis}{real_ip}
{languages}
  upstream app {{
{upstream}
    keepalive 64;
  }}

  server {{
    listen {listen} backlog=4096;
    limit_conn held {PER_ADDRESS};

    location / {{
      limit_req zone=asks burst={ASKS_BURST} nodelay;
{to_app}
    }}
    # The page's own files: cheap, many at once when a phone opens its first page.
    location /static/ {{
{to_app}
    }}
    # A stream the app allowed (X-Accel-Redirect): held here, never by the app.
    location ~ ^/_streams/([a-z]+-[0-9]+)$ {{
      internal;
      nchan_subscriber eventsource;
      nchan_channel_id $1;
      # A comment every 30 s keeps a quiet stream open through routers that drop
      # idle connections.
      nchan_eventsource_ping_interval 30;
    }}
    # The front's refusals in the phone's language, as the app words them: a page
    # written for each language when the front starts (refusal_pages).
    error_page 413 /_front/too-large;
    error_page 503 /_front/busy;
    location = /_front/too-large {{
      internal;
      root {folder / "words"};
      default_type text/plain;
      charset utf-8;
      try_files /too-large.$language.txt =413;
    }}
    location = /_front/busy {{
      internal;
      root {folder / "words"};
      default_type text/plain;
      charset utf-8;
      add_header Retry-After 2 always;
      try_files /busy.$language.txt =503;
    }}
  }}

  # Where the app publishes: loopback only.
  server {{
    listen {publish};
    location ~ ^/([a-z]+-[0-9]+)$ {{
      nchan_publisher;
      nchan_channel_id $1;
    }}
  }}
}}
"""


def _language_maps() -> str:
    """$language: the language the app would answer in, from its cookie, else the
    browser's first choice (as Django's LocaleMiddleware decides, simplified)."""
    settings = settings_module()
    codes = [code for code, _name in settings.LANGUAGES]
    cookie = getattr(settings, "LANGUAGE_COOKIE_NAME", "django_language")
    chosen = "".join(f"    {code} {code};\n" for code in codes)
    browser = "".join(f"    ~*^{code.split('-')[0]} {code};\n" for code in codes)
    return f"""  map $cookie_{cookie} $chosen_language {{
{chosen}    default "";
  }}
  map $http_accept_language $browser_language {{
{browser}    default {settings.LANGUAGE_CODE};
  }}
  map $chosen_language $language {{
    "" $browser_language;
    default $chosen_language;
  }}"""


def refusal_pages(folder: Path) -> None:
    """The front's two refusals, a page per language, in ``folder``/words."""
    words = folder / "words"
    words.mkdir(exist_ok=True)
    words.chmod(0o755)
    for code, _name in settings_module().LANGUAGES:
        for name, message in (("too-large", TOO_LARGE), ("busy", BUSY)):
            page = words / f"{name}.{code}.txt"
            page.write_text(in_language(message, code) + "\n")
            page.chmod(0o644)


def open_files() -> int:
    """The files (connections, mostly) each nginx worker may open: CONNECTIONS, or as
    many as this machine lets a process have."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return CONNECTIONS if hard == resource.RLIM_INFINITY else min(CONNECTIONS, hard)


def _die_with_parent() -> None:
    # nginx is stopped with the server that started it, even when that one is killed.
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


@dataclass
class Front:
    """A running nginx and the folder of its files."""

    process: subprocess.Popen
    folder: Path

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


def start(
    nginx: Nginx,
    *,
    listen: str,
    apps: list[str],
    publish: str,
    trusted_proxies: list[str] | None = None,
) -> Front:
    """nginx started in the foreground with its files in a folder of its own; the
    caller stops it when the app server stops."""
    folder = Path(tempfile.mkdtemp(prefix="ofcboard-front-"))
    folder.chmod(0o755)  # nginx's workers, run as another user when started as root
    text = config(
        nginx,
        folder=folder,
        listen=listen,
        apps=apps,
        publish=publish,
        redis_url=os.environ.get("OFCBOARD_PUSH_REDIS", ""),
        redis_namespace=os.environ.get("OFCBOARD_PUSH_NAMESPACE", "ofcboard"),
        trusted_proxies=trusted_proxies,
    )
    (folder / "nginx.conf").write_text(text)
    refusal_pages(folder)
    command = [nginx.binary, "-p", str(folder), "-e", "stderr", "-c", str(folder / "nginx.conf")]
    checked = subprocess.run([*command, "-t", "-q"], capture_output=True, text=True)
    if checked.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise SystemExit(f"nginx does not take the front's configuration:\n{checked.stderr}")
    process = subprocess.Popen(
        [*command, "-g", "daemon off;"],
        stdout=sys.stdout,
        stderr=sys.stderr,
        preexec_fn=_die_with_parent,
    )
    return Front(process, folder)
