"""One seeded position sampler for the library, every experiment program and the tests.

It sits on the games floor because both floors above draw positions with it: the
bots' quick self-calibration (bots/calibration_fit.py) and the experiments' position
sets, which must fit and measure the same kind of positions.

Position i of a sample depends only on (seed, i): its own generator is
``random.Random(f"node_reduction:{seed}:{i}")`` (a string seed hashes stably
across processes and Python versions). The prefix is the one the published
node-reduction position sets were drawn with, kept so that they stay
reproducible. A position plays a number of uniformly random decision moves
drawn from ``plies`` (chance events follow their probabilities); a game that
ends first is replayed with the same generator, so the result stays
deterministic.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from typing import Any

import pyspiel

KINDS = ("decision", "chance")
_SEED_PREFIX = "node_reduction"
_MAX_ATTEMPTS = 1000


def position_rng(seed: int, index: int) -> random.Random:
    """The generator of position `index` of the sample with this seed."""
    return random.Random(f"{_SEED_PREFIX}:{seed}:{index}")


def sample_position(
    game: pyspiel.Game,
    seed: int,
    index: int,
    plies: tuple[int, int],
    *,
    kind: str = "decision",
    player: int | None = None,
    min_legal_actions: int = 1,
) -> pyspiel.State:
    """Position `index` of the sample: a state after random play, as the module says.

    kind="decision": the first decision node once the drawn number of decision
    moves has been played; kind="chance": the first chance node from then on
    (one with at least one non-terminal outcome) and after the game's first
    decision, since a search, which starts at a decision node, never meets the
    chance nodes before it (einstein's set-up, 720 outcomes each of whose
    subtrees is a second set-up; backgammon's opening roll). `player` and
    `min_legal_actions` keep playing random moves until that player is to move
    with that many legal moves (decision positions only).
    """
    low, high = _check(game, plies, kind, player, min_legal_actions)
    rng = position_rng(seed, index)
    for _ in range(_MAX_ATTEMPTS):
        target = rng.randint(low, high)
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                if (
                    kind == "chance"
                    and moves >= max(target, 1)
                    and _has_live_outcome(state, outcomes)
                ):
                    return state
                actions, probs = zip(*outcomes)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            legal = state.legal_actions()
            if (
                kind == "decision"
                and moves >= target
                and (player is None or state.current_player() == player)
                and len(legal) >= min_legal_actions
            ):
                return state
            state.apply_action(rng.choice(legal))
            moves += 1
    raise ValueError(
        f"could not reach a non-terminal {kind} node of {game} after {low}..{high} random "
        f"moves in {_MAX_ATTEMPTS} games; lower the range of plies"
    )


def sample_positions(
    game: pyspiel.Game,
    count: int,
    seed: int,
    plies: tuple[int, int],
    *,
    start: int = 0,
    **where: Any,
) -> list[pyspiel.State]:
    """Positions start .. start+count-1 of the sample; none depends on `count`. ``where``
    holds `sample_position`'s keywords (kind, player, min_legal_actions)."""
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    return [sample_position(game, seed, i, plies, **where) for i in range(start, start + count)]


def state_from_history(game: pyspiel.Game, history: Sequence[int]) -> pyspiel.State:
    """Replays a recorded action history (chance outcomes included) from the initial state."""
    state = game.new_initial_state()
    for k, action in enumerate(history):
        if state.is_terminal():
            raise ValueError(f"history of {game} ends the game at action {k} of {len(history)}")
        legal = (
            [a for a, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions()
        )
        if action not in legal:
            raise ValueError(f"action {action} at position {k} of the history is not legal")
        state.apply_action(action)
    return state


def positions_from_games(
    game: pyspiel.Game, records: Iterable[dict], count: int, seed: int
) -> list[tuple[str, list[int]]]:
    """``count`` decision positions of recorded games of ``game``, as (source, history).

    The positions a tournament's bots actually faced, where random play (the
    sampler above) reaches others: in backgammon random play leaves blots
    everywhere and branching far above a game between search bots. Candidates are
    the decision nodes with two or more legal moves (with one there is nothing to
    choose, so depth cannot matter) of every record of this game without an
    error, in record-id order; they are shuffled with a generator seeded by ``seed`` and the first
    ``count`` kept. ``source`` names the record and the ply: "<record id>@<ply>".
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    name = str(game)
    candidates: list[tuple[str, list[int]]] = []
    matching = 0
    for record in sorted(records, key=lambda r: str(r.get("id"))):
        if record.get("error") or not record.get("history"):
            continue
        if _game_string(record.get("game")) != name:
            continue
        matching += 1
        history = [int(a) for a in record["history"]]
        state = game.new_initial_state()
        for ply, action in enumerate(history):
            if state.is_terminal():
                break
            if not state.is_chance_node() and len(state.legal_actions()) >= 2:
                candidates.append((f"{record['id']}@{ply}", history[:ply]))
            state.apply_action(action)
    if len(candidates) < count:
        raise ValueError(
            f"the recorded games hold {len(candidates)} decision positions of {name} "
            f"with two or more legal moves ({matching} games of it); {count} requested: "
            f"ask for fewer positions or record more games"
        )
    random.Random(f"game_positions:{seed}").shuffle(candidates)
    return candidates[:count]


@functools.lru_cache(maxsize=64)
def _game_string(game_string: object) -> str | None:
    """The canonical string of a recorded game (as ``str(game)`` gives it), or None when
    it does not load (a game of some other program, a malformed record)."""
    try:
        return str(pyspiel.load_game(str(game_string)))
    except Exception:  # pyspiel.SpielError: an unknown name or bad parameters
        return None


def _has_live_outcome(state: pyspiel.State, outcomes: Sequence[tuple[int, float]]) -> bool:
    return any(not state.child(a).is_terminal() for a, _ in outcomes)


def _check(
    game: pyspiel.Game,
    plies: tuple[int, int],
    kind: str,
    player: int | None,
    min_legal_actions: int,
) -> tuple[int, int]:
    if kind not in KINDS:
        raise ValueError(f"unknown position kind {kind!r}; accepted: {', '.join(KINDS)}")
    try:
        low, high = (int(p) for p in plies)
    except (TypeError, ValueError):
        raise ValueError(f"plies must be a pair (low, high) of integers, got {plies!r}") from None
    if not 0 <= low <= high:
        raise ValueError(f"plies must satisfy 0 <= low <= high, got {plies!r}")
    if player is not None and not 0 <= player < game.num_players():
        raise ValueError(f"player {player} is not a player of {game}")
    if kind == "chance" and (player is not None or min_legal_actions != 1):
        raise ValueError("player and min_legal_actions apply to decision positions only")
    return low, high
