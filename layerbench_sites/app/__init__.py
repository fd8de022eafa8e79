"""The reference application: a WSGI service whose endpoints are the ladder's rungs."""
