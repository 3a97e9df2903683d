"""Shared test setup, kept minimal: makes the helper modules in tests/ importable
(plain_expectiminimax, random_tree_game) however pytest is invoked, and
registers the ``slow`` marker for the heavier exactness cases."""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: heavier exactness cases (deselect with -m 'not slow')")
