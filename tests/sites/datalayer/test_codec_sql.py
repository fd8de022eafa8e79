"""The short-id codec in SQL (a PostgreSQL function; MariaDB's CONV) agrees with Python's, on the
edge values and on random ones, and refuses what Python refuses."""

import psycopg
import pymysql
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from layerbench_sites.datalayer.numids import from_signed, to_signed
from layerbench_sites.ids.codec import MAX_NUMBER, encode
from tests.datalayer_backends import mariadb_backend, postgres_backend

pytestmark = pytest.mark.services

EDGES = [0, 1, 35, 36, 2**31, 2**32 - 1, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1]
BAD_IDS = [
    "",
    "000000000000",  # 12 characters
    "00000000000000",  # 14
    "000000000000A",  # upper case
    "000000000000-",
    "3w5e11264sgsg",  # 2**64: one beyond the largest
    "zzzzzzzzzzzzz",
]
RANDOM = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def pg(postgres_url: str):  # type: ignore[no-untyped-def]
    backend, drop = postgres_backend(postgres_url)
    connection = backend.connect()
    yield connection
    connection.close()
    drop()


@pytest.fixture(scope="module")
def maria(mariadb_url: str):  # type: ignore[no-untyped-def]
    backend, drop = mariadb_backend(mariadb_url)
    connection = backend.connect()
    yield connection
    connection.close()
    drop()


def pg_encode(connection: psycopg.Connection[tuple[object, ...]], numid: int) -> str:
    row = connection.execute("SELECT encode_id(%s)", (to_signed(numid),)).fetchone()
    assert row is not None
    return str(row[0])


def pg_decode(connection: psycopg.Connection[tuple[object, ...]], identifier: str) -> int:
    row = connection.execute("SELECT decode_id(%s)", (identifier,)).fetchone()
    assert row is not None
    return from_signed(int(row[0]))  # type: ignore[call-overload]


def maria_encode(connection: pymysql.connections.Connection, numid: int) -> tuple[str, str]:
    """The stored function, and CONV written out as the CHECK constraint uses it."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT encode_id(%s), LPAD(LOWER(CONV(%s, 10, 36)), 13, '0')", (numid, numid)
        )
        row = cursor.fetchone()
    assert row is not None
    return str(row[0]), str(row[1])


def maria_decode(connection: pymysql.connections.Connection, identifier: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT decode_id(%s)", (identifier,))
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.parametrize("numid", EDGES)
def test_edges_agree(pg, maria, numid: int) -> None:  # type: ignore[no-untyped-def]
    identifier = encode(numid)
    assert pg_encode(pg, numid) == identifier
    assert pg_decode(pg, identifier) == numid
    assert maria_encode(maria, numid) == (identifier, identifier)
    assert maria_decode(maria, identifier) == numid


def test_the_seeds_values(pg, maria) -> None:  # type: ignore[no-untyped-def]
    for numid, identifier in ((0, "0000000000000"), (35, "000000000000z")):
        assert pg_encode(pg, numid) == identifier
        assert maria_encode(maria, numid)[0] == identifier
    assert pg_encode(pg, MAX_NUMBER) == "3w5e11264sgsf"


@RANDOM
@given(numid=st.integers(min_value=0, max_value=MAX_NUMBER))
def test_random_values_agree(pg, maria, numid: int) -> None:  # type: ignore[no-untyped-def]
    identifier = encode(numid)
    assert pg_encode(pg, numid) == identifier
    assert pg_decode(pg, identifier) == numid
    assert maria_encode(maria, numid) == (identifier, identifier)
    assert maria_decode(maria, identifier) == numid


@pytest.mark.parametrize("identifier", BAD_IDS)
def test_bad_ids_are_refused_in_sql(pg, maria, identifier: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(psycopg.Error):
        pg_decode(pg, identifier)
    with pytest.raises(pymysql.MySQLError):
        maria_decode(maria, identifier)
