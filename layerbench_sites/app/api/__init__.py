"""The demo site's JSON API (Falcon): videos, comments, tags, history, OpenAPI."""
