"""The couchdb rung: the seed's row as a CouchDB document, one GET over CouchDB's HTTP API on a
kept-alive connection (http.client, one per thread), its JSON parsed and the row's value
answered. A missing document (404) is missing rung data; any other answer but 200 is an error."""

import json

from layerbench.rungs.rung_data import (
    HELLO_DOCUMENT_FIELD,
    HELLO_DOCUMENT_PATH,
    MissingRungDataError,
)
from layerbench.services.couchdb_client import CouchdbClient
from layerbench_sites.app.rung_handlers import TEXT, Response

NOT_FOUND = 404


class CouchdbAnswerError(Exception):
    """CouchDB answered the document's GET with neither the document nor a 404."""


def read_hello_document(client: CouchdbClient) -> Response:
    status, body = client.get_raw(HELLO_DOCUMENT_PATH)
    if status == NOT_FOUND:
        raise MissingRungDataError("CouchDB")
    if status != 200:
        raise CouchdbAnswerError(f"CouchDB answered HTTP {status}: {body[:200]!r}")
    value = json.loads(body).get(HELLO_DOCUMENT_FIELD)
    if not isinstance(value, str):
        raise MissingRungDataError("CouchDB")
    return "200 OK", TEXT, value.encode()
