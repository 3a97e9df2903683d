"""OpenSpiel's MCTS for every game in scope: the C++ bot where it runs, the Python one elsewhere.

Two leaf evaluators: ``rollout`` (OpenSpiel's random rollouts, the default)
and ``heuristic``, the fair opponent: the game's heuristic evaluator, the one
the search bots use, so that a match against a search bot measures the search,
not rollouts against a heuristic. On C++ games the heuristic is the native
evaluator behind OpenSpiel's C++ MCTS (as fast per leaf as the native search
bots); elsewhere OpenSpiel's Python MCTS calls the Python evaluator. Chance
nodes are sampled from their distribution either way, as OpenSpiel's MCTS does.

OpenSpiel 2.0.2's C++ ``pyspiel.MCTSBot`` segfaults on Python-registered games
(our ``dice``, ``ballard_tree``, ``chance_tic_tac_toe``, OpenSpiel's own
``python_tic_tac_toe``) when ``step`` is called from Python with a state made in
Python, which is how tournaments and OpenSpiel's Python ``evaluate_bots`` call
it. On those games ``make_mcts_bot`` returns OpenSpiel's Python MCTS (the same
algorithm: UCT, random-rollout evaluator, MCTS-Solver) with a wall-clock limit
added. Every bot says which one it is in its ``implementation`` attribute.
"""

from __future__ import annotations

import time
import types
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as os_mcts

from bots import native_engine
from bots.evaluators.registry import default_evaluator, make_evaluator
from games import pays_rewards

CPP = "openspiel_cpp"
PYTHON = "openspiel_python"
MCTS_EVALUATORS = ("rollout", "heuristic", "learned", "learned(path=FILE)")


def check_mcts_evaluator(evaluator: Any) -> None:
    """Refuses what MCTS cannot value leaves with: rollouts, the game's heuristic, or a
    learned model (``learned``, ``learned(path=FILE)``)."""
    name = evaluator.split("(", 1)[0].strip() if isinstance(evaluator, str) else None
    if name not in ("rollout", "heuristic", "learned") or (name != "learned" and evaluator != name):
        raise ValueError(
            f"unknown evaluator {evaluator!r}; accepted: {', '.join(MCTS_EVALUATORS)} "
            f"(heuristic: the game's evaluator, the one the search bots use)"
        )


def is_python_game(game: pyspiel.Game) -> bool:
    """True for games implemented in Python (their Game class is defined outside pyspiel)."""
    return type(game).__module__.partition(".")[0] != "pyspiel"


class CppMCTSBot(pyspiel.MCTSBot):
    """OpenSpiel's C++ ``MCTSBot``, unchanged; the subclass only adds ``implementation``."""

    implementation = CPP
    evaluator_name = "rollout"


class TerminalReturnsView:
    """A game with intermediate rewards, typed for OpenSpiel's Python MCTSBot as one with
    terminal rewards. Sound, not a trick: the bot reads ``returns()`` only at terminal
    states, where they are the sum of every reward, and values other leaves with its
    evaluator, whose values add the rewards already collected (rollouts end at a terminal;
    our evaluators follow DESIGN's convention). ``uct_c`` is then in the game's points.
    OpenSpiel's C++ MCTSBot makes the same check in C++, so such games get the Python bot.
    """

    def __init__(self, game: pyspiel.Game):
        self._game = game

    def get_type(self) -> Any:
        kind = self._game.get_type()
        return types.SimpleNamespace(
            reward_model=pyspiel.GameType.RewardModel.TERMINAL, dynamics=kind.dynamics
        )

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


class _OutOfTime(Exception):
    """Raised between two simulations when the time limit has passed."""


