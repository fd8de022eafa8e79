"""`layerbench writes`: the command, its stores, the run and its result."""
