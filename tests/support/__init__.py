"""Helpers that test modules share: import them from here, never from another test module."""
