"""Measurement scripts (run as ``python -m bench.<name>``)."""
