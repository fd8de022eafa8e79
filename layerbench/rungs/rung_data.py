"""The rung data, as in the seed: one table with one row ``(1, 'Hello world!')``."""

HELLO_ID = 1
HELLO_VALUE = "Hello world!"

HELLO_TABLE_DDL = "CREATE TABLE hello (id INTEGER PRIMARY KEY, value TEXT NOT NULL)"
HELLO_INSERT = "INSERT INTO hello (id, value) VALUES (?, ?)"
HELLO_SELECT = "SELECT value FROM hello WHERE id = ?"

# The same row in the server databases of the full ladder (InnoDB, as in the seed).
HELLO_TABLE_DDL_MARIADB = (
    "CREATE TABLE hello (id INT PRIMARY KEY, value VARCHAR(64) NOT NULL) ENGINE=InnoDB"
)
HELLO_INSERT_FORMAT = "INSERT INTO hello (id, value) VALUES (%s, %s)"
HELLO_SELECT_FORMAT = "SELECT value FROM hello WHERE id = %s"
# The raw C driver (``MySQLdb._mysql``) takes a query string, no parameters.
HELLO_SELECT_LITERAL = f"SELECT value FROM hello WHERE id = {HELLO_ID}"
# The key the memcached and Redis rungs read.
HELLO_CACHE_KEY = f"hello:{HELLO_ID}"
# The row as a CouchDB document: its database and id, and the field the couchdb rung reads.
HELLO_COUCHDB_DATABASE = "layerbench"
HELLO_DOCUMENT_ID = f"hello-{HELLO_ID}"
HELLO_DOCUMENT_PATH = f"/{HELLO_COUCHDB_DATABASE}/{HELLO_DOCUMENT_ID}"
HELLO_DOCUMENT_FIELD = "value"

# The demo site's video that the page rungs show and the write rung comments on.
PAGE_VIDEO_PRETTYID = "hello-world"
PAGE_VIDEO_TITLE = "Hello world!"
PAGE_VIDEO_COMMENTS = 10
# The video the write rung comments on: another one, so that the page rungs read the same page
# however many times the write rung has run before them.
WRITE_VIDEO_PRETTYID = "write-here"


class MissingRungDataError(Exception):
    """The data a rung reads is not where the seeding put it: an error, never a fast empty
    answer."""

    def __init__(self, where: str) -> None:
        super().__init__(f"the rung data is missing from {where}")
