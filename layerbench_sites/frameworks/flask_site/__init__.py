"""The Flask 3 application: Jinja2 templates, SQLAlchemy 2 models on the project's tables, a page
cache and its sweeper (entry ``wsgi:application``)."""
