"""The strength forest plots: every settled study's score and pair interval, 0.5 marked.

Run ``python -m experiments.strength.plot`` to redraw ``docs/img/strength_forest.png``
(the hand evaluators' questions at equal time) and ``docs/img/strength_forest_learned.png``
(every study a learned model plays in, with the fixed-depth ply studies beside them) from
the committed ``results/strength/*/result.json``. The picture carries a digest
of the numbers it shows (PNG text chunk ``starspiel-data``), so a test can tell
when the committed picture no longer matches the results it was drawn from.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from experiments.common import flags
from experiments.strength.plan import GAMES, QUESTIONS, Study, studies
from experiments.strength.report import in_learned_panel, load_result

RESULTS = Path("results/strength")
PICTURE = Path("docs/img/strength_forest.png")
LEARNED_PICTURE = Path("docs/img/strength_forest_learned.png")
DATA_KEY = "starspiel-data"

FLAGS, _define = flags.program_flags()
_define.string("results", str(RESULTS), "Folder holding one results folder per study.")
_define.string("out", str(PICTURE), "Where to write the hand evaluators' PNG.")
_define.string("out_learned", str(LEARNED_PICTURE), "Where to write the learned models' PNG.")


@dataclass(frozen=True)
class Point:
    """One settled study as drawn: a row label, its score and its pair interval."""

    question: str
    game: str
    clock: str  # "0.1 s" a move, or "fixed depth"
    score: float
    low: float
    high: float
    verdict: str


# The opponents as the strength page names them.
_SHORT = {"mcts(evaluator=heuristic)": "fair MCTS", "mcts": "rollout MCTS"}


def points(results: Path, learned: bool = False) -> list[Point]:
    """The settled studies of one panel in the plan's order (question, game, clock): the
    hand evaluators' questions, or (``learned``) every study a learned model plays in and
    the fixed-depth ply studies, whose hand rows stand beside the learned ones."""
    if learned:
        plan = [s for s in studies() if in_learned_panel(s)]
    else:
        order = {q.name: i for i, q in enumerate(QUESTIONS)}
        games = list(GAMES)  # a paper's study in another game (plan.paper_studies) comes last
        plan = sorted(
            (s for s in studies() if s.question.name in order and not s.learned),
            key=lambda s: (
                order[s.question.name],
                games.index(s.game_key) if s.game_key in games else len(games),
                s.time_limit or 0.0,
            ),
        )
    drawn = []
    for study in plan:
        result = load_result(results, study)
        if result is None or result["verdict"].startswith("incomplete"):
            continue
        low, high = result["pair_interval"]
        drawn.append(
            Point(
                question=_label(study),
                game=study.game_key,
                clock="fixed depth" if study.time_limit is None else f"{study.time_limit:g} s",
                score=round(float(result["score"]), 6),
                low=round(float(low), 6),
                high=round(float(high), 6),
                verdict=str(result["verdict"]).split(" at look")[0],
            )
        )
    return drawn


def _label(study: Study) -> str:
    q = study.question
    if study.time_limit is None:  # a ply study: star2 d3 v d2 (hand)
        return q.name.replace("_vs_", " v ").replace("_", " ") + f" ({study.evaluator or 'hand'})"
    opponent = _SHORT.get(q.opponent, q.opponent)
    if study.evaluator is not None:  # both bots value leaves with it, MCTS too
        opponent = "value MCTS" if q.opponent == "mcts" else opponent
        return f"{q.bot} v {opponent}, both {study.evaluator}"
    return f"{q.bot} v {opponent}"


def data_digest(drawn: Sequence[Point]) -> str:
    """sha256 of the plotted numbers, as canonical JSON."""
    text = json.dumps([asdict(p) for p in drawn], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def picture_digest(path: Path) -> str | None:
    """The digest a committed picture was drawn with, from its PNG text chunk."""
    from PIL import Image  # matplotlib's own dependency (the plots extra)

    with Image.open(path) as image:
        return image.info.get(DATA_KEY)


def draw(drawn: Sequence[Point], out: Path, title: str = "Strength at equal time per move") -> None:
    """One row per study, grouped by question; wins green, losses red, no difference grey."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = {"wins": "tab:green", "loses": "tab:red"}
    fig, ax = plt.subplots(figsize=(8, 0.19 * len(drawn) + 1.2))
    labels = []
    for row, p in enumerate(drawn):
        y = len(drawn) - 1 - row
        colour = colours.get(p.verdict, "tab:gray")
        ax.plot([p.low, p.high], [y, y], color=colour, linewidth=1.6)
        ax.plot([p.score], [y], "o", color=colour, markersize=3.5)
        labels.append(f"{p.question}, {p.game} {p.clock}")
    ax.axvline(0.5, color="black", linewidth=0.8, linestyle="--")
    ax.set_yticks(range(len(drawn)))
    ax.set_yticklabels(reversed(labels), fontsize=6)
    ax.set_ylim(-0.8, len(drawn) - 0.2)
    ax.set_xlabel("score of the first-named bot (pair 95% interval); 0.5 = no difference")
    ax.set_title(f"{title}: {len(drawn)} settled studies", fontsize=9)
    ax.grid(axis="x", linewidth=0.3)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110, bbox_inches="tight", metadata={DATA_KEY: data_digest(drawn)})
    plt.close(fig)


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        flags.fail(f"unexpected arguments: {' '.join(argv[1:])}")
    results = Path(FLAGS.results)
    drawn = points(results)
    if not drawn:
        flags.fail(f"no settled study under {results}")
    draw(drawn, Path(FLAGS.out))
    print(f"wrote {FLAGS.out}: {len(drawn)} studies")
    learned = points(results, learned=True)
    if learned:
        draw(learned, Path(FLAGS.out_learned), "With learned evaluators")
        print(f"wrote {FLAGS.out_learned}: {len(learned)} studies")


if __name__ == "__main__":
    flags.run(main, FLAGS)
