"""Rule tests from hand-built positions, plus independent slow reference
implementations of Dice and chance tic-tac-toe compared along random games.

Tests through the public pyspiel API run on both implementations of a game:
"registered" is what ``pyspiel.load_game`` builds (the C++ twin where the native
engine is loaded), "python" the Python game built directly
(``games.python_game``), walked through its fast-path positions.
"""

from __future__ import annotations

import itertools
import math
import random

import pyspiel
import pytest
from helpers.games_in_scope import BAD_PARAMETERS

import games
from games.ballard_tree import BallardPosition, ballard_rules, chance_arcs, leaf_bounds
from games.chance_tic_tac_toe import NO_BLOCK, ChanceTTTPosition
from games.dice import DicePosition, dice_rules

CHANCE, TERMINAL = -1, -4
IMPLS = ["registered", "python"]


def _game(impl, spec, params=None):
    if impl == "registered":
        return pyspiel.load_game(spec) if params is None else pyspiel.load_game(spec, params)
    return games.python_game(spec, params)


def _root(impl, game):
    """The initial node: a pyspiel state ("registered") or the Python game's position.

    Both have is_terminal, is_chance_node, current_player, legal_actions,
    chance_outcomes, child and returns (sequences: lists for states, tuples for
    positions).
    """
    state = game.new_initial_state()
    return state if impl == "registered" else state.search_position()


# ---------------------------------------------------------------- Dice ----


def _windows(n, k):
    """All k-windows as lists of (row, col), by direction (slow reference)."""
    out = {"row": [], "col": [], "diag": [], "anti": []}
    for r, c in itertools.product(range(n), repeat=2):
        for name, (dr, dc) in (
            ("row", (0, 1)),
            ("col", (1, 0)),
            ("diag", (1, 1)),
            ("anti", (1, -1)),
        ):
            cells = [(r + i * dr, c + i * dc) for i in range(k)]
            if all(0 <= x < n and 0 <= y < n for x, y in cells):
                out[name].append(cells)
    return out


@pytest.mark.parametrize("n,k", [(5, 4), (4, 3), (3, 3), (6, 4), (4, 2)])
@pytest.mark.parametrize("player", [0, 1])
def test_dice_every_window_wins_in_every_direction(n, k, player):
    rules = dice_rules(n, k)
    wins = _windows(n, k)
    assert all(wins[d] for d in wins)  # rows, columns and both diagonals
    for direction, windows in wins.items():
        for cells in windows:
            for missing in cells:  # complete the window at any cell
                board = [["."] * n for _ in range(n)]
                for r, c in cells:
                    if (r, c) != missing:
                        board[r][c] = "xo"[player]
                text = " ".join("".join(row) for row in board)
                line = missing[1] if player == 0 else missing[0]
                pos = DicePosition.from_board(rules, text, player, line)
                cell = missing[0] * n + missing[1]
                assert cell in pos.legal_actions()
                child = pos.child(cell)
                assert child.is_terminal(), (direction, cells, missing)
                expected = (1.0, -1.0) if player == 0 else (-1.0, 1.0)
                assert child.returns() == expected


def test_dice_gap_or_opponent_stone_is_not_a_win():
    rules = dice_rules(5, 4)
    # x x . x x on row 0: x plays (1, 2) elsewhere -> still no win.
    pos = DicePosition.from_board(rules, "xx.xx ..... ..... ..... .....", 0, 2)
    child = pos.child(7)
    assert not child.is_terminal() and child.is_chance_node()
    # Diagonal x x o x: four stones but not x's.
    pos = DicePosition.from_board(rules, "x.... .x... ..o.. ..... .....", 0, 3)
    assert not pos.child(18).is_terminal()
    pos = DicePosition.from_board(rules, "x.... .x... ..x.. ..... .....", 0, 3)
    assert pos.child(18).returns() == (1.0, -1.0)


def test_dice_anti_diagonal_and_o_on_a_row():
    rules = dice_rules(5, 4)
    pos = DicePosition.from_board(rules, "....x ...x. ..x.. ..... .....", 0, 1)
    assert pos.child(16).returns() == (1.0, -1.0)  # (3, 1) completes it
    pos = DicePosition.from_board(rules, "..... ..... .ooo. ..... .....", 1, 2)
    assert set(pos.legal_actions()) == {10, 14}
    assert pos.child(14).returns() == (-1.0, 1.0)
    assert pos.child(10).returns() == (-1.0, 1.0)


