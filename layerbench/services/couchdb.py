"""A throwaway CouchDB-compatible store on a loopback port, its data in the private directory.

``server=pouchdb`` (the default): pouchdb-server 4.2 (CouchDB's HTTP API over LevelDB), from
the project's own ``node/package.json`` under its lock file, which ``scripts/setup.sh``
installs into ``node/node_modules`` with ``npm ci``; Debian 12 has no CouchDB. Its
configuration is a ``config.json`` in the directory (warnings only in its log: no line per
request).

``server=apache``: Apache CouchDB, where it is installed (``/opt/couchdb``, its own packages);
refused in one line where it is not.
"""

import http.client
import json
from pathlib import Path

from layerbench.errors import ConfigError, LayerbenchError, MissingBinaryError, MissingPackageError
from layerbench.services.couchdb_client import CouchdbClient
from layerbench.services.service import START_TIMEOUT_S, ManagedService
from layerbench.words import did_you_mean

PROJECT_ROOT = Path(__file__).resolve().parents[2]
NODE_DIRECTORY = PROJECT_ROOT / "node"
POUCHDB_SERVER = NODE_DIRECTORY / "node_modules" / "pouchdb-server" / "bin" / "pouchdb-server"
APACHE_COUCHDB = Path("/opt/couchdb/bin/couchdb")
APACHE_DEFAULT_INI = Path("/opt/couchdb/etc/default.ini")
SERVERS = ("pouchdb", "apache")
# Apache CouchDB 3 answers nothing without an administrator: ours, for this instance only.
APACHE_ADMIN = ("layerbench", "layerbench")


class MissingNodePackageError(MissingBinaryError):
    """pouchdb-server is not in node/node_modules: the project's setup installs it."""

    def __init__(self, program: str) -> None:
        self.program = program
        self.apt_package = "npm"
        MissingPackageError.__init__(
            self, program, "bash scripts/setup.sh (npm ci in node/; Debian's nodejs and npm)"
        )


class CouchdbService(ManagedService):
    name = "couchdb"
    apt_package = "nodejs"
    port_taken_marker = "is already in use"

    def __init__(
        self,
        *,
        server: str = "pouchdb",
        cpus: frozenset[int] | None = None,
        start_timeout_s: float = START_TIMEOUT_S,
    ) -> None:
        if server not in SERVERS:
            head = f"couchdb.server={server}: one of {', '.join(SERVERS)}"
            raise ConfigError(did_you_mean(head, server, SERVERS, ""))
        if server == "apache" and not APACHE_COUCHDB.is_file():
            raise ConfigError(
                f"couchdb.server=apache: Apache CouchDB is not installed here (no "
                f"{APACHE_COUCHDB}; Debian 12 has no package of it), pouchdb is the default"
            )
        super().__init__(cpus=cpus, start_timeout_s=start_timeout_s)
        self.server = server

    def programs(self) -> dict[str, str]:
        if self.server == "apache":
            return {"couchdb": str(APACHE_COUCHDB)}
        return {"node": "node", "pouchdb-server": str(POUCHDB_SERVER)}

    def find(self, program: str) -> Path:
        if program == "pouchdb-server":
            if not POUCHDB_SERVER.is_file():
                raise MissingNodePackageError(program)
            return POUCHDB_SERVER
        return super().find(program)

    def prepare(self, directory: Path) -> None:
        (directory / "data").mkdir()
        if self.server == "apache":
            return
        config = {
            "couchdb": {"database_dir": str(directory / "data")},
            "log": {"file": str(directory / "pouchdb.log"), "level": "warning"},
        }
        (directory / "config.json").write_text(json.dumps(config))
        if self.run_as is not None:
            self.run_as.give(directory / "data")
            self.run_as.give(directory / "config.json")

    def command(self, directory: Path, port: int) -> list[str]:
        if self.server == "apache":
            return self._apache_command(directory, port)
        return [
            str(self.find("node")),
            str(self.find("pouchdb-server")),
            "--host",
            self.host,
            "--port",
            str(port),
            "--dir",
            str(directory / "data"),
            "--config",
            str(directory / "config.json"),
            "--no-color",
        ]

    def _apache_command(self, directory: Path, port: int) -> list[str]:
        """Apache CouchDB 3 on its default.ini and ours (data, port, address, administrator)."""
        user, password = APACHE_ADMIN
        local = directory / "local.ini"
        local.write_text(
            f"[couchdb]\ndatabase_dir = {directory / 'data'}\n"
            f"view_index_dir = {directory / 'data'}\nsingle_node = true\n"
            f"[chttpd]\nport = {port}\nbind_address = {self.host}\n"
            f"[admins]\n{user} = {password}\n"
            "[log]\nlevel = warning\n"
        )
        if self.run_as is not None:
            self.run_as.give(local)
        return [
            str(self.find("couchdb")),
            "-couch_ini",
            str(APACHE_DEFAULT_INI),
            str(local),
        ]

    def url_for(self, port: int) -> str:
        if self.server == "apache":
            user, password = APACHE_ADMIN
            return f"http://{user}:{password}@{self.host}:{port}"
        return f"http://{self.host}:{port}"

    def probe(self, url: str) -> None:
        probe_couchdb(url)


def probe_couchdb(url: str) -> None:
    """Its welcome document: CouchDB's ``{"couchdb": "Welcome"}`` or pouchdb-server's."""
    client = CouchdbClient(url, timeout_s=2.0)
    try:
        status, welcome = client.request("GET", "/")
    except (OSError, ValueError, http.client.HTTPException) as error:
        raise LayerbenchError(f"CouchDB at {url} does not answer: {error}") from None
    finally:
        client.close()
    if status != 200 or not isinstance(welcome, dict):
        raise LayerbenchError(f"CouchDB at {url} does not answer: HTTP {status}")
    if "couchdb" not in welcome and "express-pouchdb" not in welcome:
        raise LayerbenchError(f"{url} answers, but not as CouchDB: {welcome}")
