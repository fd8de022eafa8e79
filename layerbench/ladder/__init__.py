"""`layerbench ladder` and `layerbench mix` (a ladder run of two rungs and their mix): the
commands, their options and progress, the run, and its tables."""
