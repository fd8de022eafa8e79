"""zope.conf's ``<mariadb>`` section (:file:`component.xml`): RelStorage's ``<mysql>``, whose
adapter is the project's MariaDB one (:mod:`layerbench_sites.relstorage_mariadb`: RelStorage's
MySQL adapter takes MariaDB for the MySQL its version number would be)."""

from typing import Any

from relstorage.config import MySQLAdapterFactory  # type: ignore[import-untyped]

from layerbench_sites.relstorage_mariadb import MariadbAdapter


class MariadbAdapterFactory(MySQLAdapterFactory):  # type: ignore[misc]
    def create(self, options: Any) -> MariadbAdapter:
        params = {
            key: value
            for key in self.config.getSectionAttributes()
            if key != "driver" and (value := getattr(self.config, key)) is not None
        }
        return MariadbAdapter(options=options, **params)
