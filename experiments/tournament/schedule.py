"""Which games a tournament plays, and the deterministic seeds of each.

Every game is keyed by its pairing and its index in the pairing, and all its
seeds derive from (tournament seed, pairing, index) alone, so the same command
plays the same games on any backend and with any number of workers.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from experiments.tournament.play import GameTask

SCHEDULES = ("round_robin", "gauntlet")

# Tags keep the seed sequences of different purposes apart.
_CHANCE_PAIR, _BOT_PAIR, _CHANCE_SOLO, _BOT_SOLO = 1, 2, 3, 4


def derive_seed(*entropy: int) -> int:
    """A 31-bit seed (fits C++ int seeds such as MCTSBot's) from non-negative ints."""
    state = np.random.SeedSequence(list(entropy)).generate_state(1, dtype=np.uint32)
    return int(state[0]) & 0x7FFFFFFF


def pairings(n_bots: int, schedule: str) -> list[tuple[int, int]]:
    """Bot-index pairs: all of them (round_robin) or the first bot against each other."""
    if schedule == "round_robin":
        return [(i, j) for i in range(n_bots) for j in range(i + 1, n_bots)]
    if schedule == "gauntlet":
        return [(0, j) for j in range(1, n_bots)]
    raise ValueError(f"unknown schedule {schedule!r}; accepted: {', '.join(SCHEDULES)}")


def game_id(pairing: Sequence[int], game_index: int) -> str:
    """Stable record id: '0v2#5' is game 5 of bot 0 against bot 2; '1#5' a one-player game."""
    return "v".join(str(b) for b in pairing) + f"#{game_index}"


def build_tasks(
    game: str,
    specs: Sequence[str],
    num_players: int,
    schedule: str,
    games_per_pair: int,
    seed: int,
    max_moves: int,
    takes_seed: Sequence[bool],
) -> list[GameTask]:
    """All games of the tournament, in a fixed order.

    Two-player games: game k of pairing (i, j) seats i first when k is even and
    j first when k is odd; games 2p and 2p+1 form pair p and share a chance seed.
    One-player games: each bot plays alone; game k of every bot uses the same
    chance seed, so the bots also face common dice.
    `takes_seed[b]`: whether bot b gets a derived seed (False: its spec fixes one
    or it takes none).
    """
    tasks = []
    if num_players == 1:
        for b, spec in enumerate(specs):
            for k in range(games_per_pair):
                bot_seed = derive_seed(seed, _BOT_SOLO, b, k) if takes_seed[b] else None
                tasks.append(
                    GameTask(
                        id=game_id((b,), k),
                        game=game,
                        specs=(spec,),
                        bot_index=(b,),
                        pairing=(b,),
                        game_index=k,
                        pair=k,
                        chance_seed=derive_seed(seed, _CHANCE_SOLO, k),
                        bot_seeds=(bot_seed,),
                        max_moves=max_moves,
                    )
                )
        return tasks
    for i, j in pairings(len(specs), schedule):
        for k in range(games_per_pair):
            seats = (i, j) if k % 2 == 0 else (j, i)
            pair = k // 2
            bot_seeds = tuple(
                derive_seed(seed, _BOT_PAIR, i, j, k, seat) if takes_seed[b] else None
                for seat, b in enumerate(seats)
            )
            tasks.append(
                GameTask(
                    id=game_id((i, j), k),
                    game=game,
                    specs=tuple(specs[b] for b in seats),
                    bot_index=seats,
                    pairing=(i, j),
                    game_index=k,
                    pair=pair,
                    chance_seed=derive_seed(seed, _CHANCE_PAIR, i, j, pair),
                    bot_seeds=bot_seeds,
                    max_moves=max_moves,
                )
            )
    return tasks
