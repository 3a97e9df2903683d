"""Can't Stop's rules against worked examples (games/cant_stop.py and its C++ twin).

Positions are built by hand on the Python game; the examples that start from the
initial state are played through the public pyspiel API on both implementations
("registered": the C++ twin where the native engine is loaded; "python": the
Python game built directly).
"""

from __future__ import annotations

import math
import random

import numpy as np
import pyspiel
import pytest
from helpers.playouts import random_action
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

import bots
import games
from bots.arithmetic import ordered_sum
from bots.evaluators import CantStopEvaluator
from games.cant_stop import (
    BUSTED,
    HEIGHTS,
    NUM_ACTIONS,
    ROLL,
    ROLL_OR_STOP,
    ROLLS,
    STOP,
    TO_MOVE,
    TO_ROLL,
    CantStopPosition,
    action_string,
    cant_stop_rules,
)

CHANCE, TERMINAL = -1, -4
IMPLS = ["registered", "python"]


def _game(impl: str, params: dict | None = None) -> pyspiel.Game:
    params = params or {}
    if impl == "registered":
        return pyspiel.load_game("cant_stop", params)
    return games.python_game("cant_stop", params)


def roll(*dice: int) -> int:
    """The chance outcome of a roll of four dice."""
    return ROLLS.index(tuple(sorted(dice)))


def position(
    progress: list[dict[int, int]],
    runners: dict[int, int] | None = None,
    mover: int = 0,
    phase: int = TO_ROLL,
    rolled: int = -1,
    turns: int = 0,
    horizon: int = 1000,
) -> CantStopPosition:
    """A position from each player's banked heights and the mover's runner steps, by column."""
    rules = cant_stop_rules(len(progress), horizon)
    rows = tuple(tuple(p.get(c, 0) for c in range(2, 13)) for p in progress)
    steps = tuple((runners or {}).get(c, 0) for c in range(2, 13))
    return CantStopPosition(rules, rows, steps, mover, phase, rolled, turns)


def moves(pos: CantStopPosition) -> list[str]:
    return [action_string(a) for a in pos.legal_actions()]


def banked(pos: CantStopPosition, player: int) -> dict[int, int]:
    return {c + 2: h for c, h in enumerate(pos.progress[player]) if h}


def test_the_dice_are_126_sorted_rolls_with_exact_probabilities():
    pos = position([{}, {}])
    outcomes = pos.chance_outcomes()
    assert len(outcomes) == 126 and [a for a, _ in outcomes] == list(range(126))
    assert math.fsum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-15)
    probability = dict(outcomes)
    assert probability[roll(1, 1, 1, 1)] == 1 / 1296
    assert probability[roll(1, 1, 2, 2)] == 6 / 1296
    assert probability[roll(1, 1, 2, 3)] == 12 / 1296
    assert probability[roll(4, 3, 2, 1)] == 24 / 1296
    assert ROLLS[0] == (1, 1, 1, 1) and ROLLS[-1] == (6, 6, 6, 6)


def test_three_pairings_with_free_runners_use_both_sums():
    # 1 2 3 4 pairs as 3+7, 4+6 and 5+5: the last advances column 5 twice.
    pos = position([{}, {}], phase=TO_MOVE, rolled=roll(1, 2, 3, 4))
    assert moves(pos) == ["advance 3 7", "advance 4 6", "advance 5 5"]
    after = pos.child(pos.legal_actions()[2])
    assert after.phase == ROLL_OR_STOP and after.current_player() == 0
    assert after.runners[5 - 2] == 2 and sum(after.runners) == 2
    assert after.legal_actions() == (ROLL, STOP)


def test_one_runner_left_picks_one_of_two_new_columns():
    # Runners on 6 and 8: one left. 3+7 needs two new runners (pick 3 or 7); 4+6 uses
    # the runner on 6 and the last one on 4; 5+5 one runner, two steps.
    pos = position([{}, {}], {6: 1, 8: 2}, phase=TO_MOVE, rolled=roll(1, 2, 3, 4))
    assert moves(pos) == ["advance 3", "advance 7", "advance 4 6", "advance 5 5"]
    picked = pos.child(pos.legal_actions()[1])
    assert {c + 2: s for c, s in enumerate(picked.runners) if s} == {6: 1, 7: 1, 8: 2}


def test_no_runner_left_only_runner_columns_move():
    pos = position([{}, {}], {6: 1, 8: 2, 10: 1}, phase=TO_MOVE, rolled=roll(1, 2, 3, 4))
    assert moves(pos) == ["advance 6"]


def test_a_roll_with_no_usable_pairing_busts_and_loses_the_runners():
    pos = position([{6: 2}, {}], {6: 1, 8: 2, 10: 1}, mover=0, turns=4)
    bust = pos.child(roll(1, 1, 1, 1))  # 2+2 three times: no runner there, none left
    assert bust.phase == BUSTED and bust.current_player() == 0
    assert moves(bust) == ["stop"] and bust.runners == (0,) * 11
    after = bust.child(STOP)  # forced: a decision between any two chance nodes
    assert after.phase == TO_ROLL and after.mover == 1 and after.turns == 5
    assert after.runners == (0,) * 11 and banked(after, 0) == {6: 2}
    assert pos.child(roll(1, 1, 5, 5)).phase == TO_MOVE  # 1+5 and 1+5: column 6


