"""`layerbench smoke`: the command, its conditions, baseline and reference checkout, the run,
its verdicts and table, and its instructions gate."""
