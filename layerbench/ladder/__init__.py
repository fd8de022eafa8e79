"""`layerbench ladder` and `layerbench mix` (a ladder run of two rungs and their mix): the
commands, their options and progress, the run, and its tables."""

from layerbench.ladder.ladder_kind import LADDER_KIND
from layerbench.store.run_summary import register_kind

# The store reads this slice's documents whenever any part of the slice is loaded.
register_kind(LADDER_KIND)
