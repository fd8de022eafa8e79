"""Errors a user can act on.

Every error that reaches the command line is a ``LayerbenchError``: its message says what went
wrong and what to do, in one line, and the CLI prints it without a traceback.

    LayerbenchError
     +-- MissingBinaryError      a program we need is not installed (names the apt package)
     +-- PortInUseError          a port we were told to use is taken
     +-- ServerStartError        a server did not come up (carries its log tail)
     +-- ServerDiedError         a server exited while we were using it
     +-- VerificationError       a rung answered the wrong status or body
     +-- LoadGeneratorError      the load generator failed or printed something unreadable
     +-- ConfigError             an option or setting is wrong
"""


class LayerbenchError(Exception):
    """An error with a message fit for the user."""


class MissingBinaryError(LayerbenchError):
    def __init__(self, program: str, apt_package: str) -> None:
        self.program = program
        self.apt_package = apt_package
        super().__init__(
            f"{program} is not installed; install it with: apt-get install {apt_package}"
        )


class PortInUseError(LayerbenchError):
    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        super().__init__(
            f"port {port} on {host} is already in use; "
            "stop what listens there or choose another port"
        )


class ServerStartError(LayerbenchError):
    def __init__(self, server: str, reason: str, log_tail: str = "") -> None:
        self.server = server
        self.log_tail = log_tail
        message = f"{server} did not start: {reason}"
        if log_tail:
            message += "; last lines of its log:\n" + log_tail
        super().__init__(message)


class ServerDiedError(LayerbenchError):
    def __init__(self, server: str, returncode: int | None, log_tail: str = "") -> None:
        self.server = server
        message = f"{server} exited unexpectedly (exit status {returncode})"
        if log_tail:
            message += "; last lines of its log:\n" + log_tail
        super().__init__(message)


class VerificationError(LayerbenchError):
    """A rung's response was wrong: it is an error, never a fast result."""


class LoadGeneratorError(LayerbenchError):
    pass


class ConfigError(LayerbenchError):
    pass
