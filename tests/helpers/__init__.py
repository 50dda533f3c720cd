"""Helpers for tests that run real processes (import as ``helpers.processes``)."""
