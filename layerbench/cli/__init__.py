"""The command line: one function per subcommand; the work is done in the library."""
