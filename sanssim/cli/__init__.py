"""The command line: parse, validate, call, print. A thin click layer over `sanssim.runner`
and `sanssim.analysis`, one module a command group; nothing below it imports click."""

from __future__ import annotations

from sanssim.cli import inspecting, running, tuning
from sanssim.cli.common import main

__all__ = ["inspecting", "main", "running", "tuning"]
