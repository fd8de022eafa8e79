"""The lab: plans trials, verifies, warms up, measures, and records the results."""