def test_a_double_with_one_step_left_advances_once():
    # Column 2 is 3 high: banked 2, so 1+1 and 1+1 take the one step left.
    pos = position([{2: 2}, {}], phase=TO_MOVE, rolled=roll(1, 1, 1, 1))
    assert moves(pos) == ["advance 2"]
    assert moves(position([{}, {}], phase=TO_MOVE, rolled=roll(1, 1, 1, 1))) == ["advance 2 2"]


def test_no_advancing_in_a_won_column_or_past_a_runner_at_the_top():
    # Column 7 is won by player 1: 3+7 leaves 3 alone.
    pos = position([{}, {7: 13}], phase=TO_MOVE, rolled=roll(1, 2, 3, 4))
    assert pos.closed()[7 - 2]
    assert moves(pos) == ["advance 3", "advance 4 6", "advance 5 5"]
    # A runner of this turn at the top of column 3 (5 high): 3+7 moves 7 only.
    topped = position([{3: 4}, {}], {3: 1}, phase=TO_MOVE, rolled=roll(1, 2, 3, 4))
    assert moves(topped) == ["advance 7", "advance 4 6", "advance 5 5"]
    # Runners on 2 (topped), 3 and 4, no runner left: 1 1 1 1 busts.
    stuck = position([{2: 2}, {}], {2: 1, 3: 1, 4: 1})
    assert stuck.child(roll(1, 1, 1, 1)).phase == BUSTED


def test_stop_banks_the_runners_and_passes_the_turn():
    pos = position([{4: 1}, {4: 3}], {4: 2, 7: 1}, phase=ROLL_OR_STOP, turns=2)
    after = pos.child(STOP)
    assert banked(after, 0) == {4: 3, 7: 1} and banked(after, 1) == {4: 3}
    assert after.phase == TO_ROLL and after.mover == 1 and after.turns == 3
    assert after.runners == (0,) * 11
    rolled_again = pos.child(ROLL)
    assert rolled_again.phase == TO_ROLL and rolled_again.mover == 0
    assert rolled_again.runners == pos.runners and rolled_again.turns == 2


def test_claiming_a_column_removes_the_other_markers_and_closes_it():
    pos = position([{2: 2}, {2: 1, 5: 4}, {2: 2}], {2: 1}, phase=ROLL_OR_STOP)
    after = pos.child(STOP)
    assert banked(after, 0) == {2: 3}
    assert banked(after, 1) == {5: 4} and banked(after, 2) == {}
    assert after.closed()[0] and after.mover == 1
    # Nobody advances there again: player 1 rolling 1 1 1 1 busts.
    assert after.child(roll(1, 1, 1, 1)).phase == BUSTED


@pytest.mark.parametrize(
    "players, expected",
    [(2, (1.0, -1.0)), (3, (1.0, -0.5, -0.5)), (4, (1.0, -1 / 3, -1 / 3, -1 / 3))],
)
def test_the_third_column_wins(players, expected):
    progress = [{2: 3, 12: 3, 3: 4}] + [{3: 2}] * (players - 1)
    pos = position(progress, {3: 1}, phase=ROLL_OR_STOP)
    end = pos.child(STOP)
    assert end.is_terminal() and end.current_player() == TERMINAL
    assert end.returns() == expected and math.fsum(end.returns()) == pytest.approx(0.0)
    # Two columns are not enough: the game goes on.
    assert not position(progress, {4: 1}, phase=ROLL_OR_STOP).child(STOP).is_terminal()


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("players", [3, 4])
def test_turns_pass_in_seat_order_with_3_and_4_players(impl, players):
    state = _game(impl, {"players": players}).new_initial_state()
    seen = []
    for _ in range(players + 1):
        assert state.is_chance_node()
        seen.append(int(str(state).split("\n")[0].split()[3]))
        state.apply_action(roll(1, 2, 3, 4))
        state.apply_action(state.legal_actions()[0])  # advance 3 7
        state.apply_action(STOP)
    assert seen == [p % players for p in range(players + 1)]
    assert state.returns() == [0.0] * players


