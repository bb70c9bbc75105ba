"""Helpers that test modules share: import them from here, never from another test module. Their
assertions are rewritten as a test module's are (tests/__init__.py registers the package)."""
