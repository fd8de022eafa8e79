"""`layerbench matrix`: the command, its options and progress, the run, and its table."""

from layerbench.matrix.matrix_kind import MATRIX_KIND
from layerbench.store.run_summary import register_kind

# The store reads this slice's documents whenever any part of the slice is loaded.
register_kind(MATRIX_KIND)
