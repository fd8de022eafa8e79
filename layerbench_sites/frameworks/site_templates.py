"""The Jinja2 templates of the Flask and Starlette sites, one set for both (the video page and
the template rung's hello): both render them with Jinja2 over the same models
(:mod:`layerbench_sites.frameworks.site_models`). Django's are its own template language's: its
template rung measures Django's engine (app_layers.py), and through Django's Jinja2 backend
these files would change its video page (another markup; ``c-`` with no id, a Django comment's
short id being ``short_id``; markupsafe's ``&#39;`` for its ``&#x27;``). Pyramid's are
Chameleon's."""

from pathlib import Path

JINJA_TEMPLATES = Path(__file__).parent / "templates"
VIDEO_TEMPLATE = "jinja_video.html"
HELLO_TEMPLATE = "jinja_hello.html"