@pytest.mark.parametrize("impl", IMPLS)
def test_a_worked_turn_through_the_pyspiel_api(impl):
    game = _game(impl)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 126
    state.apply_action(roll(4, 3, 2, 1))
    assert state.current_player() == 0
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == [
        "advance 3 7",
        "advance 4 6",
        "advance 5 5",
    ]
    state.apply_action(state.legal_actions()[0])
    state.apply_action(ROLL)
    state.apply_action(roll(1, 1, 1, 1))  # 2+2: the third runner, two steps
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == ["advance 2 2"]
    state.apply_action(state.legal_actions()[0])
    state.apply_action(ROLL)
    state.apply_action(roll(6, 6, 6, 6))  # 12+12 with no runner left: bust
    assert str(state).split("\n")[0] == "turn 0: player 0 busted, to stop"
    assert state.legal_actions() == [STOP]
    state.apply_action(STOP)
    assert state.is_chance_node()
    assert str(state) == "\n".join(
        [
            "turn 1: player 1 to roll",
            "column    2  3  4  5  6  7  8  9 10 11 12",
            "height    3  5  7  9 11 13 11  9  7  5  3",
            "p0        0  0  0  0  0  0  0  0  0  0  0",
            "p1        0  0  0  0  0  0  0  0  0  0  0",
            "runners   .  .  .  .  .  .  .  .  .  .  .",
        ]
    )
    state.apply_action(roll(1, 2, 3, 4))
    state.apply_action(state.legal_actions()[2])  # 5 twice
    assert str(state).split("\n")[0] == "turn 1: player 1 to roll or stop"
    assert str(state).split("\n")[-1].split()[4] == "2"
    state.apply_action(STOP)
    assert str(state).split("\n")[4].split()[4] == "2"


@pytest.mark.parametrize("impl", IMPLS)
def test_the_horizon_ends_the_game_in_a_draw(impl):
    state = _game(impl, {"horizon": 2}).new_initial_state()
    for _ in range(2):
        state.apply_action(roll(1, 2, 3, 4))
        state.apply_action(state.legal_actions()[0])
        state.apply_action(STOP)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert str(state).split("\n")[0] == "turn 2: draw at the horizon"


def test_game_info_and_parameters():
    game = games.python_game("cant_stop(players=3,horizon=50)")
    assert game.num_players() == 3 and game.num_distinct_actions() == NUM_ACTIONS == 79
    assert game.max_chance_outcomes() == 126
    assert game.max_game_length() == 50 * 71
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    for spec, words in [
        ("cant_stop(players=5)", ["players=5", "[2, 4]"]),
        ("cant_stop(players=1)", ["players=1", "[2, 4]"]),
        ("cant_stop(horizon=0)", ["horizon=0", "turns before a draw"]),
        ("cant_stop(dice=5)", ["unknown parameter", "dice"]),
    ]:
        with pytest.raises(ValueError) as error:
            games.python_game(spec)
        assert all(w in str(error.value) for w in words), str(error.value)
    assert HEIGHTS == (3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_one_winner_and_strings_round_trip(players):
    game = games.python_game("cant_stop", {"players": players})
    rng = random.Random(players)
    evaluator = CantStopEvaluator(game)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            pos = state.search_position()
            assert CantStopPosition.from_string(pos.rules, str(state)) == pos
            values = evaluator.evaluate(state)
            assert len(values) == players and ordered_sum(values) == 0.0
            assert all(-1.0 <= v <= 1.0 for v in values)
            state.apply_action(random_action(state, rng))
        returns = state.returns()
        assert sorted(returns)[-1] == 1.0 and returns.count(1.0) == 1
        assert state.search_position().turns < 1000


def test_the_evaluator_prefers_progress_and_discounts_runners_at_risk():
    evaluator = CantStopEvaluator(games.python_game("cant_stop"))
    even = evaluator.values(position([{}, {}]))
    assert even[0] == -even[1] and abs(even[0]) < 1e-12
    ahead = evaluator.values(position([{7: 8, 6: 5}, {}], mover=1))
    assert ahead[0] > 0.2 and ahead[1] == -ahead[0]
    # Runners on 2, 3 and 12 (one step each): safe once stopped, at risk when rolling.
    runners = {2: 1, 3: 1, 12: 1}
    can_stop = evaluator.values(position([{}, {}], runners, phase=ROLL_OR_STOP))[0]
    at_risk = evaluator.values(position([{}, {}], runners, phase=TO_ROLL))[0]
    assert can_stop > at_risk > even[0]
    # With 4 players the values sum to 0 and the leader is ahead of the rest.
    four_players = CantStopEvaluator(games.python_game("cant_stop(players=4)"))
    four = four_players.values(position([{7: 10}, {}, {}, {}], mover=2))
    assert ordered_sum(four) == 0.0 and four[0] > 0 > four[1] == pytest.approx(four[3])


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("players", [3, 4])
def test_whole_games_with_random_and_mcts_at_3_and_4_players(impl, players):
    game = _game(impl, {"players": players})
    rng = np.random.RandomState(players)
    seats = [bots.make_bot("random", game, 0, seed=1)]
    seats += [
        bots.make_bot("mcts(evaluator=heuristic,max_simulations=20)", game, p)
        for p in range(1, players)
    ]
    returns = evaluate_bots(game.new_initial_state(), seats, rng)
    assert len(returns) == players and math.fsum(returns) == pytest.approx(0.0)
