"""WhiteNoise's middleware as the tests make it, its static files read once a run.

Django's test client loads the middleware afresh for each client, and WhiteNoise reads
the whole folder of collected files each time it is made (a stat and the headers of
each of some 300 files: 52 ms), which the served site does once a process. Over the
suite's 1,500 clients that was a quarter of `make quick`. The files are the same all
run long (collected once, tests/conftest.py), so what one instance read serves the
next; everything else is WhiteNoise's own, as it serves the site.
"""

from typing import Any

from whitenoise.middleware import WhiteNoiseMiddleware

# What each folder's files came to, by (folder, prefix), as WhiteNoise keeps them.
_READ: dict[tuple[str, str], dict[str, Any]] = {}


class StaticFilesReadOnce(WhiteNoiseMiddleware):
    def update_files_dictionary(self, root: str, prefix: str) -> None:
        key = (root, prefix)
        if key not in _READ:
            before = dict(self.files)
            super().update_files_dictionary(root, prefix)
            _READ[key] = {url: found for url, found in self.files.items() if url not in before}
        self.files.update(_READ[key])
