"""The front that faces the phones: nginx with its Nchan module, in front of the app
server (ofcboard/serve.py), when both are installed (Debian: `apt install nginx
libnginx-mod-nchan`).

It does two jobs no code of ours should:

- **It holds the phones' streams.** A live page names its stream with a pass the app
  signed when it drew the page (scorekeeper/site/front_pass.py): nginx checks the pass
  itself and Nchan keeps the stream open and sends down it what the app publishes on
  its channel (scorekeeper/services/push.py). Opening a stream never reaches the app;
  an idle stream is a few kilobytes of nginx's memory and no Python at all.
- **It reads every request before the app sees it.** A body is read whole (with a
  deadline, BODY_SECONDS between two reads) before it is passed on, so a client that
  announces a body and never sends it holds a connection of nginx's, which costs
  nothing, never a thread of the app, and a body's buffer in memory is BODY_IN_MEMORY
  whatever length it announces; headers have the same deadline. A signed-in phone is
  counted by its pass, anyone else by address (IPv6 by /64), each with what it may
  hold at once and ask a second, under a ceiling per address for a table of ten, so a
  script on the table's Wi-Fi cannot crowd out the phones behind the same router or
  anyone else.

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
import string
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ofcboard.ready import in_language, settings_module
from ofcboard.refusals import BUSY, TOO_LARGE
from scorekeeper.site.front_pass import PASS_COOKIE, STREAMS_AT

TEMPLATE = Path(__file__).with_name("nginx.conf")

# The same bounds the app server keeps for itself without a front (ofcboard/serve.py).
MAX_BODY = "1m"
HEADER_SECONDS = 10
BODY_SECONDS = 10
# A body is read into memory up to this much (the app's forms are a few hundred bytes);
# the rest of one that big goes to a file in the front's folder. nginx sizes a body's
# buffer from this, not from the length announced: 2,048 bodies announced at 1 MB and
# held back cost 32 MB, where a 1 MB buffer cost 2 GB (issue 42).
BODY_IN_MEMORY = "16k"

# Who is counted. A phone signed in to the app carries a pass (a cookie the app signs
# with a secret it shares with the front only, scorekeeper/site/front_pass.py) and is
# counted by it: a client behind the same router, on the same address, cannot use up
# its share. Everyone else, a client without a pass or with a forged one, is counted
# by address (an IPv6 address by its /64, which one home or one phone is given whole).
# A phone's share: a page opens with a dozen files at once; a stream, a poll every 2 s
# and a save come on top.
PHONE_HOLDS = 32
PHONE_ASKS_PER_SECOND = 20
PHONE_BURST = 200
# An address's share for those without a pass: the login and join pages of a table
# whose phones are not signed in yet.
STRANGER_HOLDS = 64
STRANGER_ASKS_PER_SECOND = 20
STRANGER_BURST = 200
# And a ceiling for an address, passes or not: ten phones at a table behind one router
# at their full share, so only a crowd of signed-in accounts reaches it.
ADDRESS_HOLDS = 10 * PHONE_HOLDS
ADDRESS_ASKS_PER_SECOND = 10 * PHONE_ASKS_PER_SECOND
ADDRESS_BURST = 10 * PHONE_BURST
# Bodies on the way from clients without a pass, from all addresses together: at most
# this many buffers of BODY_IN_MEMORY (and a connection's few kilobytes) are held for
# strangers, 4,096 x about 21 KB: under 90 MB whatever the number of addresses. Past
# it a stranger's post is refused; the phones' saves, counted by pass, go on.
STRANGER_BODIES = 4096
# Connections one nginx worker holds (10,000 phones and their polls on one node).
CONNECTIONS = 30000
# The newest version of a channel is kept this long, for a phone that comes back.
MESSAGE_SECONDS = 600
# A stream is ended after this long and the phone's browser opens it again (an
# EventSource does so by itself), with the pass of its page, checked again: once the
# pass's hour is over (scorekeeper/site/front_pass.py), a page that has not been
# drawn anew since hears nothing more, and asks for a fresh one (static/ofcboard/live.js).
STREAM_SECONDS = 55


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
    pass_secret: str,
    redis_url: str = "",
    redis_namespace: str = "ofcboard",
    trusted_proxies: list[str] | None = None,
    stream_seconds: int = STREAM_SECONDS,
) -> str:
    """nginx's whole configuration: the phones' server on ``listen`` ("0.0.0.0:8000"),
    passing to the app servers ``apps`` ("127.0.0.1:8001"), and the app's publishing
    server on ``publish`` (loopback only). ``pass_secret`` checks the passes of the
    phones signed in and the live pages' streams (the app signs them with it). With
    ``redis_url``, Nchan keeps its channels in that Redis (under ``redis_namespace``),
    so every node's front sends what any node's app published. Behind a TLS proxy or load balancer
    (``trusted_proxies``, its addresses or networks, or "*" for any), each request's
    address is the one that proxy says it came from, so the limits count phones, not
    the proxy; and the scheme it says is believed from it alone."""
    files = open_files()
    redis = ""
    if redis_url:
        # Several sites may share one Redis: each keeps its channels under its own name.
        redis = (
            f"  nchan_redis_url {redis_url};\n  nchan_use_redis on;\n"
            f"  nchan_redis_namespace {redis_namespace};\n"
        )
    blanks = {
        "module": nginx.module,
        "folder": folder,
        "open_files": files,
        "connections": files - 100,
        "temp_paths": "\n".join(
            f"  {directive} {folder / directive.removesuffix('_temp_path')};"
            for directive in nginx.temp_paths
        ),
        "header_seconds": HEADER_SECONDS,
        "body_seconds": BODY_SECONDS,
        "max_body": MAX_BODY,
        "body_in_memory": BODY_IN_MEMORY,
        "proxies": _proxies(trusted_proxies or []),
        "who_is_counted": _who_is_counted(pass_secret),
        "pass_secret": pass_secret,
        "streams_at": STREAMS_AT,
        "phone_holds": PHONE_HOLDS,
        "stranger_holds": STRANGER_HOLDS,
        "address_holds": ADDRESS_HOLDS,
        "stranger_bodies": STRANGER_BODIES,
        "phone_asks_per_second": PHONE_ASKS_PER_SECOND,
        "stranger_asks_per_second": STRANGER_ASKS_PER_SECOND,
        "address_asks_per_second": ADDRESS_ASKS_PER_SECOND,
        "phone_burst": PHONE_BURST,
        "stranger_burst": STRANGER_BURST,
        "address_burst": ADDRESS_BURST,
        "message_seconds": MESSAGE_SECONDS,
        "stream_seconds": stream_seconds,
        "redis": redis,
        "languages": _language_maps(),
        "upstream": "\n".join(f"    server {app};" for app in apps),
        "listen": listen,
        "publish": publish,
    }
    return _NginxTemplate(TEMPLATE.read_text()).substitute(blanks)


class _NginxTemplate(string.Template):
    """``{{ name }}`` blanks: nginx's own ``$variables`` and braces stay as written,
    and a blank with no value, or one misspelled, is an error, never left in."""

    pattern = r"""
    \{\{\s*(?:
      (?P<named>[a-z_]+)\s*\}\}
      | (?P<braced>(?!))
      | (?P<escaped>(?!))
      | (?P<invalid>)
    )"""


def _proxies(trusted: list[str]) -> str:
    """The TLS proxy or load balancer's word on each request's address and scheme,
    taken from it alone ("*": from any address, then only its own entry, the last)."""
    proxies = [proxy.strip() for proxy in trusted if proxy.strip()]
    anyone = "*" in proxies
    if anyone:
        proxies = ["0.0.0.0/0", "::/0"]
    believed = "".join(f"  set_real_ip_from {proxy};\n" for proxy in proxies)
    if believed:
        # With a list, the chain is walked back past every proxy in it; with any
        # address trusted, only the entry the last hop added is taken, as a client
        # can write the others.
        recursive = "off" if anyone else "on"
        believed += f"  real_ip_header X-Forwarded-For;\n  real_ip_recursive {recursive};\n"
    through = "".join(f"    {proxy} 1;\n" for proxy in proxies)
    return f"""{believed}  # The scheme is believed only from a trusted proxy.
  geo $realip_remote_addr $through_a_proxy {{
    default 0;
{through}  }}
  map "$through_a_proxy:$http_x_forwarded_proto" $forwarded_scheme {{
    "1:https" https;
    "1:http" http;
    default $scheme;
  }}"""


def _who_is_counted(pass_secret: str) -> str:
    """$phone (a signed-in phone's pass), $stranger (the address of a request without a
    valid pass) and $address (every request's, an IPv6 one by its /64), as the limits
    count them; and $stranger_body, set on a stranger's request that has a body."""
    return rf"""  map $remote_addr $address {{
{_ipv6_networks()}    default $remote_addr;
  }}
  map $cookie_{PASS_COOKIE} $pass_id {{
    "~^([0-9a-f]{{16}})\.[0-9]+\.[A-Za-z0-9_-]{{22}}$" $1;
    default "";
  }}
  map $cookie_{PASS_COOKIE} $pass_signed {{
    "~^[0-9a-f]{{16}}\.([0-9]+)\.([A-Za-z0-9_-]{{22}})$" $2,$1;
    default "";
  }}
  secure_link $pass_signed;
  secure_link_md5 "$pass_id.$secure_link_expires.{pass_secret}";
  map $secure_link $phone {{
    "1" $pass_id;
    default "";
  }}
  map $secure_link $stranger {{
    "1" "";
    default $address;
  }}
  map "$secure_link:$http_content_length$http_transfer_encoding" $stranger_body {{
    "~^1:" "";
    "~^[^:]*:0?$" "";
    default strangers;
  }}"""


HEX_GROUP = "[0-9a-f]{1,4}"


def _ipv6_networks() -> str:
    """Lines of a map from an IPv6 address, as nginx writes one (lower case, the
    longest run of zero groups as "::"), to its /64: its first four groups."""
    lines = ['    "~^::ffff:([0-9.]+)$" $1;\n']  # an IPv4 address in IPv6 clothes
    for before in range(4):
        for after in range(8 - before):
            zeros = 8 - before - after
            groups = [f"${n + 1}" for n in range(before)] + ["0"] * zeros
            groups += [f"${before + n + 1}" for n in range(after)]
            head = ":".join([f"({HEX_GROUP})"] * before)
            tail = ":".join(
                f"({HEX_GROUP})" if n < 4 - before - zeros else HEX_GROUP for n in range(after)
            )
            lines.append(f'    "~^{head}::{tail}$" {":".join(groups[:4])};\n')
    lines.append(f'    "~^(({HEX_GROUP}:){{3}}{HEX_GROUP}):" $1;\n')
    return "".join(lines)


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