@pytest.mark.parametrize("impl", IMPLS)
def test_dice_chance_nodes_and_initial_state(impl):
    game = _game(impl, "dice(n=5,k=4)")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(i, 0.2) for i in range(5)]
    assert game.num_distinct_actions() == 26
    assert game.max_chance_outcomes() == 5
    state.apply_action(3)  # x rolls column 3
    assert state.current_player() == 0
    assert state.legal_actions() == [3, 8, 13, 18, 23]
    state.apply_action(8)
    assert state.is_chance_node()
    state.apply_action(1)  # o rolls row 1
    assert state.current_player() == 1
    assert state.legal_actions() == [5, 6, 7, 9]


def test_dice_pass_on_a_full_line():
    rules = dice_rules(3, 3)
    pass_action = 9
    pos = DicePosition.from_board(rules, "x.o o.. x.x", 0, 0)  # column 0 full
    assert pos.legal_actions() == (pass_action,)
    child = pos.child(pass_action)
    assert child.is_chance_node() and child[4] == 1  # o rolls next
    assert child[1:3] == pos[1:3]  # board unchanged
    pos = DicePosition.from_board(rules, "x.o oxo x.x", 1, 1)  # row 1 full
    assert pos.legal_actions() == (pass_action,)
    assert pos.child(pass_action)[3:] == (CHANCE, 0)
    state = pos.to_state()
    assert state.action_to_string(1, pass_action) == "o pass"


def test_dice_full_board_draw():
    rules = dice_rules(3, 3)
    # x o x / x o o / o x .  -- x fills (2, 2) without three in a row.
    pos = DicePosition.from_board(rules, "xox xoo ox.", 0, 2)
    assert pos.legal_actions() == (8,)
    child = pos.child(8)
    assert child.is_terminal() and child.returns() == (0.0, 0.0)
    assert child.to_state().returns() == [0.0, 0.0]


@pytest.mark.parametrize("impl", IMPLS)
def test_dice_k1_first_stone_wins(impl):
    game = _game(impl, "dice(n=3,k=1)")
    state = game.new_initial_state()
    state.apply_action(1)
    state.apply_action(4)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


