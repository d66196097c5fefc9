"""Splendor: engine, per-seat view, strategies and run logs (rules: docs/rules/splendor.md)."""
