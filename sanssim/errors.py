"""Errors a user can cause; each carries a one-line message fit for the terminal."""


class SanssimError(Exception):
    """Base for every error that is the user's input, not a bug of ours."""


class ComponentError(SanssimError):
    """The component data file is malformed or inconsistent."""


class ConfigError(SanssimError):
    """A game configuration the rules do not allow."""


class IllegalActionError(SanssimError):
    """A choice that is not legal at the current decision; the state is unchanged."""


class UserInterrupt(KeyboardInterrupt):
    """Ctrl-C or SIGTERM sent to sanssim: stops the run, unlike a strategy that raises
    KeyboardInterrupt, which fails only its game."""


class DecisionTimeout(BaseException):
    """A decision ran past `--decision-timeout`; a BaseException so that a strategy's
    `except Exception` does not swallow it."""
