"""The ladder's framework rungs as a Pyramid 2 application, deployed as Pylons applications were:
a paste.deploy ini (``pyramid_site.ini``) loaded by ``pyramid_wsgi``, Chameleon templates,
SQLAlchemy 2 models mapped onto the data layer's tables, and a page cache swept after each
committed write."""
