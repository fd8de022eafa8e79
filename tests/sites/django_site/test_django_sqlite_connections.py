"""The Django site keeps its SQLite connections between requests, as it does on PostgreSQL and
MariaDB and as the bare application does: a connection per thread, opened once. With Django's
default (CONN_MAX_AGE 0) every request opened the site's database again (seen failing: 3
connections for 3 requests), a cost the bare application does not pay and the page rung's
profile showed as the exceptions of the reconnect."""

import json
import os
import subprocess
import sys
from pathlib import Path

from layerbench_sites.app.app_config import DB_PATH_VARIABLE
from layerbench_sites.app.ladder_data import prepare_app_data

# Three page requests in one thread, in a process of its own (Django is set up once per
# process); prints how many connections each database alias opened.
COUNT_CONNECTIONS = """
import json
from collections import Counter
from django.db.backends.signals import connection_created
opened = Counter()
connection_created.connect(
    lambda sender, connection, **_: opened.update([connection.alias]), weak=False
)
from layerbench.cost.collect_child import Caller
from layerbench_sites.frameworks.django_site.wsgi import application
caller = Caller(application, {"method": "GET", "path": "/ladder/page"})
for _ in range(3):
    caller.call()
print(json.dumps({"statuses": caller.statuses, "opened": opened}))
"""


def test_the_django_site_opens_its_sqlite_database_once_per_thread(tmp_path: Path) -> None:
    data = prepare_app_data(tmp_path / "data")
    environment = {**os.environ, **data.environment, DB_PATH_VARIABLE: str(data.db_path)}
    done = subprocess.run(
        [sys.executable, "-c", COUNT_CONNECTIONS],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    counted = json.loads(done.stdout.splitlines()[-1])
    assert counted["statuses"] == {"200": 3}
    assert counted["opened"] == {"default": 1}, counted
