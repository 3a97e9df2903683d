"""Self-play games, the TD update, and the fixed-opponent evaluation.

Values are player 0's. The policy picks, for the mover, the legal move whose resulting
state (the afterstate: before any chance event) is best: `total(A) = returns_0(A) +
out(A)` (out = 0 at a terminal state), maximised by player 0 (and in one-player
games), minimised by player 1. In zero-sum games the returns of non-terminal states
are 0, so that is `out`; in 2048 it is the score so far plus the predicted future score.

A game is recorded as its trajectory (the features and returns of the afterstates it
went through), played with fixed weights; `td_update` then replays it with the current
weights, so W games played with one snapshot and applied in order give the same model
whoever played them.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pyspiel

from bots import make_bot
from bots.evaluators.api import Evaluator, game_value_bounds
from bots.learned import heads
from experiments.learn.features import Encoder
from experiments.learn.models import FloatMLP, FloatModel, FloatNTuple

GREEDY = "greedy"


@dataclasses.dataclass
class Trajectory:
    """The afterstates of one game: features (T, d), returns_0 at each, how it ended."""

    features: np.ndarray
    returns: np.ndarray
    final_return: float  # returns_0 of the terminal state (unused when cut off)
    cut_off: bool
    moves: int


def sample_chance(state: pyspiel.State, rng: np.random.Generator) -> int:
    """One chance outcome drawn with its probability (one uniform draw)."""
    outcomes = state.chance_outcomes()
    cumulative = np.cumsum([p for _, p in outcomes])
    index = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
    return int(outcomes[min(index, len(outcomes) - 1)][0])


def totals(model: FloatModel, features: np.ndarray, children: list[pyspiel.State]) -> np.ndarray:
    """total(A) of each child: returns_0 plus the model's out for the non-terminal ones."""
    values = np.array([child.returns()[0] for child in children], np.float64)
    live = [i for i, child in enumerate(children) if not child.is_terminal()]
    if live:
        values[live] += model.outputs(features[live])
    return values


class FloatEvaluator(Evaluator):
    """The float model behind the evaluator contract, with the spec's heads, so that a
    search bot (make_bot with evaluator=...) can act as the self-play policy."""

    def __init__(self, game: pyspiel.Game, model: FloatModel, encode: Encoder, head: str):
        self.head = head
        low, high = (float(game.min_utility()), float(game.max_utility()))
        if head == "one_player":
            low, high = game_value_bounds(game)
        super().__init__(game, (low, high))
        self.model, self.encode = model, encode

    def _value(self, state: pyspiel.State) -> float:
        out = [float(self.model.outputs(self.encode(state)[None, :])[0])]
        low, high = self.bounds
        if self.head == "zero_sum":
            return heads.zero_sum(out, low, high)[0]
        return heads.one_player(out, float(state.returns()[0]), low, high)[0]


@dataclasses.dataclass
class Player:
    """How self-play picks moves: greedy over afterstates (1 ply) or a search bot."""

    policy: str = GREEDY
    epsilon: float = 0.0
    max_moves: int = 2000


def search_bots(game: pyspiel.Game, policy: str, evaluator: Evaluator, seed: int) -> list[Any]:
    """One bot per player from a make_bot spec, on the Python engine with the float model."""
    from bots.spec import parse_spec

    _, params = parse_spec(policy)
    overrides: dict[str, Any] = {"evaluator": evaluator}
    if "engine" not in params:
        overrides["engine"] = "python"
    if "seed" not in params:
        overrides["seed"] = seed
    return [make_bot(policy, game, p, **overrides) for p in range(game.num_players())]


def play_game(
    game: pyspiel.Game,
    model: FloatModel,
    encode: Encoder,
    player: Player,
    rng: np.random.Generator,
    bots: list[Any] | None = None,
) -> Trajectory:
    """One self-play game with `model` fixed; chance and exploration drawn from `rng`."""
    state = game.new_initial_state()
    features: list[np.ndarray] = []
    returns: list[float] = []
    moves, cut_off = 0, False
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        if moves >= player.max_moves:
            cut_off = True
            break
        mover = state.current_player()
        legal = state.legal_actions()
        explore = player.epsilon > 0 and rng.random() < player.epsilon
        if explore:
            child = state.child(legal[int(rng.integers(len(legal)))])
            x = None if child.is_terminal() else encode(child)
        elif bots is not None:
            child = state.child(bots[mover].step(state))
            x = None if child.is_terminal() else encode(child)
        else:
            children = [state.child(a) for a in legal]
            xs = np.stack([encode(c) for c in children])
            values = totals(model, xs, children)
            best = int(np.argmin(values) if mover == 1 else np.argmax(values))
            child, x = children[best], xs[best]
        if x is not None:
            features.append(x)
            returns.append(child.returns()[0])
        state = child
        moves += 1
    final = float(state.returns()[0]) if state.is_terminal() else 0.0
    width = features[0].shape[0] if features else 0
    stacked = np.stack(features) if features else np.zeros((0, width))
    return Trajectory(stacked, np.array(returns, np.float64), final, cut_off, moves)


