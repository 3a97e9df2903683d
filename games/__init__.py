"""Custom stochastic games; importing this package registers them with pyspiel.

Games: ``dice`` (Hauk's Dice), ``ballard_tree`` (Ballard's *-complete test
tree), ``chance_tic_tac_toe``. Each exists twice with the same rules, strings
and short name: a C++ game in games/native/ (compiled into the native engine,
``bots._native``, and registered by it when it loads) and the Python game of
each module, the reference and the fallback. Importing this package loads the
native engine first, so the C++ twins are registered where it is built; the
Python games are registered only where it is not (or ``STARSPIEL_ENGINE=python``).
Either way the Python game classes, positions and evaluators stay importable:
a Python state's ``search_position()`` returns an immutable, hashable
fast-path position (see games/_common.py), and each position class rebuilds
itself from a C++ twin's state (``from_state``). Each game module also registers
its default evaluator in the one evaluator registry,
``bots.evaluators.EVALUATORS`` (the dependency points from games to bots,
never back).
"""

from __future__ import annotations

from bots import native_engine

# Before the game modules: their Python games register only where no C++ twin did.
native_engine.native()

from games import ballard_tree, chance_tic_tac_toe, dice  # noqa: E402

__all__ = ["dice", "ballard_tree", "chance_tic_tac_toe", "native_twins"]


def native_twins() -> bool:
    """Whether ``pyspiel.load_game`` builds the C++ twins of these games."""
    return not any(m.PYTHON_REGISTERED for m in (dice, chance_tic_tac_toe, ballard_tree))
