"""The rung data, as in the seed: one table with one row ``(1, 'Hello world!')``."""

HELLO_ID = 1
HELLO_VALUE = "Hello world!"

HELLO_TABLE_DDL = "CREATE TABLE hello (id INTEGER PRIMARY KEY, value TEXT NOT NULL)"
HELLO_INSERT = "INSERT INTO hello (id, value) VALUES (?, ?)"
HELLO_SELECT = "SELECT value FROM hello WHERE id = ?"
