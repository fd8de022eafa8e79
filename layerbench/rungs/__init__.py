"""The ladder's rungs as one concept: their definitions (what each asks for and the answer it
must give, in the ladder's order), the data they read, and its seeding. An application (the bare
WSGI one in ``layerbench_sites.app``) implements the rungs against these definitions."""
