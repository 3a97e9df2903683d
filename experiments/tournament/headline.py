"""The sentence a tournament's summary opens with: what the run found, what it could not tell."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any


def _interval(p: dict[str, Any]) -> tuple[float, float, str]:
    """The pair interval where there are enough pairs (the sharper one), else Wilson's."""
    if not math.isnan(p["pair_lo"]):
        return p["pair_lo"], p["pair_hi"], "pair"
    return p["score_lo"], p["score_hi"], "Wilson"


def headline(pairings: Sequence[dict[str, Any]], label: Callable[[int], str]) -> str:
    """'A beats B (0.71 [0.62, 0.79]); could not tell A from C (...) at N games.'"""
    found: list[str] = []
    unclear: list[str] = []
    for p in pairings:
        if not p["games"]:
            continue
        lo, hi, _ = _interval(p)
        a, b = label(p["bot"]), label(p["opponent"])
        score = f"{p['score']:.3f} [{lo:.3f}, {hi:.3f}]"
        if lo > 0.5:
            found.append(f"{a} beats {b} ({score})")
        elif hi < 0.5:
            found.append(f"{b} beats {a} ({a} scores {score})")
        else:
            unclear.append(
                f"{a} from {b} ({score} over {p['games']} games: a difference under "
                f"{max(hi - p['score'], p['score'] - lo):.2f} needs more games)"
            )
    parts = []
    if found:
        parts.append("; ".join(found))
    if unclear:
        parts.append("could not tell " + "; nor ".join(unclear))
    if not parts:
        return "No game finished without an error, so this run tells nothing."
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def win_interval(p: dict[str, Any]) -> tuple[float, float, str]:
    """The deal interval of a win rate where there are enough deals, else Wilson's."""
    if not math.isnan(p["deal_win_lo"]):
        return p["deal_win_lo"], p["deal_win_hi"], "deal"
    return p["win_lo"], p["win_hi"], "Wilson"


def players_headline(
    players: Sequence[dict[str, Any]], n_players: int, label: Callable[[int], str]
) -> str:
    """'At 3 players an even share of the wins is 0.333: A wins 0.520 [0.470, 0.570], more.'

    Bots in order of win rate, each compared with the even share 1/N.
    """
    share = 1 / n_players
    played = sorted((p for p in players if p["games"]), key=lambda p: -p["win_rate"])
    if not played:
        return "No game finished without an error, so this run tells nothing."
    parts = []
    for p in played:
        lo, hi, _ = win_interval(p)
        if lo > share:
            verdict = "more than its share"
        elif hi < share:
            verdict = "less than its share"
        else:
            verdict = f"could not tell from its share over {p['games']} games"
        parts.append(
            f"{label(p['bot'])} wins {p['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] of its games, "
            + verdict
        )
    return (
        f"At {n_players} players an even share of the wins is {share:.3f}: "
        + "; ".join(parts)
        + "."
    )
