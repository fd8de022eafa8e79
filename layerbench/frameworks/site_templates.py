"""The Jinja2 templates of the Flask and Starlette sites, one set for both (the video page and
the template rung's hello): both render them with Jinja2 over the same models
(:mod:`layerbench.frameworks.site_models`). Django's are its own template language's; Pyramid's
are Chameleon's."""

from pathlib import Path

JINJA_TEMPLATES = Path(__file__).parent / "templates"
VIDEO_TEMPLATE = "jinja_video.html"
HELLO_TEMPLATE = "jinja_hello.html"
