"""The Starlette application (ASGI): Starlette routes, Jinja2 templates through
``starlette.templating``, async SQLAlchemy 2 (aiosqlite, psycopg's async mode, aiomysql) on the
project's tables, an async page cache and its sweeper (entry ``asgi:application``).
Its data layer and cache are the FastAPI application's too."""
