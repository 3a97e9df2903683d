"""Leaf evaluators for starspiel's search bots: the API, one registry, one module per game.

  * `api`: the evaluator contract (OpenSpiel's MCTS evaluator convention plus
    the optional `bounds`, `player_bounds`, `player_value`,
    `accepts_positions`), the `Evaluator` base class, `evaluator_bounds`.
  * `registry`: `EVALUATORS` (game short name -> factory `game -> evaluator`),
    `register_evaluator`, `default_evaluator` (warns with
    `EvaluatorFallbackWarning` when it falls back), `make_evaluator`.
  * `fallbacks`: `MidpointEvaluator` ("zero") and `RolloutEvaluator` ("rollout").
  * `learned`: `LearnedEvaluator` ("learned", "learned(path=FILE)"), a trained model
    from `bots.learned`.
  * One module per game heuristic: backgammon, pig, einstein (einstein_wurfelt_nicht),
    game_2048, yacht, maedn (2 players), catch, banqi, and the custom games of
    `games/`: dice, chance_tic_tac_toe, ballard_tree, cant_stop, on the base class in
    `positions` (they read the games' fast-path positions).

Heuristics are called at every leaf of searches visiting 10^5-10^6 nodes, so
each reads the cheapest accessor its game offers (a pybind accessor, the
observation tensor written in place into a numpy buffer, or `str(state)`,
which costs about 0.5 us in C++) and does a few dozen Python operations.
`python -m experiments.benchmark.evaluator_speed` prints microseconds per `evaluate()` call.
"""

from __future__ import annotations

from bots.evaluators.api import (
    SHRINK,
    Evaluator,
    EvaluatorLike,
    evaluator_bounds,
    game_value_bounds,
)
from bots.evaluators.backgammon import BackgammonEvaluator
from bots.evaluators.ballard_tree import BallardEvaluator
from bots.evaluators.banqi import BanqiEvaluator
from bots.evaluators.cant_stop import CantStopEvaluator
from bots.evaluators.catch import CatchEvaluator
from bots.evaluators.chance_tic_tac_toe import ChanceTTTEvaluator
from bots.evaluators.dice import DiceEvaluator
from bots.evaluators.einstein import EinsteinEvaluator
from bots.evaluators.fallbacks import MidpointEvaluator, RolloutEvaluator
from bots.evaluators.game_2048 import Game2048Evaluator
from bots.evaluators.learned import LearnedEvaluator
from bots.evaluators.maedn import MaednEvaluator
from bots.evaluators.pig import PigEvaluator
from bots.evaluators.position_evaluator import PositionEvaluator
from bots.evaluators.registry import (
    EVALUATORS,
    EvaluatorFactory,
    EvaluatorFallbackWarning,
    default_evaluator,
    make_evaluator,
    register_evaluator,
)
from bots.evaluators.yacht import YachtEvaluator

__all__ = [
    "SHRINK",
    "Evaluator",
    "EvaluatorLike",
    "EvaluatorFactory",
    "EvaluatorFallbackWarning",
    "PositionEvaluator",
    "MidpointEvaluator",
    "RolloutEvaluator",
    "LearnedEvaluator",
    "BackgammonEvaluator",
    "PigEvaluator",
    "EinsteinEvaluator",
    "Game2048Evaluator",
    "YachtEvaluator",
    "MaednEvaluator",
    "CatchEvaluator",
    "BanqiEvaluator",
    "DiceEvaluator",
    "ChanceTTTEvaluator",
    "BallardEvaluator",
    "CantStopEvaluator",
    "EVALUATORS",
    "register_evaluator",
    "game_value_bounds",
    "default_evaluator",
    "make_evaluator",
    "evaluator_bounds",
]
