"""Statistics over tournament game records: scores, intervals, pentanomials, Elo, search effort.

Only games without an error count. A game cut off at --max_moves counts with
the returns it had at the cut (for pig and most OpenSpiel games: 0 each, a draw).
Games of more than two players: per bot a win rate (seats tied at the highest
return split the win) and a mean return, each with an interval over deals.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from bots.arithmetic import ordered_sum

Z95 = 1.959963984540054


def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; draws enter `score` as halves."""
    if n <= 0:
        return (0.0, 1.0)
    p = score / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


MIN_PAIRS = 5


def pair_interval(pentanomial: Sequence[int], z: float = Z95) -> tuple[float, float]:
    """95% interval of the score from the seat-swapped game pairs (the pentanomial model).

    A pair of games on common dice is one observation: its mean score, 0, 0.25,
    ... 1. A pair that splits 1-1 carries none of the dice's luck, so where many
    pairs split this interval is narrower than Wilson's over single games, as in
    engine testing with paired openings. The interval is mean +- z sd / sqrt(pairs)
    (normal approximation) over the pairs plus one pseudo-pair scoring 0 and one
    scoring 1, so that pairs which all split do not give a zero-width interval;
    they pull the centre slightly towards 0.5. Below MIN_PAIRS pairs: (nan, nan).
    """
    counts = [int(c) for c in pentanomial]
    if len(counts) != 5 or min(counts) < 0:
        raise ValueError(f"a pentanomial is five counts >= 0, got {list(pentanomial)}")
    if sum(counts) < MIN_PAIRS:
        return (math.nan, math.nan)
    counts[0] += 1
    counts[4] += 1
    n = sum(counts)
    values = [k / 4 for k in range(5)]
    mean = sum(c * v for c, v in zip(counts, values)) / n
    variance = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / (n - 1)
    half = z * math.sqrt(variance / n)
    return (max(0.0, mean - half), min(1.0, mean + half))


def valid(records: Iterable[dict]) -> list[dict]:
    return [r for r in records if r.get("error") is None and r.get("returns") is not None]


def game_score(record: dict, bot: int) -> float:
    """1, 0.5 or 0 for `bot` (a bot index) in a two-player record."""
    seat = record["bot_index"].index(bot)
    winner = record["winner"]
    return 0.5 if winner is None else float(winner == seat)


def pairing_stats(records: Sequence[dict], a: int, b: int) -> dict[str, Any]:
    """Results of bot a against bot b, from a's point of view."""
    mine = [r for r in records if sorted(r["pairing"]) == sorted([a, b])]
    good = valid(mine)
    by_seat = {0: [0, 0, 0], 1: [0, 0, 0]}  # a's W, D, L when a sits in that seat
    for r in good:
        s = game_score(r, a)
        by_seat[r["bot_index"].index(a)][0 if s == 1 else 1 if s == 0.5 else 2] += 1
    w = by_seat[0][0] + by_seat[1][0]
    d = by_seat[0][1] + by_seat[1][1]
    l = by_seat[0][2] + by_seat[1][2]
    n = w + d + l
    score = w + 0.5 * d
    pairs: dict[int, list[dict]] = defaultdict(list)
    for r in good:
        pairs[r["pair"]].append(r)
    penta = [0] * 5  # a's pair score 0, 0.5, 1, 1.5, 2
    for games in pairs.values():
        if len(games) == 2:
            penta[int(round(2 * sum(game_score(r, a) for r in games)))] += 1
    lo, hi = wilson_interval(score, n)
    pair_lo, pair_hi = pair_interval(penta)
    # a's return per game (points, where the game scores gammons), t interval over pairs.
    returns = [float(r["returns"][r["bot_index"].index(a)]) for r in good]
    pair_returns = [
        ordered_sum(float(r["returns"][r["bot_index"].index(a)]) for r in games) / 2
        for games in pairs.values()
        if len(games) == 2
    ]
    return_lo, return_hi = deal_interval(pair_returns)
    return {
        "bot": a,
        "opponent": b,
        "games": n,
        "wins": w,
        "draws": d,
        "losses": l,
        "seat0": by_seat[0],
        "seat1": by_seat[1],
        "score": score / n if n else float("nan"),
        "score_lo": lo,
        "score_hi": hi,
        "pentanomial": penta,
        "pair_lo": pair_lo,
        "pair_hi": pair_hi,
        "mean_return": ordered_sum(returns) / len(returns) if returns else float("nan"),
        "return_lo": return_lo,
        "return_hi": return_hi,
        "errors": sum(1 for r in mine if r.get("error") is not None),
        "cut_offs": sum(1 for r in good if r.get("cut_off")),
    }


