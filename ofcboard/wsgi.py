"""WSGI entry point: `python -m ofcboard.serve` serves it (see ofcboard/serve.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ofcboard.settings")

application = get_wsgi_application()
