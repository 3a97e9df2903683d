"""The sentence a tournament summary opens with says what was found and what was not."""

from __future__ import annotations

import math

from experiments.tournament.headline import headline

LABELS = ["star2", "expectiminimax", "mcts(evaluator=heuristic)", "mcts"]


def _pairing(bot, opponent, score, lo, hi, pair=True, games=120):
    return {
        "bot": bot,
        "opponent": opponent,
        "games": games,
        "score": score,
        "score_lo": lo - 0.02,
        "score_hi": hi + 0.02,
        "pair_lo": lo if pair else math.nan,
        "pair_hi": hi if pair else math.nan,
    }


def test_a_win_a_loss_and_an_open_question_in_one_sentence():
    text = headline(
        [
            _pairing(0, 3, 0.70, 0.61, 0.79),
            _pairing(0, 2, 0.35, 0.27, 0.44),
            _pairing(0, 1, 0.52, 0.44, 0.60),
        ],
        LABELS.__getitem__,
    )
    assert text == (
        "Star2 beats mcts (0.700 [0.610, 0.790]); mcts(evaluator=heuristic) beats star2 "
        "(star2 scores 0.350 [0.270, 0.440]); could not tell star2 from expectiminimax "
        "(0.520 [0.440, 0.600] over 120 games: a difference under 0.08 needs more games)."
    )


def test_wilson_interval_where_too_few_pairs_and_nothing_found():
    text = headline([_pairing(0, 1, 0.5, 0.4, 0.6, pair=False, games=8)], LABELS.__getitem__)
    assert text.startswith("Could not tell star2 from expectiminimax (0.500 [0.380, 0.620]")
    assert headline([_pairing(0, 1, 0.5, 0.4, 0.6, games=0)], LABELS.__getitem__).startswith(
        "No game finished"
    )
