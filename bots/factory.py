"""``make_bot``: every bot of the library from one OpenSpiel-style spec string."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pyspiel

from bots.bot_base import BotBase
from bots.calibration import fits_on_first_use, never_prunes, probcut_settings
from bots.deepening_bot import SearchBot
from bots.mcts import make_mcts_bot
from bots.native_searcher import make_searcher
from bots.options import BOT_NAMES as BOT_NAMES  # re-exported: bots.BOT_NAMES
from bots.options import GAME_DEFAULTS as GAME_DEFAULTS
from bots.options import SEARCH_BOTS as SEARCH_BOTS
from bots.options import SearchOptions, accepted, bot_settings
from bots.probcut_models import ProbCutSettings
from bots.searcher_protocol import SearcherProtocol
from bots.spec import parse_spec
from games import plain_name

# make_bot's defaults, as bots/options.py's table sets them.
DEFAULT_TIME_LIMIT = bot_settings("star2")["time_limit"].bot_default
DEFAULT_TT_SIZE = bot_settings("star2")["tt_size"].bot_default
DEFAULT_T = bot_settings("chanceprobcut")["t"].default
DEFAULT_MCMS_SAMPLES = bot_settings("mcms")["samples"].bot_default


class UniformRandomBot(BotBase):
    """Uniformly random legal moves from its own seeded generator."""

    def step_with_policy(self, state: pyspiel.State):
        self._first_step()
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
            f"sequential perfect-information games with one player, two players and "
            f"zero-sum utilities, or three or more players (docs/guide/multiplayer.md), and "
            f"explicit (or no) chance"
        )


def _search_bot(name: str, params: dict[str, Any], game: pyspiel.Game, player_id: int) -> SearchBot:
    check_game_supported(game, name)
    rows = bot_settings(name)
    max_depth = params.get("max_depth")
    time_limit = params.get("time_limit")
    if max_depth is None and time_limit is None:
        time_limit = DEFAULT_TIME_LIMIT
    seed = params.get("seed")
    # The SearchOptions settings (checked when built), with make_bot's own defaults.
    settings = {
        key: value for key, value in params.items() if rows[key].level in ("search", "study")
    }
    for row in rows.values():
        if row.level == "search" and row.bot_default is not None:
            settings.setdefault(row.name, row.bot_default)
    algorithm = name
    if name == "mcms":
        # MCMS: Star2 on sampled chance nodes; ``seed`` (default 0) fixes the draws.
        algorithm = "star2"
        settings["seed"] = 0 if seed is None else seed
    engine = params.get("engine", "auto")
    calibrate: Callable[[], ProbCutSettings] | None = None
    if name == "chanceprobcut" and settings.get("multiplayer") == "maxn":
        # max^n makes no cut at chance nodes (docs/guide/multiplayer.md): nothing to fit.
        settings["probcut"] = never_prunes(params.get("R"), params.get("t", DEFAULT_T))
    elif name == "chanceprobcut":

        def calibrate() -> ProbCutSettings:
            return probcut_settings(
                game,
                params.get("R"),
                params.get("t", DEFAULT_T),
                params.get("calibration"),
                evaluator=params.get("evaluator"),
            )

        if fits_on_first_use(game, params.get("calibration"), params.get("evaluator")):
            # Checked now with a stand-in; the fit itself waits for the first search.
            settings["probcut"] = never_prunes(params.get("R"), params.get("t", DEFAULT_T))
        else:
            settings["probcut"], calibrate = calibrate(), None  # a file: read it now
    options = SearchOptions.create(algorithm, **settings)
    partial_iteration = params.get("partial_iteration", rows["partial_iteration"].default)
    if calibrate is None:
        searcher = make_searcher(engine, game, player_id, options)
        return SearchBot(game, player_id, searcher, max_depth, time_limit, seed, partial_iteration)

    def build(fit: Callable[[], ProbCutSettings] = calibrate) -> SearcherProtocol:
        return make_searcher(engine, game, player_id, dataclasses.replace(options, probcut=fit()))

    return SearchBot(
        game, player_id, None, max_depth, time_limit, seed, partial_iteration, build=build
    )


def _mcts_bot(params: dict[str, Any], game: pyspiel.Game, player_id: int) -> pyspiel.Bot:
    value = {row.name: params.get(row.name, row.default) for row in bot_settings("mcts").values()}
    time_limit = value["time_limit"]
    simulations = value["max_simulations"]
    if time_limit is not None and "max_simulations" not in params:
        simulations = 10**9  # the clock decides
    return make_mcts_bot(
        game,
        evaluator=value["evaluator"],
        uct_c=float(value["uct_c"]),
        max_simulations=int(simulations),
        rollouts=int(value["rollouts"]),
        max_memory_mb=int(value["max_memory_mb"]),
        solve=bool(value["solve"]),
        seed=int(value["seed"]),
        time_limit=float(time_limit) if time_limit is not None else None,
    )


def make_bot(spec: str, game: pyspiel.Game | str, player_id: int, **overrides: Any) -> pyspiel.Bot:
    """Builds a bot from a spec such as ``"star2(max_depth=4,time_limit=0.5)"``.

    ``overrides`` take precedence over parameters in the spec, so objects (an
    evaluator instance) can be passed that a string cannot hold. The parameters
    each bot takes, their defaults and checks are bots/options.py's table.
    """
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    name, params = parse_spec(spec)
    params.update(overrides)
    if name not in BOT_NAMES:
        raise ValueError(f"unknown bot {name!r}; accepted: {', '.join(BOT_NAMES)}")
    rows = bot_settings(name)
    unknown = sorted(set(params) - set(rows))
    if unknown:
        raise ValueError(
            f"unknown parameter(s) {', '.join(unknown)} for bot {name!r}; "
            f"accepted: {', '.join(accepted(name))}"
        )
    if not isinstance(player_id, int) or not 0 <= player_id < game.num_players():
        raise ValueError(
            f"player_id must be in 0..{game.num_players() - 1} for '{game}', got {player_id!r}"
        )
    # The bot's own parameters; SearchOptions checks its own when built.
    for key, value in params.items():
        if rows[key].level in ("bot", "calibration"):
            rows[key].check(value)
    if name == "random":
        return UniformRandomBot(game, player_id, params.get("seed"))
    if name == "mcts":
        return _mcts_bot(params, game, player_id)
    if name == "gnubg":
        from bots.yardsticks.gnubg import GnubgBot  # imported late: only its users pay

        return GnubgBot(game, player_id, **params)
    defaults = GAME_DEFAULTS.get(name, {}).get(plain_name(game.get_type().short_name), {})
    params = {**defaults, **params}
    return _search_bot(name, params, game, player_id)


def can_play_game(name: str, game: pyspiel.Game, player_id: int) -> bool:
    """Whether ``make_bot(name, game, player_id)`` accepts this game and player, read from
    the GameType alone, as OpenSpiel's own bot factories answer: OpenSpiel's registry asks it
    (``pyspiel.bots_that_can_play_game``), so it builds no bot and runs no search,
    calibration fit or playout. What only building finds out (ChanceProbCut without a
    calibration under ``STARSPIEL_SELF_CALIBRATION=off``) is make_bot's error."""
    if name not in BOT_NAMES or not 0 <= player_id < game.num_players():
        return False
    if name == "random":
        return True
    if name == "mcts":
        return game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    try:
        if name == "gnubg":
            from bots.yardsticks.gnubg import objective_for  # noqa: PLC0415 - its users pay

            objective_for(game)
        else:
            check_game_supported(game, name)
    except ValueError:
        return False
    return True


BotFactory = Callable[..., pyspiel.Bot]