def td_update(model: FloatModel, trajectory: Trajectory, alpha: float, lam: float) -> float:
    """Online TD(lambda) along one stored game with the current weights; returns the sum of
    squared TD errors. out(A_t) moves toward total(A_{t+1}) - returns_0(A_t), the last
    one toward the game's return (none when the game was cut off)."""
    x, r = trajectory.features, trajectory.returns
    steps = len(r) if not trajectory.cut_off else len(r) - 1
    if steps <= 0:
        return 0.0
    if isinstance(model, FloatNTuple):
        return _td0_ntuple(model, trajectory, steps, alpha)
    assert isinstance(model, FloatMLP)
    # The step is taken in units of y = out / 2**s, so alpha does not depend on the scale.
    traces = [np.zeros_like(p) for p in model.params()]
    squared = 0.0
    for t in range(steps):
        value, grads = model.output_and_gradient(x[t])
        if t + 1 < len(r):
            target = r[t + 1] + float(model.outputs(x[t + 1 : t + 2])[0]) - r[t]
        else:
            target = trajectory.final_return - r[t]
        delta = target - value
        squared += delta * delta
        step = alpha * delta / (model.scale * model.scale)
        for trace, grad, param in zip(traces, grads, model.params(), strict=True):
            trace *= lam
            trace += grad
            param += step * trace
    return squared


def _td0_ntuple(model: FloatNTuple, trajectory: Trajectory, steps: int, alpha: float) -> float:
    """TD(0) on afterstates (Szubert and Jaskowski 2014): each weight read moves by alpha*delta."""
    indices = model.indices(trajectory.features)
    r = trajectory.returns
    squared = 0.0
    for t in range(steps):
        value = model.luts[indices[t]].sum()
        if t + 1 < len(r):
            target = r[t + 1] + model.luts[indices[t + 1]].sum() - r[t]
        else:
            target = trajectory.final_return - r[t]
        delta = target - value
        squared += delta * delta
        np.add.at(model.luts, indices[t], alpha * delta)
    return squared


# ---------------------------------------------------------------------------------------
# Evaluation against a fixed opponent.

OPPONENT = "expectiminimax(max_depth=1)"


def _greedy_move(state: pyspiel.State, model: FloatModel, encode: Encoder) -> int:
    legal = state.legal_actions()
    children = [state.child(a) for a in legal]
    values = totals(model, np.stack([encode(c) for c in children]), children)
    return int(legal[int(np.argmin(values) if state.current_player() == 1 else np.argmax(values))])


def evaluation_game(
    game: pyspiel.Game,
    model: FloatModel,
    encode: Encoder,
    learned_seat: int,
    seed: int,
    max_moves: int,
) -> float:
    """One game: the greedy learned player against the hand evaluator's 1-ply bot (two
    players; the learned player's score 1, 0.5 or 0) or alone (its final score)."""
    rng = np.random.default_rng([seed, 2])
    opponent = None
    if game.num_players() == 2:
        opponent = make_bot(OPPONENT, game, 1 - learned_seat, seed=seed)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < max_moves:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        if opponent is None or state.current_player() == learned_seat:
            action = _greedy_move(state, model, encode)
        else:
            action = opponent.step(state)
        state.apply_action(action)
        moves += 1
    returns = state.returns()
    if opponent is None:
        return float(returns[0])
    mine, theirs = returns[learned_seat], returns[1 - learned_seat]
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def evaluate(
    game: pyspiel.Game,
    model: FloatModel,
    encode: Encoder,
    games: int,
    seed: int,
    max_moves: int,
) -> dict[str, Any]:
    """The learned player's mean score with a 95% interval over `games` games; two-player
    games are seat-swapped pairs sharing a chance seed (the same seeds at every evaluation)."""
    if game.num_players() == 2:
        pairs = max(1, games // 2)
        samples = [
            0.5
            * sum(
                evaluation_game(game, model, encode, seat, 1_000_003 * seed + i, max_moves)
                for seat in (0, 1)
            )
            for i in range(pairs)
        ]
        opponent = OPPONENT
    else:
        samples = [
            evaluation_game(game, model, encode, 0, 1_000_003 * seed + i, max_moves)
            for i in range(games)
        ]
        opponent = "none (mean score)"
    mean = float(np.mean(samples))
    half = (
        float(1.96 * np.std(samples, ddof=1) / np.sqrt(len(samples))) if len(samples) > 1 else 0.0
    )
    low, high = mean - half, mean + half
    if game.num_players() == 2:  # a score: a share of the points, within [0, 1]
        low, high = max(low, 0.0), min(high, 1.0)
    return {
        "score": mean,
        "interval": [low, high],
        "eval_games": len(samples) * (2 if game.num_players() == 2 else 1),
        "opponent": opponent,
    }
