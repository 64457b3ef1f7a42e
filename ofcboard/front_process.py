"""The front's nginx as a process of the app server's (ofcboard/serve.py): its files
written to a folder of its own and checked, nginx started in the foreground in a
process group of its own, stopped with the server, and its error log passed on with
every secret address hidden. What it is told to do is ofcboard/front.py's."""

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import IO

from ofcboard.front import STREAM_SECONDS, Nginx, config, refusal_pages


def _die_with_parent() -> None:
    # nginx is stopped with the server that started it, even when that one is killed.
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Front:
    """A running nginx and the folder of its files. nginx runs in a process group of
    its own, so that its workers go with it when its master dies; what it writes to its
    error log is passed on with every secret address hidden."""

    def __init__(self, command: list[str], folder: Path) -> None:
        self.command = command
        self.folder = folder
        self.stopping = False
        self.process = self._launch()

    def _launch(self) -> subprocess.Popen:
        process = subprocess.Popen(
            [*self.command, "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        threading.Thread(target=_pass_on, args=(process.stderr,), daemon=True).start()
        return process

    def wait(self) -> int:
        """Until nginx's master stops, and then its workers, which a master that dies
        suddenly leaves behind, still holding the port: its exit status."""
        status = self.process.wait()
        self._end_group(signal.SIGKILL)
        return status

    def restart(self) -> None:
        """nginx started again as it was (once :meth:`wait` is over)."""
        self.process = self._launch()

    def stop(self) -> None:
        self.stopping = True
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._end_group(signal.SIGKILL)
        shutil.rmtree(self.folder, ignore_errors=True)

    def _end_group(self, sent: signal.Signals) -> None:
        # The group nginx's master led: its workers, if the master died before them.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, sent)
        self.process.wait()


def _pass_on(log: IO[bytes]) -> None:
    """nginx's error log, line by line, to the server's own, every join link, sign-in
    code and big screen's link in it hidden (scorekeeper/site/log_secrets.py): nginx
    writes the request line, the referrer and the upstream's address beside whatever
    it has to say about a request, and has no setting to leave them out."""
    from scorekeeper.site.log_secrets import hide_secrets

    with log:
        for line in log:
            sys.stderr.write(hide_secrets(line.decode(errors="replace")))
            sys.stderr.flush()


def start(
    nginx: Nginx,
    *,
    listen: str,
    apps: list[str],
    publish: str,
    pass_secret: str,
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
        pass_secret=pass_secret,
        redis_url=os.environ.get("OFCBOARD_PUSH_REDIS", ""),
        redis_namespace=os.environ.get("OFCBOARD_PUSH_NAMESPACE", "ofcboard"),
        trusted_proxies=trusted_proxies,
        stream_seconds=int(os.environ.get("OFCBOARD_STREAM_SECONDS") or STREAM_SECONDS),
    )
    # The pass secret is in it: for nginx's master (this user) alone.
    configuration = folder / "nginx.conf"
    configuration.touch(0o600)
    configuration.write_text(text)
    refusal_pages(folder)
    command = [nginx.binary, "-p", str(folder), "-e", "stderr", "-c", str(configuration)]
    checked = subprocess.run([*command, "-t", "-q"], capture_output=True, text=True)
    if checked.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise SystemExit(f"nginx does not take the front's configuration:\n{checked.stderr}")
    return Front(command, folder)
