"""Report errors: bad input a user can fix, with a one-line message."""

from sanssim.errors import SanssimError


class ReportError(SanssimError):
    """A run directory that cannot be reported on (missing, incomplete, wrong schema)."""
