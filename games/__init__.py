"""Custom stochastic games; importing this package registers them with pyspiel.

Games: ``dice`` (Hauk's Dice), ``ballard_tree`` (Ballard's *-complete test
tree), ``chance_tic_tac_toe``. Each state has ``search_position()`` returning
an immutable, hashable fast-path position (see games/_common.py). Each game
module also registers its default evaluator in the one evaluator registry,
``bots.evaluators.EVALUATORS`` (the dependency points from games to bots,
never back).
"""

from __future__ import annotations

from games import ballard_tree, chance_tic_tac_toe, dice

__all__ = ["dice", "ballard_tree", "chance_tic_tac_toe"]
