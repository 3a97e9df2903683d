"""Transposition-table keys: which states the table may treat as one.

A key must determine the rest of the game (tests/test_transposition_keys.py
checks this over whole search trees): two states with equal keys must have the
same player to move, legal actions or chance outcomes, returns, and children
with equal keys. A key that merges two different states silently breaks
exactness.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import pyspiel

KeyFunction = Callable[[Any], Hashable]


def string_key(state: Any) -> Hashable:
    # The player is part of the key: several games print a chance node and the
    # decision node after it identically.
    return (state.current_player(), str(state))


# Pig prints the scores, the turn total, the player and whether a roll is pending
# ("Current player: 0 (rolling)" at a chance node), so its string alone is a sound
# key, and the builtin costs no Python frame per lookup.
pig_key: KeyFunction = str


def einstein_key(state: Any) -> Hashable:
    # The board string omits the die (the last action at a decision node) and,
    # at a chance node, whose turn follows (a turn is a roll and a move).
    player = state.current_player()
    die = state.history()[-1] if player >= 0 else -1
    return (player, str(state), state.move_number() % 4, die)


def history_key(state: Any) -> Hashable:
    # Always sound: equal histories are equal states. Finds no transpositions
    # between different move orders, but still serves iterative deepening,
    # probes and repeated searches of the same position. Its size grows with
    # the game, so the engine stores HistoryDigestNode digests in its place.
    return tuple(state.history())


# History digests: a polynomial hash of the action sequence modulo the Mersenne
# prime 2**127 - 1, extended one action at a time. Two different histories of
# length <= n give different polynomials in the multiplier, which therefore
# collide for at most n of its 2**127 - 1 values: for a multiplier drawn at
# random, the chance that any two of M distinct states collide is at most
# M**2 * n / 2**128 (1e9 states of 10,000-action games: 3e-17). A digest is a
# 127-bit int, 44 bytes, whatever the length of the game.
DIGEST_MODULUS = (1 << 127) - 1
DIGEST_MULTIPLIER = 0x20ED522615E56B36218A9C69723E4FFD  # drawn once with secrets.randbits


def extend_digest(digest: int, action: int) -> int:
    """The digest of a history extended by ``action`` (+1 keeps action 0 visible)."""
    return (digest * DIGEST_MULTIPLIER + action + 1) % DIGEST_MODULUS


def history_digest(history: Iterable[int]) -> int:
    digest = 0
    for action in history:
        digest = extend_digest(digest, action)
    return digest


class HistoryDigestNode:
    """A pyspiel state carried with the digest of its history.

    Keys the games whose states print too little to be keyed by their string
    (2048, yacht, maedn, banqi): the root digest is computed once per search,
    each child's from its parent's in O(1), so a key costs neither time nor
    memory in proportion to the game's length, as the full history did.
    """

    __slots__ = ("state", "digest")

    def __init__(self, state: Any, digest: int):
        self.state = state
        self.digest = digest

    @classmethod
    def root(cls, state: Any) -> HistoryDigestNode:
        return cls(state, history_digest(state.history()))

    def current_player(self) -> int:
        return self.state.current_player()

    def legal_actions(self) -> Sequence[int]:
        return self.state.legal_actions()

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        return self.state.chance_outcomes()

    def returns(self) -> Sequence[float]:
        return self.state.returns()

    def child(self, action: int) -> HistoryDigestNode:
        return HistoryDigestNode(self.state.child(action), extend_digest(self.digest, action))

    def to_state(self) -> Any:
        return self.state


def digest_key(node: HistoryDigestNode) -> Hashable:
    """The key of a node that carries its history's digest."""
    return node.digest


def python_state_key(state: Any) -> Hashable:
    # A Python game's state may be built mid-game with a short history (a
    # position's to_state()), so the history alone can name two states.
    return (tuple(state.history()), state.current_player(), str(state))


def position_key(position: Any) -> Hashable:
    """A custom game's position is immutable and hashable: its own key."""
    return position


def custom_game_key(state: Any) -> Hashable:
    """The C++ twins of the games in games/ (dice, chance_tic_tac_toe, ballard_tree, cant_stop).

    Their strings print every field of the Python position (board or path, player,
    line, roller, result; the game's parameters are the same within a search), so
    two states print alike exactly when their positions are equal: the table finds
    the same transpositions on either twin and node counts do not move.
    """
    return str(state)


# Keys checked to determine the rest of the game (tests/test_transposition_keys.py);
# every other game is keyed by its history (as a digest). Not 2048: equal boards and scores
# can have different legal moves there (hidden merge flags), and yacht, maedn
# and banqi print too little of the state.
KEY_FUNCTIONS: dict[str, KeyFunction] = {
    "pig": pig_key,
    "backgammon": string_key,
    "catch": string_key,
    "einstein_wurfelt_nicht": einstein_key,
    "dice": custom_game_key,
    "chance_tic_tac_toe": custom_game_key,
    "ballard_tree": custom_game_key,
    "cant_stop": custom_game_key,
}


class TwinSamplingKeys(Mapping[str, KeyFunction]):
    """MCMS's sampling keys for the C++ twins of the games in games/, by short name.

    A twin's state is keyed in the table by its string (``custom_game_key``), but its
    draws are seeded with the Python position rebuilt from it, so they are the same
    on either twin: the position class's ``from_state``, which every Python game of
    games/ offers as ``position_class``. Looked up in ``games.PYTHON_GAMES`` when
    asked for: games/ knows nothing of bots, and importing this module registers no game.
    """

    def __getitem__(self, short_name: str) -> KeyFunction:
        import games  # noqa: PLC0415 - registers the games; only when a key is asked for

        name = games.plain_name(short_name)
        if KEY_FUNCTIONS.get(name) is not custom_game_key:
            raise KeyError(short_name)
        return games.PYTHON_GAMES[name].position_class.from_state

    def __iter__(self) -> Iterator[str]:
        return (name for name, key_fn in KEY_FUNCTIONS.items() if key_fn is custom_game_key)

    def __len__(self) -> int:
        return sum(1 for _ in self)


SAMPLING_KEY_FUNCTIONS: Mapping[str, KeyFunction] = TwinSamplingKeys()


def default_key_function(game: pyspiel.Game) -> KeyFunction:
    """Transposition key for pyspiel states of ``game`` (positions are their own key)."""
    from games import plain_name  # noqa: PLC0415 - importing this module registers no game

    return KEY_FUNCTIONS.get(plain_name(game.get_type().short_name), history_key)


def root_key_function(
    state: Any, node: Any, game_key_fn: KeyFunction, table: bool
) -> tuple[Any, KeyFunction]:
    """The node a search starts from and the key function for its tree.

    ``node`` is ``state`` or its custom-game position (its own key). A history
    key becomes a digest carried by the nodes where a table reads it, and a
    Python game's state, which may have been built mid-game with a short
    history, is keyed by its history, player and string.
    """
    if node is not state:
        return node, position_key
    if game_key_fn is history_key and type(state).__module__ != "pyspiel":
        return node, python_state_key
    if game_key_fn is history_key and table:
        return HistoryDigestNode.root(state), digest_key
    return node, game_key_fn
