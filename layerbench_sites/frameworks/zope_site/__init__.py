"""The Zope application: the Zope application server (Zope 6) through paste.deploy, a Zope Page
Template, the rung data as persistent objects in ZODB (see :mod:`wsgi`)."""
