"""sanssim: a seeded simulator and statistics tool for the board game Sanssouci."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("sanssim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+unknown"
