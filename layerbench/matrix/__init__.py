"""`layerbench matrix`: the command, its options and progress, the run, and its table."""
