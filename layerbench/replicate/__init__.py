"""The published experiments (`layerbench replicate`, `--seed`): each a data file, read and
validated, and their figures beside a run's."""