class PythonMCTSBot(os_mcts.MCTSBot):
    """OpenSpiel's Python ``MCTSBot`` with an optional per-move time limit.

    The search is OpenSpiel's, unchanged: the limit is checked before each
    simulation starts, so every simulation run is complete and backed up, and
    the move is chosen from that tree exactly as OpenSpiel does. At least two
    simulations run (the root must have children to choose from).
    """

    implementation = PYTHON
    evaluator_name = "rollout"

    def __init__(
        self,
        game: pyspiel.Game,
        uct_c: float,
        max_simulations: int,
        evaluator: os_mcts.Evaluator,
        *,
        solve: bool,
        random_state: np.random.RandomState,
        time_limit: float | None = None,
    ):
        super().__init__(
            game,
            uct_c,
            max_simulations,
            evaluator,
            solve=solve,
            random_state=random_state,
        )
        self.time_limit = time_limit
        self._deadline = float("inf")
        self._root: os_mcts.SearchNode | None = None

    def mcts_search(self, state: pyspiel.State) -> os_mcts.SearchNode:
        if self.time_limit is None:
            return super().mcts_search(state)
        self._deadline = time.perf_counter() + self.time_limit
        self._root = None
        try:
            return super().mcts_search(state)
        except _OutOfTime:
            assert self._root is not None  # set by the simulation that was refused
            return self._root
        finally:
            self._root = None

    def _apply_tree_policy(
        self, root: os_mcts.SearchNode, state: pyspiel.State
    ) -> tuple[list[os_mcts.SearchNode], pyspiel.State]:
        if self.time_limit is not None:
            self._root = root
            if root.children and time.perf_counter() >= self._deadline:
                raise _OutOfTime()
        return super()._apply_tree_policy(root, state)


def _native_heuristic(game: pyspiel.Game, heuristic: Any) -> Any | None:
    """The heuristic's native twin as an OpenSpiel C++ Evaluator, where the engine has one."""
    module = native_engine.native()
    if module is None or is_python_game(game):
        return None
    hook = getattr(type(heuristic), "native_model", None)  # a learned evaluator's model
    model = heuristic.native_model() if callable(hook) else None
    if model is not None:
        return module.mcts_evaluator(model, game)
    name = getattr(type(heuristic), "native_name", None)
    if name not in module.evaluator_names():
        return None
    return module.mcts_evaluator(name, game)


def make_mcts_bot(
    game: pyspiel.Game,
    *,
    uct_c: float,
    max_simulations: int,
    rollouts: int,
    max_memory_mb: int,
    solve: bool,
    seed: int,
    time_limit: float | None,
    evaluator: str = "rollout",
) -> Any:
    """OpenSpiel's MCTS with one parameter set, C++ for C++ games, Python otherwise.

    ``max_memory_mb`` bounds the C++ tree only: OpenSpiel's Python MCTS has no
    memory limit (its tree grows with the simulations run). ``rollouts`` only
    applies to the rollout evaluator; ``heuristic`` and ``learned(...)`` value leaves with
    the game's evaluator or a learned model (docs/guide/learned.md). A game with
    intermediate rewards (2048) gets the Python bot through ``TerminalReturnsView``.
    """
    check_mcts_evaluator(evaluator)
    heuristic = None
    if evaluator == "heuristic":
        heuristic = default_evaluator(game)
    elif evaluator != "rollout":
        heuristic = make_evaluator(evaluator, game)  # a learned model
    native_heuristic = None if heuristic is None else _native_heuristic(game, heuristic)
    rewards = pays_rewards(game)
    if rewards or is_python_game(game) or (heuristic is not None and native_heuristic is None):
        python_evaluator = (
            heuristic
            if heuristic is not None
            else os_mcts.RandomRolloutEvaluator(rollouts, np.random.RandomState(seed))
        )
        bot: Any = PythonMCTSBot(
            TerminalReturnsView(game) if rewards else game,
            uct_c,
            max_simulations,
            python_evaluator,
            solve=solve,
            random_state=np.random.RandomState(seed),
            time_limit=time_limit,
        )
    else:
        bot = CppMCTSBot(
            game,
            native_heuristic
            if native_heuristic is not None
            else pyspiel.RandomRolloutEvaluator(rollouts, seed),
            uct_c,
            max_simulations,
            max_memory_mb,
            solve,
            seed,
            False,
            pyspiel.ChildSelectionPolicy.UCT,
            time_limit if time_limit is not None else -1.0,
        )
    bot.evaluator_name = evaluator
    return bot
