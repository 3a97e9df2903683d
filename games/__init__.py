"""Custom stochastic games; importing this package registers them with pyspiel.

Games: ``dice`` (Hauk's Dice), ``ballard_tree`` (Ballard's *-complete test
tree), ``chance_tic_tac_toe``. Each state has ``search_position()`` returning
an immutable, hashable fast-path position (see games/_common.py).

``EVALUATORS`` maps a game's short name to a factory ``game -> evaluator``
(OpenSpiel MCTS evaluator convention plus ``bounds`` and
``accepts_positions = True``).
"""

from __future__ import annotations

from collections.abc import Callable

import pyspiel

from games import ballard_tree, chance_tic_tac_toe, dice
from games._common import PositionEvaluator
from games.speed import measure_speed

EVALUATORS: dict[str, Callable[[pyspiel.Game], PositionEvaluator]] = {
    dice.SHORT_NAME: dice.DiceEvaluator,
    ballard_tree.SHORT_NAME: ballard_tree.BallardEvaluator,
    chance_tic_tac_toe.SHORT_NAME: chance_tic_tac_toe.ChanceTTTEvaluator,
}

__all__ = ["EVALUATORS", "measure_speed", "dice", "ballard_tree", "chance_tic_tac_toe"]
