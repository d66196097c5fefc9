"""Splendor: engine, per-seat view, strategies and run logs (rules: shared/rules/splendor.md)."""
