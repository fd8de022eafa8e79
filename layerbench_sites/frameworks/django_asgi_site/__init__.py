"""The Django application served through Django's ASGI handler (entry
``asgi:application``): the Django site's models, templates, comment write and page
sweeper (:mod:`layerbench_sites.frameworks.django_site`), with async views. Django's async ORM API
(``afirst``, ``async for``) and its async cache API (``aget_many``, ``aset``) where Django has
them; Django 5.2 runs both on its worker threads (its database backends are sync), and a
transaction, which has no async API, runs whole in ``sync_to_async``."""
