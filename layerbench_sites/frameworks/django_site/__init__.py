"""The ladder's framework rungs and the demo site's video page and comments, written with Django
5.2: views, a URLconf, Django templates, the Django ORM on the project's own tables and Django's
cache framework for the page cache (entry: ``wsgi:application``)."""
