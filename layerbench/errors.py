"""Errors a user can act on.

Every error that reaches the command line is a ``LayerbenchError``: its message says what went
wrong and what to do, in one line, and the CLI prints it without a traceback. Commands raise
them and never print them: cli/main.py alone turns each into its message and exit status.

    LayerbenchError
     +-- MissingPackageError     something we run is not installed (says how to install it)
     |    +-- MissingBinaryError a system program or module (names its apt, dnf and brew package)
     +-- PortInUseError          a port we were told to use is taken
     +-- ServerStartError        a server did not come up (carries its log tail)
     +-- ServerDiedError         a server exited while we were using it
     +-- VerificationError       a rung answered the wrong status or body
     +-- LoadGeneratorError      the load generator failed or printed something unreadable
     +-- ConfigError             an option or setting is wrong (a usage error)
     +-- NothingMeasuredError    a smoke test measured nothing (any cause before its first
     |                           trial): never a regression, so it fails a build as a usage error
     +-- MeasurementFailedError  a smoke test's measurement failed once begun (its server died,
     |                           the load generator failed): its own exit status, neither a
     |                           regression nor a usage error
     +-- IncompleteRunError      a run ended and its results are kept and shown, but what it was
     |                           for was not done (a mix not predicted): a finding, not a fault
     +-- ResultsDatabaseError    the results database cannot be read or written
     +-- OutputError             stdout cannot be written (a full disk; a closed pipe is not one)
"""

from layerbench.system_packages import install_commands


class LayerbenchError(Exception):
    """An error with a message fit for the user."""


class MissingPackageError(LayerbenchError):
    """Something we run is not installed; the message says how to install it."""

    def __init__(self, what: str, install_command: str) -> None:
        self.install_command = install_command
        super().__init__(f"{what} is not installed; install it with: {install_command}")


class MissingBinaryError(MissingPackageError):
    def __init__(self, program: str, apt_package: str) -> None:
        self.program = program
        self.apt_package = apt_package
        super().__init__(program, install_commands(apt_package))


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


class NothingMeasuredError(LayerbenchError):
    """What stopped a smoke test before its first trial; its message is the cause's."""

    def __init__(self, cause: LayerbenchError) -> None:
        self.cause = cause
        super().__init__(str(cause))


# A smoke test's exit status when its measurement failed (cli/main.py gives it).
EXIT_MEASUREMENT_FAILED = 4


class MeasurementFailedError(LayerbenchError):
    """What stopped a smoke test's measurement once its trials had begun (its server died,
    the load generator failed, requests failed); its message is the cause's."""

    def __init__(self, cause: LayerbenchError) -> None:
        self.cause = cause
        super().__init__(f"the measurement failed: {cause}")


class IncompleteRunError(LayerbenchError):
    pass


class ResultsDatabaseError(LayerbenchError):
    pass


class OutputError(LayerbenchError):
    pass
