"""`layerbench cluster`: the command, its plan, the site on the app hosts, the writers and
readers, its result and tables."""
