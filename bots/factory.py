"""``make_bot``: every bot of the library from one OpenSpiel-style spec string."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from bots.calibration import probcut_settings
from bots.mcts import MCTS_EVALUATORS, make_mcts_bot
from bots.native_search import make_searcher
from bots.options import SearchOptions, check_flag
from bots.options import check_number as _check_number
from bots.search_bot import SearchBot
from bots.spec import parse_spec

SEARCH_BOTS = ("expectiminimax", "star1", "star2", "chanceprobcut", "mcms")
BOT_NAMES = SEARCH_BOTS + ("mcts", "random")

DEFAULT_TIME_LIMIT = 1.0
DEFAULT_TT_SIZE = 100_000

_SEARCH_PARAMS = {
    "max_depth",
    "time_limit",
    "evaluator",
    "tt_size",
    "seed",
    "move_ordering",
    "partial_iteration",
    "deeper_cutoffs",
    "history_min_depth",
    "static_ordering",
    "engine",
}
_PROBCUT_PARAMS = {"R", "t", "calibration", "reachable_probes"}
_STAR2_PARAMS = {"probing_factor", "probing", "reachable_probes"}  # Ballard's Star2.5
# Parameters of the bot itself; every other search parameter is a SearchOptions setting.
_BOT_PARAMS = {"max_depth", "time_limit", "seed", "partial_iteration", "engine"}
_CALIBRATION_PARAMS = {"R", "t", "calibration"}  # read into SearchOptions.probcut
# ChanceProbCut's confidence t where GAME_DEFAULTS sets none; in backgammon t changes
# neither speed nor depth (docs/guide/chanceprobcut.md#choosing-t).
DEFAULT_T = 1.5
_HISTORY_FROM_DEPTH_1 = {"history_min_depth": 1}
# Per bot and game, settings that made the bot complete its depths sooner; a spec's own
# parameters still win, and the engine's defaults stay off so the studies' counts stay.
# One reason each, measured where linked. (No probing factor k > 1 paid in any game:
# docs/guide/bots.md#per-game-defaults-and-why.)
GAME_DEFAULTS: dict[str, dict[str, dict[str, Any]]] = {
    "star2": {
        # Hopeless probes skipped: about half the CPU at depth 7 (docs/guide/bots.md#per-game-defaults-and-why).
        "pig": {"reachable_probes": True},
        # Hauk et al.'s ordering by the evaluator: -16% nodes at depth 3 (docs/guide/bots.md#per-game-defaults-and-why).
        "backgammon": {"static_ordering": True},
        # An action is the same move in every position, so history orders depth 1 too (same section).
        "dice": _HISTORY_FROM_DEPTH_1,
        "einstein_wurfelt_nicht": _HISTORY_FROM_DEPTH_1,
    },
    # t=0.5: as strong as 1.5 at equal time, and deeper sooner (docs/guide/chanceprobcut.md#choosing-t).
    "chanceprobcut": {
        # Hopeless probes skipped: 24-67% less CPU at depths 6-9, same moves (docs/guide/bots.md#per-game-defaults-and-why).
        "pig": {"reachable_probes": True, "t": 0.5},
        # History from depth 1, as for star2 (docs/guide/bots.md#per-game-defaults-and-why).
        "dice": {**_HISTORY_FROM_DEPTH_1, "t": 0.5},
        "einstein_wurfelt_nicht": {**_HISTORY_FROM_DEPTH_1, "t": 0.5},
    },
}
_MCMS_PARAMS = {"samples"}  # and seed, also the sampling seed
DEFAULT_MCMS_SAMPLES = 5
_MCTS_PARAMS = {
    "uct_c",
    "max_simulations",
    "time_limit",
    "seed",
    "rollouts",
    "max_memory_mb",
    "solve",
    "evaluator",
}
_RANDOM_PARAMS = {"seed"}


def _accepted(name: str) -> set[str]:
    if name == "mcts":
        return _MCTS_PARAMS
    if name == "random":
        return _RANDOM_PARAMS
    if name == "chanceprobcut":
        return _SEARCH_PARAMS | _PROBCUT_PARAMS
    if name == "star2":
        return _SEARCH_PARAMS | _STAR2_PARAMS
    if name == "mcms":
        return _SEARCH_PARAMS | _STAR2_PARAMS | _MCMS_PARAMS
    return _SEARCH_PARAMS


class UniformRandomBot(pyspiel.Bot):
    """Uniformly random legal moves from its own seeded generator."""

    def __init__(self, player_id: int, seed: int | None = None):
        pyspiel.Bot.__init__(self)
        self._player_id = player_id
        self._rng = np.random.RandomState(seed)

    def player_id(self) -> int:
        return self._player_id

    def provides_policy(self) -> bool:
        return True

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass

    def step_with_policy(self, state: pyspiel.State):
        legal = state.legal_actions(self._player_id)
        if not legal:
            return [], pyspiel.INVALID_ACTION
        policy = [(action, 1.0 / len(legal)) for action in legal]
        return policy, int(legal[self._rng.randint(len(legal))])

    def step(self, state: pyspiel.State) -> int:
        return self.step_with_policy(state)[1]


def check_game_supported(game: pyspiel.Game, bot_name: str = "search") -> None:
    """Refuses the games the searches cannot model, naming game and reason."""
    game_type = game.get_type()
    reasons = []
    if game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        reasons.append("it has simultaneous moves")
    if game_type.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        reasons.append("it has imperfect information")
    if game.num_players() > 2:
        reasons.append(f"it has {game.num_players()} players")
    if game.num_players() == 2 and game_type.utility not in (
        pyspiel.GameType.Utility.ZERO_SUM,
        pyspiel.GameType.Utility.CONSTANT_SUM,
    ):
        reasons.append("it is a two-player general-sum game")
    if game_type.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        reasons.append("its chance outcomes are sampled, not enumerable")
    if reasons:
        raise ValueError(
            f"{bot_name} bots cannot play '{game}': {'; '.join(reasons)}. Accepted: "
            f"sequential perfect-information games with one player, or two players "
            f"and zero-sum utilities, and explicit (or no) chance"
        )


def _search_bot(name: str, params: dict[str, Any], game: pyspiel.Game, player_id: int) -> SearchBot:
    check_game_supported(game, name)
    max_depth = params.get("max_depth")
    time_limit = params.get("time_limit")
    if max_depth is None and time_limit is None:
        time_limit = DEFAULT_TIME_LIMIT
    _check_number("max_depth", max_depth, integer=True, minimum=1, allow_none=True)
    if time_limit is not None:
        _check_number("time_limit", time_limit, integer=False, minimum=0)
        if time_limit <= 0:
            raise ValueError(f"time_limit must be > 0 seconds or none, got {time_limit!r}")
    seed = params.get("seed")
    _check_number("seed", seed, integer=True, minimum=0, allow_none=True)
    partial_iteration = params.get("partial_iteration", True)
    check_flag("partial_iteration", partial_iteration)
    settings = {
        key: value
        for key, value in params.items()
        if key not in _BOT_PARAMS and key not in _CALIBRATION_PARAMS
    }
    settings.setdefault("tt_size", DEFAULT_TT_SIZE)
    algorithm = name
    if name == "mcms":
        # MCMS: Star2 on sampled chance nodes; ``seed`` (default 0) fixes the draws.
        algorithm = "star2"
        settings.setdefault("samples", DEFAULT_MCMS_SAMPLES)
        settings["seed"] = 0 if seed is None else seed
    if name == "chanceprobcut":
        reduction = params.get("R")
        _check_number("R", reduction, integer=True, minimum=1, allow_none=True)
        confidence = params.get("t", DEFAULT_T)
        _check_number("t", confidence, integer=False, minimum=0)
        settings["probcut"] = probcut_settings(
            game, reduction, confidence, params.get("calibration")
        )
    options = SearchOptions.create(algorithm, **settings)
    searcher = make_searcher(params.get("engine", "auto"), game, player_id, options)
    return SearchBot(game, player_id, searcher, max_depth, time_limit, seed, partial_iteration)


def _mcts_bot(params: dict[str, Any], game: pyspiel.Game, player_id: int) -> pyspiel.Bot:
    if game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS:
        raise ValueError(
            f"mcts cannot play '{game}': OpenSpiel's MCTSBot (C++ and Python) requires "
            f"terminal rewards and "
            f"this game has intermediate rewards; use a search bot (star2, expectiminimax) "
            f"or random instead"
        )
    uct_c = params.get("uct_c", 2.0)
    _check_number("uct_c", uct_c, integer=False, minimum=0)
    simulations = params.get("max_simulations", 1000)
    _check_number("max_simulations", simulations, integer=True, minimum=1)
    rollouts = params.get("rollouts", 1)
    _check_number("rollouts", rollouts, integer=True, minimum=1)
    memory = params.get("max_memory_mb", 1000)
    _check_number("max_memory_mb", memory, integer=True, minimum=1)
    seed = params.get("seed", 0)
    _check_number("seed", seed, integer=True, minimum=0)
    solve = params.get("solve", True)
    if not isinstance(solve, bool):
        raise ValueError(f"solve must be true or false, got {solve!r}")
    time_limit = params.get("time_limit")
    if time_limit is not None:
        _check_number("time_limit", time_limit, integer=False, minimum=0)
        if time_limit <= 0:
            raise ValueError(f"time_limit must be > 0 seconds or none, got {time_limit!r}")
        if "max_simulations" not in params:
            simulations = 10**9  # the clock decides
    evaluator = params.get("evaluator", "rollout")
    if evaluator not in MCTS_EVALUATORS:
        raise ValueError(
            f"mcts evaluator must be one of {', '.join(MCTS_EVALUATORS)}, got {evaluator!r} "
            f"(heuristic: the game's evaluator, the one the search bots use)"
        )
    return make_mcts_bot(
        game,
        evaluator=evaluator,
        uct_c=float(uct_c),
        max_simulations=int(simulations),
        rollouts=int(rollouts),
        max_memory_mb=int(memory),
        solve=bool(solve),
        seed=int(seed),
        time_limit=float(time_limit) if time_limit is not None else None,
    )


def make_bot(spec: str, game: pyspiel.Game | str, player_id: int, **overrides: Any) -> pyspiel.Bot:
    """Builds a bot from a spec such as ``"star2(max_depth=4,time_limit=0.5)"``.

    ``overrides`` take precedence over parameters in the spec, so objects (an
    evaluator instance) can be passed that a string cannot hold.
    """
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    name, params = parse_spec(spec)
    params.update(overrides)
    if name not in BOT_NAMES:
        raise ValueError(f"unknown bot {name!r}; accepted: {', '.join(BOT_NAMES)}")
    unknown = sorted(set(params) - _accepted(name))
    if unknown:
        raise ValueError(
            f"unknown parameter(s) {', '.join(unknown)} for bot {name!r}; "
            f"accepted: {', '.join(sorted(_accepted(name)))}"
        )
    if not isinstance(player_id, int) or not 0 <= player_id < game.num_players():
        raise ValueError(
            f"player_id must be in 0..{game.num_players() - 1} for '{game}', got {player_id!r}"
        )
    if name == "random":
        seed = params.get("seed")
        _check_number("seed", seed, integer=True, minimum=0, allow_none=True)
        return UniformRandomBot(player_id, seed)
    if name == "mcts":
        return _mcts_bot(params, game, player_id)
    defaults = GAME_DEFAULTS.get(name, {}).get(game.get_type().short_name, {})
    params = {**defaults, **params}
    return _search_bot(name, params, game, player_id)


BotFactory = Callable[..., pyspiel.Bot]
