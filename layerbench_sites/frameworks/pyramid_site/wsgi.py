"""The Pyramid application's WSGI entry: the package's paste.deploy ini, loaded once per
process (``layerbench_sites.frameworks.pyramid_site.wsgi:application``)."""

from pathlib import Path

from paste.deploy import loadapp  # type: ignore[import-untyped]

INI = Path(__file__).with_name("production.ini")

application = loadapp(f"config:{INI}")
