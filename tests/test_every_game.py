"""Every stochastic perfect-information game in OpenSpiel's registry (the custom games
included), at its fewest players, at three where it allows three, and at its most: every
bot is built for every seat and moves in turn, or is refused in one line that says why.

The list is read from the registry, not written here, so a game added to OpenSpiel or to
games/ is covered without a change to this file.
"""

from __future__ import annotations

import pyspiel
import pytest

import bots
from bots.calibration import SELF_CALIBRATION_ENV
from experiments.common.game_loader import stochastic_game_names

# Depth 1 keeps yacht's 7,776-outcome rolls and ten-player pig cheap; the searches' values
# are proven elsewhere (tests/test_exactness*.py, tests/test_multiplayer.py).
SPECS = [
    "expectiminimax(max_depth=1)",
    "star1(max_depth=1)",
    "star2(max_depth=1)",
    "mcms(max_depth=1,samples=2,seed=1)",
    "mcts(max_simulations=8,seed=1)",
    "random(seed=1)",
]
MAXN = "star2(max_depth=1,multiplayer=maxn)"
# ChanceProbCut without self-calibration (its fits are tested in tests/test_self_calibration.py):
# it plays where a calibration is committed or none is needed, and says which command makes
# one elsewhere.
PROBCUT = "chanceprobcut(max_depth=1)"
DECISIONS_PER_SEAT = 2


def _game_type(name: str) -> pyspiel.GameType:
    return next(t for t in pyspiel.registered_games() if t.short_name == name)


def _player_counts(name: str) -> list[int]:
    t = _game_type(name)
    low, high = t.min_num_players, t.max_num_players
    return sorted({low, min(max(3, low), high), high})


CASES = [(name, n) for name in stochastic_game_names() for n in _player_counts(name)]


def _load(name: str, players: int) -> pyspiel.Game:
    t = _game_type(name)
    if t.min_num_players == t.max_num_players:
        return pyspiel.load_game(name)
    return pyspiel.load_game(name, {"players": players})


def test_the_registry_lists_the_games_the_library_names():
    names = set(stochastic_game_names())
    assert {"backgammon", "pig", "maedn", "yacht", "cant_stop", "dice"} <= names
    assert ("pig", 10) in CASES and ("maedn", 4) in CASES and ("yacht", 1) in CASES


@pytest.mark.filterwarnings("ignore::games.upstream.UpstreamGameWarning")  # at the first step
@pytest.mark.parametrize("name, players", CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_every_bot_moves_for_every_seat_or_says_why_not(name, players, monkeypatch):
    monkeypatch.setenv(SELF_CALIBRATION_ENV, "off")
    game = _load(name, players)
    assert game.num_players() == players
    specs = (
        SPECS + [PROBCUT] + ([MAXN, PROBCUT[:-1] + ",multiplayer=maxn)"] if players >= 3 else [])
    )
    for spec in specs:
        seats: list[pyspiel.Bot] = []
        try:
            seats = [bots.make_bot(spec, game, p) for p in range(players)]
        except ValueError as error:
            message = str(error)
            assert message and "\n" not in message, (spec, message)
            # The refusal expected here: ChanceProbCut without a calibration.
            assert spec == PROBCUT and "experiments.probcut.calibrate" in message, message
            continue
        _play_some(game, seats, spec)


def _play_some(game: pyspiel.Game, seats: list[pyspiel.Bot], spec: str) -> None:
    """Each seat's bot makes its first DECISIONS_PER_SEAT moves (chance drawn from a fixed
    stream), until the game ends."""
    state = game.new_initial_state()
    moved = [0] * game.num_players()
    draws = 0
    while not state.is_terminal() and min(moved) < DECISIONS_PER_SEAT:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[draws % len(outcomes)][0])
            draws += 1
            continue
        player = state.current_player()
        action = seats[player].step(state)
        assert action in state.legal_actions(), (spec, player, action)
        state.apply_action(action)
        moved[player] += 1
        if len(state.history()) > 5000:
            raise AssertionError(f"{spec}: no end of the first moves in {game}")
