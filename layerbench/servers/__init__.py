"""Server adapters: run the application (or a static file) under one server, ready or failed."""