class _RefDice:
    """Slow, obviously-correct Dice rules on a list board."""

    def __init__(self, n, k):
        self.n, self.k = n, k
        self.board = [[None] * n for _ in range(n)]
        self.player, self.line, self.result = 0, None, None

    def winner(self, p):
        for cells in itertools.chain(*_windows(self.n, self.k).values()):
            if all(self.board[r][c] == p for r, c in cells):
                return True
        return False

    def legal(self):
        n = self.n
        cells = (
            [(r, self.line) for r in range(n)]
            if self.player == 0
            else [(self.line, c) for c in range(n)]
        )
        empty = sorted(r * n + c for r, c in cells if self.board[r][c] is None)
        return empty or [n * n]

    def apply(self, action):
        if self.line is None:
            self.line = action
            return
        n = self.n
        if action != n * n:
            self.board[action // n][action % n] = self.player
            if self.winner(self.player):
                self.result = 1 if self.player == 0 else -1
            elif all(x is not None for row in self.board for x in row):
                self.result = 0
        self.player, self.line = 1 - self.player, None


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("n,k", [(5, 4), (4, 3), (3, 3), (6, 4), (3, 2)])
def test_dice_matches_reference_on_random_games(n, k, impl):
    game = _game(impl, "dice", {"n": n, "k": k})
    rng = random.Random(n * 10 + k)
    for _ in range(30):
        pos, ref = _root(impl, game), _RefDice(n, k)
        while ref.result is None:
            assert not pos.is_terminal()
            if ref.line is None:
                assert pos.is_chance_node()
                assert list(pos.chance_outcomes()) == [(i, 1.0 / n) for i in range(n)]
                action = rng.randrange(n)
            else:
                assert pos.current_player() == ref.player
                assert list(pos.legal_actions()) == ref.legal()
                action = rng.choice(ref.legal())
            pos = pos.child(action)
            ref.apply(action)
        assert pos.is_terminal()
        assert list(pos.returns()) == [float(ref.result), float(-ref.result)]


@pytest.mark.parametrize("impl", IMPLS)
def test_dice_max_game_length_bound_grows_with_n(impl):
    lengths = [_game(impl, "dice", {"n": n, "k": 2}).max_game_length() for n in (2, 3, 5, 8)]
    assert lengths == sorted(lengths) and lengths[0] > 2 * 2 * 2


# -------------------------------------------------- chance tic-tac-toe ----


def test_ttt_block_probabilities():
    pos = ChanceTTTPosition.initial()
    assert pos.current_player() == 0 and not pos.is_chance_node()
    pos = pos.child(4)
    assert pos.is_chance_node()
    outcomes = dict(pos.chance_outcomes())
    assert outcomes[NO_BLOCK] == 0.5
    assert sorted(outcomes) == [0, 1, 2, 3, 5, 6, 7, 8, NO_BLOCK]
    assert all(outcomes[c] == pytest.approx(1 / 16) for c in outcomes if c != NO_BLOCK)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    # Block cell 0, o plays 8, then 6 empty squares: 1/12 each.
    pos = pos.child(0)
    assert pos.current_player() == 1 and 0 not in pos.legal_actions()
    pos = pos.child(8).child(NO_BLOCK).child(2)
    outcomes = dict(pos.chance_outcomes())
    assert sorted(outcomes) == [1, 3, 5, 6, 7, NO_BLOCK]
    assert all(outcomes[c] == pytest.approx(1 / 10) for c in (1, 3, 5, 6, 7))
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_ttt_wins_draws_and_blocks():
    # x completes the anti-diagonal: terminal at once, no chance node.
    pos = ChanceTTTPosition.from_board("..x .x. ..o", 0)
    assert pos.child(6).returns() == (1.0, -1.0)
    # o completes the bottom row.
    pos = ChanceTTTPosition.from_board("x.x .x. oo.", 1)
    assert pos.child(8).is_terminal()
    assert pos.child(8).returns() == (-1.0, 1.0)
    # A blocked square breaks a line and is not playable.
    pos = ChanceTTTPosition.from_board("xx# oo. ...", 0)
    assert 2 not in pos.legal_actions()
    child = pos.child(6)
    assert child.is_chance_node() and child[4] == 1
    # The last empty square gets blocked: draw.
    pos = ChanceTTTPosition.from_board("xox oxo o.#", CHANCE, 0)
    assert dict(pos.chance_outcomes()) == {7: 0.5, NO_BLOCK: 0.5}
    assert pos.child(7).is_terminal()
    assert pos.child(7).returns() == (0.0, 0.0)
    assert pos.child(NO_BLOCK).current_player() == 0
    # A move that fills the board ends the game without a chance node.
    pos = ChanceTTTPosition.from_board("xox oxo o.#", 0)
    assert pos.child(7).is_terminal() and pos.child(7).returns() == (0.0, 0.0)


# Derived here, not copied from the game: rows, columns, then the two diagonals.
_TTT_LINES = (
    [tuple(range(3 * row, 3 * row + 3)) for row in range(3)]
    + [tuple(range(column, 9, 3)) for column in range(3)]
    + [(0, 4, 8), (2, 4, 6)]
)


@pytest.mark.parametrize("impl", IMPLS)
def test_ttt_matches_reference_on_random_games(impl):
    game = _game(impl, "chance_tic_tac_toe")
    if impl == "python":
        assert _root(impl, game) == ChanceTTTPosition.initial()
    rng = random.Random(5)
    for _ in range(200):
        pos = _root(impl, game)
        cells, player, result = [None] * 9, 0, None
        while result is None:
            empty = [c for c in range(9) if cells[c] is None]
            assert pos.current_player() == player
            assert list(pos.legal_actions()) == empty
            a = rng.choice(empty)
            cells[a] = player
            pos = pos.child(a)
            if any(all(cells[c] == player for c in line) for line in _TTT_LINES):
                result = 1 if player == 0 else -1
                break
            empty = [c for c in range(9) if cells[c] is None]
            if not empty:
                result = 0
                break
            expected = {c: 0.5 / len(empty) for c in empty}
            expected[NO_BLOCK] = 0.5
            assert dict(pos.chance_outcomes()) == pytest.approx(expected)
            outcome = rng.choice(list(expected))
            pos = pos.child(outcome)
            if outcome != NO_BLOCK:
                cells[outcome] = "#"
                if all(x is not None for x in cells):
                    result = 0
                    break
            player = 1 - player
        assert pos.is_terminal()
        assert list(pos.returns()) == [float(result), float(-result)]


# --------------------------------------------------------- ballard tree ----


def _leaves(pos):
    if pos.is_terminal():
        yield pos
        return
    for a in pos.legal_actions():
        yield from _leaves(pos.child(a))


@pytest.mark.parametrize("impl", IMPLS)
def test_ballard_n2_leaf_values_by_hand(impl):
    game = _game(impl, "ballard_tree(n=2,plies=2)")
    # max arcs (0, -1); chance arcs ascending (-1, +1); min arcs (0, 1).
    values = [p.returns()[0] for p in _leaves(_root(impl, game))]
    assert values == [-1, 0, 1, 2, -2, -1, 0, 1]
    assert leaf_bounds(game) == (-2, 2)
    if impl == "python":
        assert game.leaf_bounds() == (-2, 2)
    state = game.new_initial_state()
    for a in (1, 0, 1):
        state.apply_action(a)
    assert state.returns() == [-1.0 - 1.0 + 1.0, 1.0]
    assert state.history() == [1, 0, 1]
    assert game.max_game_length() == 2


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("n,expected", [(2, 2), (3, 3), (4, 5), (6, 8), (10, 14), (40, 59)])
def test_ballard_bounds_are_3n_over_2_minus_1(n, expected, impl):
    game = _game(impl, "ballard_tree", {"n": n})
    lo, hi = leaf_bounds(game)
    if impl == "python":
        assert game.leaf_bounds() == (lo, hi)
    assert (lo, hi) == (-expected, expected)
    if n % 2 == 0:
        assert hi == 3 * n // 2 - 1
    if n <= 6:  # the bounds are attained
        values = [p.returns()[0] for p in _leaves(_root(impl, game))]
        assert (min(values), max(values)) == (lo, hi)
    assert (game.min_utility(), game.max_utility()) == (lo, hi)


@pytest.mark.parametrize("impl", IMPLS)
def test_ballard_deeper_trees_and_final_chance(impl):
    # n=4, plies=3: levels max, chance, min, chance, max.
    game = _game(impl, "ballard_tree(n=4,plies=3)")
    assert leaf_bounds(game) == (-3 - 2 + 0 - 2 - 3, 0 + 2 + 3 + 2 + 0)
    assert (game.min_utility(), game.max_utility()) == (-10, 10)
    if impl == "python":
        assert game.leaf_bounds() == leaf_bounds(game)
        r = game.rules
        assert r.players == (0, CHANCE, 1, CHANCE, 0, TERMINAL)
        assert r.level_arcs[1] == (-2, -1, 1, 2)  # chance below max: ascending
        assert r.level_arcs[3] == (2, 1, -1, -2)  # chance below min: descending
    # The levels as the game plays them: max, chance, min, chance, max.
    node, kinds = _root(impl, game), []
    while not node.is_terminal():
        kinds.append(node.current_player())
        node = node.child(node.legal_actions()[0])
    assert kinds == [0, CHANCE, 1, CHANCE, 0]
    assert game.max_game_length() == 3
    game = _game(impl, "ballard_tree(n=4,plies=2,final_chance=true)")
    if impl == "python":
        assert game.rules.players == (0, CHANCE, 1, CHANCE, TERMINAL)
    assert leaf_bounds(game) == (-7, 7)
    leaves = list(_leaves(_root(impl, game)))
    assert len(leaves) == 4**4
    assert {p.returns()[0] for p in leaves} <= set(range(-7, 8))
    game = _game(impl, "ballard_tree(n=3,plies=1)")
    assert [p.returns()[0] for p in _leaves(_root(impl, game))] == [0, -1, -2]
    assert chance_arcs(5) == (-2, -1, 0, 1, 2)
    assert chance_arcs(4) == (-2, -1, 1, 2)


def _expectimax(pos):
    if pos.is_terminal():
        return pos.returns()[0]
    if pos.is_chance_node():
        return sum(p * _expectimax(pos.child(a)) for a, p in pos.chance_outcomes())
    vals = [_expectimax(pos.child(a)) for a in pos.legal_actions()]
    return max(vals) if pos.current_player() == 0 else min(vals)


@pytest.mark.parametrize("impl", IMPLS)
def test_ballard_random_order_permutes_successors_deterministically(impl):
    def arcs(seed, path):
        return ballard_rules(4, 2, "random", seed, False).arcs_at(path)

    best = ballard_rules(4, 2, "best", 0, False)
    for path in [(), (1,), (2, 3)]:
        assert sorted(arcs(0, path)) == sorted(best.arcs_at(path))
    assert arcs(0, (1,)) == arcs(0, (1,))
    # Seeds give different trees; same seed, fresh game, same tree.
    trees = {tuple(arcs(s, p) for p in [(), (0,), (1,), (0, 0), (3, 2)]) for s in range(20)}
    assert len(trees) > 15
    g1 = _game(impl, "ballard_tree(n=4,order=random,seed=3)")
    g2 = _game(impl, "ballard_tree(seed=3,order=random,n=4)")
    v1 = [p.returns()[0] for p in _leaves(_root(impl, g1))]
    v2 = [p.returns()[0] for p in _leaves(_root(impl, g2))]
    assert v1 == v2
    best_values = [p.returns()[0] for p in _leaves(_root(impl, _game(impl, "ballard_tree(n=4)")))]
    assert v1 != best_values and sorted(v1) == sorted(best_values)
    # The value of the tree does not depend on the order of successors.
    best = _expectimax(_root(impl, _game(impl, "ballard_tree(n=4,plies=3)")))
    for seed in range(3):
        g = _game(impl, "ballard_tree", {"n": 4, "order": "random", "seed": seed, "plies": 3})
        assert _expectimax(_root(impl, g)) == pytest.approx(best)


def _star1(pos, alpha, beta, lo, hi, leaves):
    """Textbook Star1 (Ballard 1983, fail-hard), counting leaves."""
    if pos.is_terminal():
        leaves[0] += 1
        return pos.returns()[0]
    player = pos.current_player()
    if player == 0:
        for a in pos.legal_actions():
            v = _star1(pos.child(a), alpha, beta, lo, hi, leaves)
            if v >= beta:
                return beta
            alpha = max(alpha, v)
        return alpha
    if player == 1:
        for a in pos.legal_actions():
            v = _star1(pos.child(a), alpha, beta, lo, hi, leaves)
            if v <= alpha:
                return alpha
            beta = min(beta, v)
        return beta
    outcomes = pos.chance_outcomes()
    n = len(outcomes)
    a_i, b_i, total = n * (alpha - hi) + hi, n * (beta - lo) + lo, 0.0
    for action, _ in outcomes:
        v = _star1(pos.child(action), max(a_i, lo), min(b_i, hi), lo, hi, leaves)
        if v <= a_i:
            return alpha
        if v >= b_i:
            return beta
        total += v
        a_i += hi - v
        b_i += lo - v
    return total / n


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("n,expected", [(2, 5), (4, 40), (6, 138), (8, 336)])
def test_ballard_best_order_reproduces_table1_star1(n, expected, impl):
    """order=best is Ballard's best case: Table 1 leaf counts exactly."""
    game = _game(impl, "ballard_tree", {"n": n})
    lo, hi = leaf_bounds(game)
    leaves = [0]
    value = _star1(_root(impl, game), -math.inf, math.inf, lo, hi, leaves)
    assert value == pytest.approx(0.0)
    assert leaves[0] == expected


# ------------------------------------------------------- bad parameters ----


@pytest.mark.parametrize("spec,words", BAD_PARAMETERS)
@pytest.mark.parametrize("impl", IMPLS)
def test_bad_parameters_raise_clear_value_errors(spec, words, impl):
    with pytest.raises(ValueError) as info:
        _game(impl, spec)
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize(
    "spec",
    ["dice(m=3)", "dice(n=abc)", "chance_tic_tac_toe(n=3)", "ballard_tree(final_chance=maybe)"],
)
@pytest.mark.parametrize("impl", IMPLS)
def test_unknown_or_mistyped_parameters_are_refused(spec, impl):
    with pytest.raises((ValueError, pyspiel.SpielError)):
        _game(impl, spec)


def test_positions_are_immutable_tuples():
    pos = BallardPosition.initial(ballard_rules(2, 2, "best", 0, False))
    with pytest.raises(TypeError):
        pos[1] = (0,)  # type: ignore[index]
    with pytest.raises(AttributeError):
        pos.extra = 1  # type: ignore[attr-defined]