def _elo_fit(wins: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """Elo ratings from win/draw count matrices (OpenSpiel's pyspiel.elo), the first at 0."""
    import pyspiel

    ratings = np.array(
        pyspiel.elo.compute_ratings_from_matrices(
            wins.astype(int).tolist(), draws.astype(int).tolist()
        )
    )
    return ratings - ratings[0]


def elo_table(
    records: Sequence[dict], n_bots: int, bootstrap: int = 1000, seed: int = 0
) -> dict[int, dict[str, float]]:
    """Elo per bot relative to the first rated bot (0) with a 95% percentile-bootstrap interval.

    Anchoring on one bot, not on the mean, keeps a bot that wins or loses
    every game (whose rating only the fit's smoothing bounds) from widening
    everyone else's interval. The resampled unit is a game pair (the two
    seat-swapped games sharing dice), drawn with replacement within each
    pairing, so the interval keeps the variance reduction that common random
    numbers buy. Bots without a valid game are left out.
    """
    good = valid(records)
    rated = sorted({b for r in good for b in r["bot_index"]})
    if len(rated) < 2:
        return {}
    pos = {b: k for k, b in enumerate(rated)}
    m = len(rated)
    units: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
    for r in good:
        key = (tuple(r["pairing"]), r["pair"])
        w, d = units.setdefault(key, (np.zeros((m, m)), np.zeros((m, m))))
        x, y = (pos[b] for b in r["bot_index"])
        if r["winner"] is None:
            d[x, y] += 1
            d[y, x] += 1
        elif r["winner"] == 0:
            w[x, y] += 1
        else:
            w[y, x] += 1
    keys = sorted(units)
    unit_w = np.stack([units[k][0] for k in keys])
    unit_d = np.stack([units[k][1] for k in keys])
    point = _elo_fit(unit_w.sum(0), unit_d.sum(0))
    strata: dict[tuple, list[int]] = defaultdict(list)
    for idx, k in enumerate(keys):
        strata[k[0]].append(idx)
    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(bootstrap):
        idx = np.concatenate([rng.choice(v, size=len(v), replace=True) for v in strata.values()])
        samples.append(_elo_fit(unit_w[idx].sum(0), unit_d[idx].sum(0)))
    table = {}
    arr = np.array(samples) if samples else None
    for b in rated:
        k = pos[b]
        lo, hi = (
            np.percentile(arr[:, k], [2.5, 97.5])
            if arr is not None
            else (float("nan"), float("nan"))
        )
        games = sum(1 for r in good if b in r["bot_index"])
        table[b] = {
            "elo": float(point[k]),
            "elo_lo": float(lo),
            "elo_hi": float(hi),
            "games": games,
        }
    return table


def search_stats(records: Sequence[dict], n_bots: int) -> dict[int, dict[str, float]]:
    """Per bot: seconds per move (all bots) and nodes/seconds/depth per searched move."""
    moves = [0] * n_bots
    secs = [0.0] * n_bots
    per_move: dict[int, dict[str, list]] = {b: defaultdict(list) for b in range(n_bots)}
    for r in valid(records):
        for seat, b in enumerate(r["bot_index"]):
            moves[b] += r["moves_by_seat"][seat]
            secs[b] += r["seconds_by_seat"][seat]
        for mv in r.get("search", []):
            b = r["bot_index"][mv["player"]]
            for key in ("nodes", "seconds", "depth"):
                if isinstance(mv.get(key), (int, float)):
                    per_move[b][key].append(mv[key])
    out = {}
    for b in range(n_bots):
        row: dict[str, float] = {
            "moves": moves[b],
            "seconds_mean_all": (secs[b] / moves[b] if moves[b] else float("nan")),
            "searched_moves": len(per_move[b]["seconds"]),
        }
        for key in ("nodes", "seconds", "depth"):
            vals = per_move[b][key]
            row[f"{key}_mean"] = float(np.mean(vals)) if vals else float("nan")
            row[f"{key}_median"] = float(np.median(vals)) if vals else float("nan")
        total_s = sum(per_move[b]["seconds"])
        row["nodes_per_second"] = (
            sum(per_move[b]["nodes"]) / total_s
            if per_move[b]["nodes"] and total_s > 0
            else float("nan")
        )
        out[b] = row
    return out


def solo_stats(records: Sequence[dict], bot: int) -> dict[str, float]:
    """Score statistics of one bot in a one-player game (score = its return)."""
    scores = np.array([r["returns"][0] for r in valid(records) if r["bot_index"][0] == bot])
    mine = [r for r in records if r["bot_index"][0] == bot]
    n = len(scores)
    row: dict[str, float] = {
        "bot": bot,
        "games": n,
        "errors": sum(1 for r in mine if r.get("error") is not None),
        "cut_offs": sum(1 for r in valid(mine) if r.get("cut_off")),
    }
    if n == 0:
        return row | {
            k: float("nan") for k in ("mean", "std", "ci_lo", "ci_hi", "median", "min", "max")
        }
    std = float(scores.std(ddof=1)) if n > 1 else 0.0
    half = Z95 * std / math.sqrt(n)
    mean = float(scores.mean())
    return row | {
        "mean": mean,
        "std": std,
        "ci_lo": mean - half,
        "ci_hi": mean + half,
        "median": float(np.median(scores)),
        "min": float(scores.min()),
        "max": float(scores.max()),
    }


def score_matrix(records: Sequence[dict], n_bots: int) -> np.ndarray:
    """m[i, j] = bot i's score against bot j (NaN where they did not meet)."""
    m = np.full((n_bots, n_bots), np.nan)
    for i in range(n_bots):
        for j in range(n_bots):
            if i != j:
                st = pairing_stats(records, i, j)
                if st["games"]:
                    m[i, j] = st["score"]
    return m


# ---- more than two players -------------------------------------------------------------


def win_shares(returns: Sequence[float]) -> list[float]:
    """Each seat's share of the win: the k seats tied at the highest return get 1/k each."""
    best = max(returns)
    leaders = sum(1 for r in returns if r == best)
    return [1.0 / leaders if r == best else 0.0 for r in returns]


def _t_central(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with df degrees of freedom (Abramowitz and Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    if df % 2 == 0:  # sin(theta) (1 + 1/2 cos^2 + 1*3/(2*4) cos^4 + ...), df/2 terms
        term = series = 1.0
        for j in range(df // 2 - 1):
            term *= cos2 * (2 * j + 1) / (2 * j + 2)
            series += term
        return math.sin(theta) * series
    if df == 1:
        return 2 * theta / math.pi
    term = series = math.cos(theta)  # cos + 2/3 cos^3 + 2*4/(3*5) cos^5 + ..., (df-1)/2 terms
    for j in range(1, (df - 1) // 2):
        term *= cos2 * (2 * j) / (2 * j + 1)
        series += term
    return 2 / math.pi * (theta + math.sin(theta) * series)


def t_quantile(df: int, level: float = 0.95) -> float:
    """The t with P(|T| < t) = level for Student's t with df degrees of freedom (bisection)."""
    if df < 1 or not 0 < level < 1:
        raise ValueError(f"need df >= 1 and 0 < level < 1, got df={df}, level={level}")
    lo, hi = 0.0, 1.0
    while _t_central(hi, df) < level:
        lo, hi = hi, 2 * hi
    for _ in range(100):
        mid = (lo + hi) / 2
        if _t_central(mid, df) < level:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def deal_interval(
    values: Sequence[float], bounds: tuple[float, float] | None = None, level: float = 0.95
) -> tuple[float, float]:
    """Student's t interval of the mean over deals, one value per deal.

    The seatings of a deal share their dice, so they are one observation, as a
    game pair is for two players. `bounds` (a win rate's 0 and 1): one
    pseudo-deal at each bound is added, as `pair_interval` adds pseudo-pairs, so
    that deals which all agree do not give a zero-width interval; the interval
    is clipped to the bounds. Below MIN_PAIRS deals: (nan, nan).
    """
    if len(values) < MIN_PAIRS:
        return (math.nan, math.nan)
    data = [float(v) for v in values] + (list(bounds) if bounds is not None else [])
    n = len(data)
    mean = ordered_sum(data) / n
    variance = ordered_sum((v - mean) ** 2 for v in data) / (n - 1)
    half = t_quantile(n - 1, level) * math.sqrt(variance / n)
    if bounds is None:
        return (mean - half, mean + half)
    return (max(bounds[0], mean - half), min(bounds[1], mean + half))


def player_stats(records: Sequence[dict], bot: int, deal_size: int) -> dict[str, Any]:
    """Win rate and mean return of `bot` over every game it played, with their intervals.

    `deal_size`: games per deal (its seatings); only complete deals enter the
    deal intervals, as only complete pairs enter the pentanomial.
    """
    mine = [r for r in records if bot in r["bot_index"]]
    good = valid(mine)
    n_seats = max((len(r["bot_index"]) for r in mine), default=0)
    shares: list[float] = []
    returns: list[float] = []
    by_seat: dict[int, list[float]] = defaultdict(list)
    deals: dict[tuple, list[tuple[float, float]]] = defaultdict(list)
    for r in good:
        seat = r["bot_index"].index(bot)
        share = win_shares(r["returns"])[seat]
        shares.append(share)
        returns.append(float(r["returns"][seat]))
        by_seat[seat].append(share)
        deals[tuple(r["pairing"]), r["deal"]].append((share, returns[-1]))
    complete = [games for games in deals.values() if len(games) == deal_size]
    deal_rates = [ordered_sum(s for s, _ in games) / deal_size for games in complete]
    deal_returns = [ordered_sum(v for _, v in games) / deal_size for games in complete]
    n = len(shares)
    wins = ordered_sum(shares)
    lo, hi = wilson_interval(wins, n)
    deal_lo, deal_hi = deal_interval(deal_rates, bounds=(0.0, 1.0))
    return_lo, return_hi = deal_interval(deal_returns)
    return {
        "bot": bot,
        "games": n,
        "wins": wins,
        "win_rate": wins / n if n else math.nan,
        "win_lo": lo,
        "win_hi": hi,
        "deals": len(complete),
        "deal_win_lo": deal_lo,
        "deal_win_hi": deal_hi,
        "mean_return": ordered_sum(returns) / n if n else math.nan,
        "return_lo": return_lo,
        "return_hi": return_hi,
        "seat_games": [len(by_seat[k]) for k in range(n_seats)],
        "seat_win_rate": [
            ordered_sum(by_seat[k]) / len(by_seat[k]) if by_seat[k] else math.nan
            for k in range(n_seats)
        ],
        "errors": sum(1 for r in mine if r.get("error") is not None),
        "cut_offs": sum(1 for r in good if r.get("cut_off")),
    }


def deal_differences(records: Sequence[dict], a: int, b: int, deal_size: int) -> list[float]:
    """Per complete deal that bots a and b played together: a's win rate minus b's."""
    deals: dict[tuple, list[float]] = defaultdict(list)
    for r in valid(records):
        seats = r["bot_index"]
        if a in seats and b in seats:
            shares = win_shares(r["returns"])
            deals[tuple(r["pairing"]), r["deal"]].append(
                shares[seats.index(a)] - shares[seats.index(b)]
            )
    return [ordered_sum(d) / deal_size for d in deals.values() if len(d) == deal_size]


def difference_stats(records: Sequence[dict], a: int, b: int, deal_size: int) -> dict[str, Any]:
    """Bot a's lead in win rate over bot b at the same tables: mean over deals, t interval.

    The comparison a study is sized for (`sizing.deals_needed`); deals that both
    bots played, so the dice and the other bots at the table are the same for both.
    """
    diffs = deal_differences(records, a, b, deal_size)
    lo, hi = deal_interval(diffs)
    return {
        "bot": a,
        "opponent": b,
        "deals": len(diffs),
        "difference": ordered_sum(diffs) / len(diffs) if diffs else math.nan,
        "difference_lo": lo,
        "difference_hi": hi,
    }


def seat_stats(records: Sequence[dict], n_seats: int) -> list[dict[str, Any]]:
    """Per seat, whoever sat there: games, win rate and mean return (the seat's advantage)."""
    good = valid(records)
    rows = []
    for seat in range(n_seats):
        shares = [win_shares(r["returns"])[seat] for r in good]
        returns = [float(r["returns"][seat]) for r in good]
        n = len(shares)
        rows.append(
            {
                "seat": seat,
                "games": n,
                "win_rate": ordered_sum(shares) / n if n else math.nan,
                "mean_return": ordered_sum(returns) / n if n else math.nan,
            }
        )
    return rows


def ahead_matrix(records: Sequence[dict], n_bots: int) -> np.ndarray:
    """m[i, j] = share of the games bots i and j played together that i ended ahead of j.

    Ahead: a higher return; an equal return counts a half. NaN where they never met.
    """
    score = np.zeros((n_bots, n_bots))
    games = np.zeros((n_bots, n_bots))
    for r in valid(records):
        for seat_i, i in enumerate(r["bot_index"]):
            for seat_j, j in enumerate(r["bot_index"]):
                if i != j:
                    a, b = r["returns"][seat_i], r["returns"][seat_j]
                    score[i, j] += 1.0 if a > b else 0.5 if a == b else 0.0
                    games[i, j] += 1
    return np.where(games > 0, score / np.maximum(games, 1), np.nan)
