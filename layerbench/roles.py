"""The roles a trial's processes play, as the sampler groups them and results name them."""

CLIENT_ROLE = "client"  # the load generator
SERVER_ROLE = "server"  # the server running the application (or serving the static file)
FRONT_ROLE = "front"  # a server in front of it (nginx before uWSGI)
DATABASE_ROLE = "database"
CACHE_ROLE = "cache"
UPSTREAM_ROLE = "upstream"  # the upstream rung's delaying server
