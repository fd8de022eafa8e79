"""What each rung's layer is in a framework's application, by rung name: the text a ladder prints
beside the rung (``orm  the row through the Django ORM``). The rung definitions describe the
bare application's layers (:mod:`layerbench.rungs.definitions`); a rung not named here keeps
that text."""

Layers = tuple[tuple[str, str], ...]

DJANGO_LAYERS: Layers = (
    ("string", "a Python string from a Django view (URLconf, middleware)"),
    ("orm", "the row through the Django ORM"),
    ("template", "the Django ORM row rendered by a Django template"),
    ("page", "the site's video page through the Django ORM and templates, on every request"),
    ("cached-page", "the same page from Django's cache framework"),
    ("write", "a comment saved through the Django ORM: the audit trigger, the signals' sweep"),
)
FLASK_LAYERS: Layers = (
    ("string", "a Python string from a Flask view"),
    ("orm", "the row through SQLAlchemy 2's ORM, in a Flask view"),
    ("template", "the SQLAlchemy row rendered by a Jinja2 template (Flask's render_template)"),
    ("page", "the site's video page through SQLAlchemy and Jinja2, on every request"),
    ("cached-page", "the same page from the Flask site's page cache"),
    ("write", "a comment through SQLAlchemy: the audit trigger, the sweep after commit"),
)
PYRAMID_LAYERS: Layers = (
    ("string", "a Python string from a Pyramid view"),
    ("orm", "the row through SQLAlchemy's ORM, in a Pyramid view"),
    ("template", "the SQLAlchemy row rendered by a Chameleon template (pyramid_chameleon)"),
    ("page", "the site's video page through SQLAlchemy and Chameleon, on every request"),
    ("cached-page", "the same page from the Pyramid site's page cache"),
    ("write", "a comment through SQLAlchemy: the audit trigger, the sweep after commit"),
)
ZOPE_LAYERS: Layers = (
    ("string", "a Python string from a method Zope's publisher traverses to"),
    ("orm", "the row as a persistent object through ZODB (a ZEO client's cache)"),
    ("template", "the ZODB row rendered by a Zope Page Template"),
    ("page", "the site's video page from ZODB objects by a Zope Page Template, every request"),
    ("cached-page", "the same page from the Zope process's page cache"),
)
RAILS_LAYERS: Layers = (
    ("string", "a Ruby string from a Rails controller (Rack, Rails' middleware)"),
    ("orm", "the row through ActiveRecord"),
    ("template", "the ActiveRecord row rendered by an ERB view"),
    ("page", "the site's video page through ActiveRecord and ERB, on every request"),
    ("cached-page", "the same page from caches_page's file, answered by the front (Apache)"),
    ("write", "a comment saved through ActiveRecord: the audit trigger, the cache_sweeper"),
)
