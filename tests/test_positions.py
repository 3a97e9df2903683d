"""The one seeded position sampler: the node-reduction seed scheme, frozen, and its options."""

from __future__ import annotations

import pytest

from experiments.common.game_loader import load_game
from games.position_sampler import sample_position, sample_positions, state_from_history

# Histories the sampler draws for these seeds: the published node counts in
# docs/reproductions/ rest on them, so the sampler must keep drawing exactly these.
FROZEN = [
    (
        "pig(winscore=30)",
        3,
        (2, 8),
        [[1, 0, 5, 1, 1], [0, 1, 1, 0, 1, 1, 0, 4, 1, 0, 0], [0, 4, 0, 3, 1]],
    ),
    ("dice(n=5,k=4)", 0, (0, 6), [[2, 7, 1, 9, 4, 19, 1, 6, 2, 17, 3], [2], [0, 5, 0]]),
    (
        "backgammon",
        1,
        (4, 10),
        [
            [2, 479, 25, 993, 1, 1160, 11, 993, 10, 520, 7, 154, 7],
            [15, 881, 20, 486, 19, 1324, 32, 24, 419, 28, 1194, 34, 492],
        ],
    ),
]


@pytest.mark.parametrize("game_string, seed, plies, histories", FROZEN)
def test_the_node_reduction_positions_are_reproduced_exactly(game_string, seed, plies, histories):
    game = load_game(game_string)
    states = sample_positions(game, len(histories), seed, plies)
    assert [s.history() for s in states] == histories


def test_position_i_does_not_depend_on_the_count_or_start():
    game = load_game("pig(winscore=30)")
    five = sample_positions(game, 5, 9, (0, 10))
    assert [s.history() for s in sample_positions(game, 2, 9, (0, 10), start=3)] == [
        s.history() for s in five[3:]
    ]
    assert sample_position(game, 9, 4, (0, 10)).history() == five[4].history()


def test_chance_positions_player_filter_and_legal_move_minimum():
    game = load_game("pig(winscore=30)")
    for state in sample_positions(game, 4, 1, (1, 6), kind="chance"):
        assert state.is_chance_node()
        assert any(not state.child(a).is_terminal() for a, _ in state.chance_outcomes())
    for state in sample_positions(game, 4, 1, (0, 6), player=1, min_legal_actions=2):
        assert state.current_player() == 1 and len(state.legal_actions()) >= 2


def test_state_from_history_rebuilds_a_position_and_refuses_an_illegal_one():
    game = load_game("backgammon")
    state = sample_position(game, 1, 0, (4, 10))
    assert str(state_from_history(game, state.history())) == str(state)
    with pytest.raises(ValueError, match="action 9999 at position 0"):
        state_from_history(game, [9999])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"plies": (5, 2)}, "0 <= low <= high"),
        ({"plies": "x"}, "pair"),
        ({"kind": "leaf"}, "accepted: decision, chance"),
        ({"player": 2}, "not a player"),
        ({"kind": "chance", "player": 0}, "decision positions only"),
    ],
)
def test_bad_arguments_are_clear_errors(kwargs, message):
    kwargs = {"plies": (0, 3), **kwargs}
    with pytest.raises(ValueError, match=message):
        sample_position(load_game("pig"), 0, 0, **kwargs)


def test_a_range_the_game_cannot_reach_says_so():
    with pytest.raises(ValueError, match="lower the range of plies"):
        sample_position(load_game("tic_tac_toe"), 0, 0, (10, 12))


@pytest.mark.parametrize("game_string", ["einstein_wurfelt_nicht", "backgammon"])
def test_chance_positions_come_after_the_first_decision(game_string):
    # The chance nodes before it (einstein's 720-outcome set-up, backgammon's opening
    # roll) are never inside a search, and einstein's set-up would take minutes to search.
    game = load_game(game_string)
    for state in sample_positions(game, 40, 0, (0, 30), kind="chance"):
        assert state.is_chance_node()
        replay = game.new_initial_state()
        decisions = 0
        for action in state.history():
            decisions += int(not replay.is_chance_node())
            replay.apply_action(action)
        assert decisions >= 1
        assert len(state.chance_outcomes()) < 720
