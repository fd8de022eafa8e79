"""The applications under test beside the bare WSGI one: each framework's own idiomatic
application, in a package of its own, answering the ladder's rungs it can."""
