"""The gardener's errors: one base class, each with the CLI exit code it maps to."""

from __future__ import annotations

# the exit codes, named once: the CLI maps every error to one of these
EXIT_OK = 0
EXIT_ERROR = 1  # a GardenerError or an OSError
EXIT_USAGE = 2  # a bad command line (click's own code for it)
EXIT_REFUSED = 3  # a never-store rule refused the content
EXIT_PROBLEMS = 4  # ``gardener check`` found problems


class GardenerError(Exception):
    """Base of every error the gardener raises on purpose (exit code 1).

    ``path`` and ``line`` (1-based) name where bad input was found, when known.
    """

    exit_code = EXIT_ERROR

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.message = message
        self.path = path
        self.line = line
        super().__init__(self.location_message())

    def location_message(self) -> str:
        """The message prefixed with ``path:line:`` when the location is known."""
        if self.path is None:
            return self.message
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


class ParseError(GardenerError):
    """A file could not be read as the format it should have."""


class ConfigError(GardenerError):
    """rules.md holds a setting the gardener cannot use."""


class RefusedError(GardenerError):
    """A never-store rule refused the content (exit code 3); nothing was written."""

    exit_code = EXIT_REFUSED


class LossBudgetError(GardenerError):
    """A pass would remove more current entries than the loss budget allows."""


class LockError(GardenerError):
    """The workspace lock could not be taken in time."""


class NotAWorkspaceError(GardenerError):
    """The folder is not a gardener workspace (no git repository there)."""


class UsageError(GardenerError):
    """A command was given a value it cannot use (exit code 2, like click's)."""

    exit_code = EXIT_USAGE
