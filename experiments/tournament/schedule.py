"""Which games a tournament plays, and the deterministic seeds of each.

Every game is keyed by its match (the bots at the table; a pairing for two
players) and its index in the match, and all its seeds derive from (tournament
seed, match, index) alone, so the same command plays the same games on any
backend and with any number of workers.

Games of a match come in deals: one deal is the match played once in every
seating (two seat-swapped games for two players), all on one chance stream.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from experiments.tournament.play import GameTask

SCHEDULES = ("round_robin", "gauntlet")
# rotations: the N cyclic rotations of the match's order, so each bot sits in each seat
# once per deal; permutations: all N! orders, so who sits after whom is balanced too.
SEATINGS = ("rotations", "permutations")
DEFAULT_SEATING = "rotations"

# Tags keep the seed sequences of different purposes apart.
_CHANCE_PAIR, _BOT_PAIR, _CHANCE_SOLO, _BOT_SOLO = 1, 2, 3, 4


def derive_seed(*entropy: int) -> int:
    """A 31-bit seed (fits C++ int seeds such as MCTSBot's) from non-negative ints."""
    state = np.random.SeedSequence(list(entropy)).generate_state(1, dtype=np.uint32)
    return int(state[0]) & 0x7FFFFFFF


def matches(n_bots: int, n_players: int, schedule: str) -> list[tuple[int, ...]]:
    """The tables of `n_players` distinct bot indices, in a fixed order.

    round_robin: every set of n_players bots; gauntlet: the first bot with every
    set of n_players - 1 others. A bot sits at one table more than once only when
    its spec is given more than once (as separate bots).
    """
    if schedule == "round_robin":
        return list(itertools.combinations(range(n_bots), n_players))
    if schedule == "gauntlet":
        return [(0, *rest) for rest in itertools.combinations(range(1, n_bots), n_players - 1)]
    raise ValueError(f"unknown schedule {schedule!r}; accepted: {', '.join(SCHEDULES)}")


def seatings(n_players: int, seating: str) -> list[tuple[int, ...]]:
    """The orders of a deal: seatings[s][seat] = position in the match of the bot in `seat`.

    Rotation s seats the match's bots rotated left by s (two players: as listed,
    then swapped); the first seating is always the match's own order.
    """
    if seating == "rotations":
        return [
            tuple((seat + s) % n_players for seat in range(n_players)) for s in range(n_players)
        ]
    if seating == "permutations":
        return list(itertools.permutations(range(n_players)))
    raise ValueError(f"unknown seating {seating!r}; accepted: {', '.join(SEATINGS)}")


def game_id(pairing: Sequence[int], game_index: int) -> str:
    """Stable record id: '0v2#5' is game 5 of bot 0 against bot 2 ('0v1v3#5' of a
    three-player match); '1#5' a one-player game."""
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
    seating: str = DEFAULT_SEATING,
) -> list[GameTask]:
    """All games of the tournament, in a fixed order.

    Games of two or more players: game k of a match is seating k % S of deal
    k // S, where S is the number of seatings; every game of a deal gets the
    deal's chance seed. For two players that is: game k of pairing (i, j) seats
    i first when k is even and j first when k is odd, and games 2p and 2p+1
    (pair p) share a chance seed.
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
                        deal=k,
                        seating=0,
                        chance_seed=derive_seed(seed, _CHANCE_SOLO, k),
                        bot_seeds=(bot_seed,),
                        max_moves=max_moves,
                    )
                )
        return tasks
    orders = seatings(num_players, seating)
    for match in matches(len(specs), num_players, schedule):
        for k in range(games_per_pair):
            deal, s = divmod(k, len(orders))
            seats = tuple(match[position] for position in orders[s])
            bot_seeds = tuple(
                derive_seed(seed, _BOT_PAIR, *match, k, seat) if takes_seed[b] else None
                for seat, b in enumerate(seats)
            )
            tasks.append(
                GameTask(
                    id=game_id(match, k),
                    game=game,
                    specs=tuple(specs[b] for b in seats),
                    bot_index=seats,
                    pairing=match,
                    game_index=k,
                    deal=deal,
                    seating=s,
                    chance_seed=derive_seed(seed, _CHANCE_PAIR, *match, deal),
                    bot_seeds=bot_seeds,
                    max_moves=max_moves,
                )
            )
    return tasks
