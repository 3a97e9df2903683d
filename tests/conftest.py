"""Shared test setup. Helper modules in tests/ (plain_expectiminimax,
random_tree_game) are importable through pytest's ``pythonpath`` setting in
pyproject.toml, and the ``slow`` marker is registered there too."""
