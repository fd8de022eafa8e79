"""A module whose import fails in its own code, as a user's settings module may."""

raise RuntimeError("SECRET_KEY is not set")
