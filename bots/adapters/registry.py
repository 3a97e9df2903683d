"""The registry of per-game adapters: what the Python engine knows of one game, by its
short name (its table key, MCMS's sampling key and the bots' per-game defaults).

Each game's adapter is one module, ``bots/adapters/<game>.py``, that registers itself
here; ``bots.adapters`` imports them all. The generic search (``bots/keys.py``, the
searchers, ``bots/ordering.py``) and ``bots/options.py`` name no game: adding a game's fast path touches its
adapter and nothing in the search (``tests/test_adapters.py`` checks).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

import pyspiel

from bots.keys import KeyFunction, history_key


@dataclasses.dataclass(frozen=True, slots=True)
class SettingDefault:
    """Some bots' default for one setting (a row of bots/options.py) in the adapter's game,
    and the measurement behind it; a spec's own parameters still win."""

    setting: str
    bots: tuple[str, ...]
    value: Any
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class GameAdapter:
    """One game's keys. ``key`` must determine the rest of the game
    (tests/test_transposition_keys.py); without an adapter a game is keyed by its history.

    ``sampling_key`` seeds MCMS's draws where it differs from ``key`` (None: ``key``).
    ``twin``: the C++ twin of a Python game in games/, keyed by its string but sampled
    with the Python position rebuilt from it, so its draws are those of the Python twin.
    ``defaults``: the bots' per-game defaults in this game (bots/options.py reads them).
    """

    key: KeyFunction
    sampling_key: KeyFunction | None = None
    twin: bool = False
    defaults: tuple[SettingDefault, ...] = ()


ADAPTERS: dict[str, GameAdapter] = {}

# Each registered game's table key, by short name.
KEY_FUNCTIONS: dict[str, KeyFunction] = {}


def register(short_name: str, adapter: GameAdapter) -> None:
    """Registers ``short_name``'s adapter; one per game."""
    if short_name in ADAPTERS:
        raise ValueError(f"a second adapter registered for {short_name!r}")
    ADAPTERS[short_name] = adapter
    KEY_FUNCTIONS[short_name] = adapter.key


class SamplingKeys(Mapping[str, KeyFunction]):
    """MCMS's sampling keys of the games whose draws are not seeded by their table key.

    A twin's is the position class's ``from_state`` of its Python game, looked up in
    ``games.PYTHON_GAMES`` when asked for: games/ knows nothing of bots, and importing
    this module registers no game.
    """

    def __getitem__(self, short_name: str) -> KeyFunction:
        from games import plain_name  # noqa: PLC0415 - importing this module registers no game

        name = plain_name(short_name)
        adapter = ADAPTERS.get(name)
        if adapter is None:
            raise KeyError(short_name)
        if adapter.twin:
            import games  # noqa: PLC0415 - registers the games; only when a key is asked for

            return games.PYTHON_GAMES[name].position_class.from_state
        if adapter.sampling_key is None:
            raise KeyError(short_name)
        return adapter.sampling_key

    def __iter__(self) -> Iterator[str]:
        return (
            name
            for name, adapter in ADAPTERS.items()
            if adapter.twin or adapter.sampling_key is not None
        )

    def __len__(self) -> int:
        return sum(1 for _ in self)


SAMPLING_KEY_FUNCTIONS: Mapping[str, KeyFunction] = SamplingKeys()


def default_key_function(game: pyspiel.Game) -> KeyFunction:
    """Transposition key for pyspiel states of ``game`` (positions are their own key); a
    Python twin (``python_dice``) shares its C++ twin's."""
    from games import plain_name  # noqa: PLC0415 - importing this module registers no game

    return KEY_FUNCTIONS.get(plain_name(game.get_type().short_name), history_key)


def setting_defaults(setting: str) -> list[tuple[str, SettingDefault]]:
    """The registered per-game defaults of ``setting``, as (game, default), in
    registration order."""
    return [
        (name, default)
        for name, adapter in ADAPTERS.items()
        for default in adapter.defaults
        if default.setting == setting
    ]


def twin_names() -> list[str]:
    """The short names of the C++ twins of the games in games/."""
    return [name for name, adapter in ADAPTERS.items() if adapter.twin]
