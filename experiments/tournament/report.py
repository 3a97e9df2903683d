"""summary.md, summary.csv and PNG plots of a tournament folder, and the printed result lines."""

from __future__ import annotations

import csv
import itertools
import math
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from experiments.common.game_loader import load_game
from experiments.common.tables import markdown_table
from experiments.tournament import stats as ts
from experiments.tournament.headline import headline, players_headline
from experiments.tournament.milestones import Milestone, milestone_of, reach_stats
from experiments.tournament.schedule import DEFAULT_SEATING, seatings


def _decimal(x: float, digits: int = 3) -> str:
    """A fixed number of decimals; '-' where there is no value."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.{digits}f}"


def _interval(row: dict[str, Any], name: str, digits: int = 3) -> str:
    """A row's confidence interval ``name_lo``..``name_hi`` as '[lo, hi]'."""
    return f"[{_decimal(row[name + '_lo'], digits)}, {_decimal(row[name + '_hi'], digits)}]"


def _compact(x: float) -> str:
    """Compact number for node counts and rates."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def _milliseconds(seconds: float) -> str:
    return _decimal(seconds * 1000 if seconds is not None else None, 2)


def _horizontal_boxplot(ax, data: list) -> None:
    """Horizontal box plot across matplotlib versions (`vert` is deprecated since 3.11)."""
    try:
        ax.boxplot(data, orientation="horizontal")
    except TypeError:
        ax.boxplot(data, vert=False)


def _win_draw_loss(x: Sequence[int]) -> str:
    """'3-1-2': wins, draws and losses."""
    return "-".join(str(v) for v in x)


class Summary:
    """All numbers of one tournament, computed once and rendered several ways."""

    def __init__(
        self,
        config: dict,
        records: Sequence[dict],
        pairs: Sequence[tuple[int, ...]],
        bootstrap: int = 1000,
    ):
        self.config = config
        self.specs: list[str] = config["bots"]
        self.records = list(records)
        self.n_players: int = config["num_players"]
        self.solo = self.n_players == 1
        self.multi = self.n_players > 2
        n = len(self.specs)
        self.n_games = len(self.records)
        self.n_errors = sum(1 for r in self.records if r.get("error") is not None)
        self.n_cut = sum(1 for r in self.records if r.get("cut_off"))
        self.search = ts.search_stats(self.records, n)
        self.pairings: list[dict[str, Any]] = []
        self.elo: dict[int, dict[str, float]] = {}
        self.matrix: np.ndarray | None = None
        self.players: list[dict[str, Any]] = []
        self.seats: list[dict[str, Any]] = []
        self.differences: list[dict[str, Any]] = []
        self.deal_size = len(seatings(self.n_players, self.seating))  # games per deal
        self.milestone: Milestone | None = None
        self.reach: list[list[dict[str, float]]] = []
        if self.solo:
            self.scores = [ts.solo_stats(self.records, b) for b in range(n)]
            self.milestone = milestone_of(load_game(config["game"]))
            if self.milestone is not None:
                self.reach = [reach_stats(self.records, b, self.milestone) for b in range(n)]
        elif self.multi:
            self.players = [ts.player_stats(self.records, b, self.deal_size) for b in range(n)]
            self.seats = ts.seat_stats(self.records, self.n_players)
            self.differences = [
                ts.difference_stats(self.records, a, b, self.deal_size)
                for a, b in itertools.combinations(range(n), 2)
            ]
            self.matrix = ts.ahead_matrix(self.records, n)
        else:
            self.pairings = [ts.pairing_stats(self.records, a, b) for a, b in pairs]
            self.elo = ts.elo_table(self.records, n, bootstrap=bootstrap, seed=config["seed"])
            self.matrix = ts.score_matrix(self.records, n)

    @property
    def seating(self) -> str:
        return str(self.config.get("seating", DEFAULT_SEATING))

    def _elo_intervals(self) -> bool:
        """Whether the Elo fit was bootstrapped (a study skips it: --bootstrap=0)."""
        return any(not math.isnan(row["elo_lo"]) for row in self.elo.values())

    def _elo_interval(self, bot: int) -> str:
        row = self.elo[bot]
        if math.isnan(row["elo_lo"]):
            return "-"
        return f"[{row['elo_lo']:+.0f}, {row['elo_hi']:+.0f}]"

    def label(self, b: int) -> str:
        """The bot's spec, with its index when two bots share a spec."""
        spec = self.specs[b]
        return spec if self.specs.count(spec) == 1 else f"{spec} #{b}"

    # ---- text -------------------------------------------------------------
    def result_lines(self) -> list[str]:
        """One line per pairing (or per bot for one-player games)."""
        if self.solo:
            return [
                f"{self.label(s['bot'])}: score {_decimal(s['mean'], 2)} +- "
                f"{_decimal((s['ci_hi'] - s['ci_lo']) / 2, 2)} (95% CI) over {s['games']} games, "
                f"median {_decimal(s['median'], 1)}, min {_decimal(s['min'], 1)}, max {_decimal(s['max'], 1)}"
                + self._reach_words(s["bot"])
                + (f", {s['errors']} errors" if s["errors"] else "")
                for s in self.scores
            ]
        if self.multi:
            return [self._player_line(p) for p in self.players]
        lines = []
        for p in self.pairings:
            extra = "".join(
                [
                    f", {p['errors']} errors" if p["errors"] else "",
                    f", {p['cut_offs']} cut off" if p["cut_offs"] else "",
                ]
            )
            lines.append(
                f"{self.label(p['bot'])} vs {self.label(p['opponent'])}: "
                f"+{p['wins']} ={p['draws']} -{p['losses']} in {p['games']} games, score "
                f"{_decimal(p['score'])} {_interval(p, 'score')}, "
                f"pairs 0/0.5/1/1.5/2: {'/'.join(map(str, p['pentanomial']))} "
                f"{_interval(p, 'pair')}, mean return "
                f"{_decimal(p['mean_return'])} {_interval(p, 'return')}{extra}"
            )
        return lines

    def _player_line(self, p: dict[str, Any]) -> str:
        extra = "".join(
            [
                f", {p['errors']} errors" if p["errors"] else "",
                f", {p['cut_offs']} cut off" if p["cut_offs"] else "",
            ]
        )
        return (
            f"{self.label(p['bot'])}: win rate {_decimal(p['win_rate'])} in {p['games']} games "
            f"{_interval(p, 'win')}, over {p['deals']} deals "
            f"{_interval(p, 'deal_win')}; mean return "
            f"{_decimal(p['mean_return'])} {_interval(p, 'return')}{extra}"
        )

    def _reach_words(self, bot: int) -> str:
        """', reached 2048 in 0.450 [0.38, 0.52]' for each goal of the game's milestone."""
        if self.milestone is None:
            return ""
        return "".join(
            f", {self.milestone.name} {g['goal']:g} in {_decimal(g['share'], 3)} "
            f"[{_decimal(g['lo'], 3)}, {_decimal(g['hi'], 3)}]"
            for g in self.reach[bot]
        )

    def _reach_markdown(self) -> list[str]:
        if self.milestone is None:
            return []
        goals = self.milestone.goals
        return [
            "",
            f"## Games whose {self.milestone.name} reached each goal",
            "",
            "Share of finished games, with a 95% Wilson interval.",
            "",
            markdown_table(
                ["bot", "games", *[f"{g:g}" for g in goals]],
                [
                    [f"`{self.label(b)}`", rows[0]["games"] if rows else 0]
                    + [
                        f"{_decimal(g['share'], 3)} [{_decimal(g['lo'], 3)}, {_decimal(g['hi'], 3)}]"
                        for g in rows
                    ]
                    for b, rows in enumerate(self.reach)
                ],
            ),
        ]

    def headline(self) -> str:
        """What the run found and what it could not tell, in one sentence."""
        if self.solo:
            return "; ".join(self.result_lines()) + "."
        if self.multi:
            return players_headline(self.players, self.n_players, self.label)
        return headline(self.pairings, self.label)

    def markdown(self, plots: Sequence[str] = ()) -> str:
        c = self.config
        unit = "bot" if self.solo else "pairing"
        if self.multi:
            unit = (
                f"match of {self.n_players} bots ({self.seating}: {self.deal_size} seatings "
                "per deal, sharing its dice)"
            )
        out = [
            f"# Tournament on `{c['game']}`",
            "",
            self.headline(),
            "",
            f"Schedule {c['schedule']}, {c['games_per_pair']} games per {unit}, seed {c['seed']}, "
            f"max_moves {c['max_moves']}. "
            f"{self.n_games} games recorded, {self.n_errors} with errors (not counted), "
            f"{self.n_cut} cut off at max_moves (counted with their returns at the cut).",
            "",
        ]
        if self.solo:
            out += ["## Scores", ""]
            out.append(
                markdown_table(
                    ["bot", "games", "mean", "std", "95% CI", "median", "min", "max", "errors"],
                    [
                        [
                            f"`{self.label(s['bot'])}`",
                            s["games"],
                            _decimal(s["mean"], 2),
                            _decimal(s["std"], 2),
                            _interval(s, "ci", 2),
                            _decimal(s["median"], 1),
                            _decimal(s["min"], 1),
                            _decimal(s["max"], 1),
                            s["errors"],
                        ]
                        for s in self.scores
                    ],
                )
            )
            out += self._reach_markdown()
        elif self.multi:
            out += self._players_markdown()
        else:
            out += [
                "## Pairings",
                "",
                "W-D-L of the first bot, by the seat it played; score = (W + D/2)/games with a "
                "95% Wilson interval; pentanomial = number of seat-swapped game pairs (same "
                "dice) in which the first bot scored 0, 0.5, 1, 1.5, 2; pair CI = 95% interval "
                "over those pairs (normal approximation with one pseudo-pair at each extreme; "
                "narrower than Wilson's where pairs split; none below 5 pairs).",
                "",
            ]
            out.append(
                markdown_table(
                    [
                        "bot",
                        "opponent",
                        "games",
                        "W-D-L as seat 0",
                        "W-D-L as seat 1",
                        "W-D-L",
                        "score",
                        "95% CI",
                        "pentanomial",
                        "pair CI",
                        "mean return",
                        "return CI",
                        "errors",
                        "cut off",
                    ],
                    [
                        [
                            f"`{self.label(p['bot'])}`",
                            f"`{self.label(p['opponent'])}`",
                            p["games"],
                            _win_draw_loss(p["seat0"]),
                            _win_draw_loss(p["seat1"]),
                            _win_draw_loss([p["wins"], p["draws"], p["losses"]]),
                            _decimal(p["score"]),
                            _interval(p, "score"),
                            " ".join(map(str, p["pentanomial"])),
                            _interval(p, "pair"),
                            _decimal(p["mean_return"]),
                            _interval(p, "return"),
                            p["errors"],
                            p["cut_offs"],
                        ]
                        for p in self.pairings
                    ],
                )
            )
            out += [
                "",
                "## Elo",
                "",
                f"OpenSpiel's `pyspiel.elo` fit over all valid games, relative to "
                f"`{self.label(min(self.elo)) if self.elo else '-'}` (0 by definition); "
                + (
                    "95% interval from a bootstrap over game pairs within each pairing. "
                    if self._elo_intervals()
                    else "no interval (run without a bootstrap, --bootstrap=0). "
                )
                + "A bot that wins or loses every game has a rating bounded only by the "
                "fit's smoothing.",
                "",
            ]
            order = sorted(self.elo, key=lambda b: -self.elo[b]["elo"])
            out.append(
                markdown_table(
                    ["bot", "Elo", "95% CI", "games"],
                    [
                        [
                            f"`{self.label(b)}`",
                            f"{self.elo[b]['elo']:+.0f}",
                            self._elo_interval(b),
                            self.elo[b]["games"],
                        ]
                        for b in order
                    ],
                )
            )
        out += [
            "",
            "## Search effort per move",
            "",
            "Seconds are wall time of `bot.step` measured by the runner; nodes and depth come "
            "from the search bots' `last_search`.",
            "",
        ]
        out.append(
            markdown_table(
                [
                    "bot",
                    "moves",
                    "ms/move (all)",
                    "searched",
                    "nodes mean",
                    "nodes median",
                    "ms mean",
                    "ms median",
                    "depth mean",
                    "depth median",
                    "nodes/s",
                ],
                [
                    [
                        f"`{self.label(b)}`",
                        s["moves"],
                        _milliseconds(s["seconds_mean_all"]),
                        s["searched_moves"],
                        _compact(s["nodes_mean"]),
                        _compact(s["nodes_median"]),
                        _milliseconds(s["seconds_mean"]),
                        _milliseconds(s["seconds_median"]),
                        _decimal(s["depth_mean"], 2),
                        _decimal(s["depth_median"], 1),
                        _compact(s["nodes_per_second"]),
                    ]
                    for b, s in self.search.items()
                ],
            )
        )
        if plots:
            out += ["", "## Plots", ""] + [f"![{p}]({p})" for p in plots]
        return "\n".join(out) + "\n"

    def _players_markdown(self) -> list[str]:
        """The per-bot, per-seat and who-ended-ahead tables of a game of three or more players."""
        out = [
            "## Players",
            "",
            f"A win is the highest return; seats tied for it share the win. An even share is "
            f"1/{self.n_players} = {1 / self.n_players:.3f}. 95% CI: Wilson's interval over "
            "games; deal CI: Student's t interval over the complete deals (the seatings of a "
            "deal share their dice, so a deal is one observation), with one pseudo-deal at 0 "
            "and one at 1; mean return with its t interval over deals (no pseudo-deals). "
            f"No deal interval below {ts.MIN_PAIRS} deals.",
            "",
        ]
        seat_heads = [f"win rate seat {k}" for k in range(self.n_players)]
        out.append(
            markdown_table(
                [
                    "bot",
                    "games",
                    "deals",
                    "wins",
                    "win rate",
                    "95% CI",
                    "deal CI",
                    "mean return",
                    "return CI",
                    *seat_heads,
                    "errors",
                    "cut off",
                ],
                [
                    [
                        f"`{self.label(p['bot'])}`",
                        p["games"],
                        p["deals"],
                        _decimal(p["wins"], 1),
                        _decimal(p["win_rate"]),
                        _interval(p, "win"),
                        _interval(p, "deal_win"),
                        _decimal(p["mean_return"]),
                        _interval(p, "return"),
                        *[_decimal(x) for x in p["seat_win_rate"]],
                        p["errors"],
                        p["cut_offs"],
                    ]
                    for p in self.players
                ],
            )
        )
        out += ["", "## Seats", "", "Whoever sat there: the seat's own advantage.", ""]
        out.append(
            markdown_table(
                ["seat", "games", "win rate", "mean return"],
                [
                    [s["seat"], s["games"], _decimal(s["win_rate"]), _decimal(s["mean_return"])]
                    for s in self.seats
                ],
            )
        )
        out += [
            "",
            "## Same tables",
            "",
            "The first bot's win rate minus the second's over the complete deals both played "
            "(same dice, same other bots), with Student's t interval over those deals: the "
            "comparison a study is sized for (`experiments/tournament/sizing.py`).",
            "",
        ]
        out.append(
            markdown_table(
                ["bot", "opponent", "deals", "win-rate difference", "95% CI"],
                [
                    [
                        f"`{self.label(d['bot'])}`",
                        f"`{self.label(d['opponent'])}`",
                        d["deals"],
                        _decimal(d["difference"]),
                        _interval(d, "difference"),
                    ]
                    for d in self.differences
                ],
            )
        )
        n = len(self.specs)
        matrix = self.matrix if self.matrix is not None else np.full((n, n), np.nan)
        out += [
            "",
            "## Ended ahead",
            "",
            "Share of the games two bots played together in which the row bot's return was "
            "higher than the column bot's (equal returns count a half).",
            "",
        ]
        out.append(
            markdown_table(
                ["bot", *[str(b) for b in range(n)]],
                [
                    [f"{i}: `{self.label(i)}`", *[_decimal(matrix[i, j]) for j in range(n)]]
                    for i in range(n)
                ],
            )
        )
        return out

    def csv_rows(self) -> list[list[Any]]:
        """Long format: section, bot, opponent, seat, metric, value."""
        rows: list[list[Any]] = []
        for p in self.pairings:
            a, b = self.label(p["bot"]), self.label(p["opponent"])
            for seat, key in (("0", "seat0"), ("1", "seat1")):
                for metric, v in zip(("wins", "draws", "losses"), p[key]):
                    rows.append(["pairing", a, b, seat, metric, v])
            for metric in (
                "games",
                "wins",
                "draws",
                "losses",
                "score",
                "score_lo",
                "score_hi",
                "pair_lo",
                "pair_hi",
                "mean_return",
                "return_lo",
                "return_hi",
                "errors",
                "cut_offs",
            ):
                rows.append(["pairing", a, b, "all", metric, p[metric]])
            for k, v in enumerate(p["pentanomial"]):
                rows.append(["pairing", a, b, "all", f"pairs_score_{k / 2:g}", v])
        for p in self.players:
            a = self.label(p["bot"])
            for metric in (
                "games",
                "wins",
                "win_rate",
                "win_lo",
                "win_hi",
                "deals",
                "deal_win_lo",
                "deal_win_hi",
                "mean_return",
                "return_lo",
                "return_hi",
                "errors",
                "cut_offs",
            ):
                rows.append(["player", a, "", "all", metric, p[metric]])
            for k, (games, rate) in enumerate(zip(p["seat_games"], p["seat_win_rate"])):
                rows.append(["player", a, "", str(k), "games", games])
                rows.append(["player", a, "", str(k), "win_rate", rate])
        for d in self.differences:
            a, b = self.label(d["bot"]), self.label(d["opponent"])
            for metric in ("deals", "difference", "difference_lo", "difference_hi"):
                rows.append(["difference", a, b, "", metric, d[metric]])
        for row in self.seats:
            for metric in ("games", "win_rate", "mean_return"):
                rows.append(["seat", "", "", str(row["seat"]), metric, row[metric]])
        if self.multi and self.matrix is not None:
            for i in range(len(self.specs)):
                for j in range(len(self.specs)):
                    if i != j and np.isfinite(self.matrix[i, j]):
                        rows.append(
                            ["ahead", self.label(i), self.label(j), "", "share", self.matrix[i, j]]
                        )
        for b, e in self.elo.items():
            for metric, v in e.items():
                rows.append(["elo", self.label(b), "", "", metric, v])
        if self.solo:
            for s in self.scores:
                for metric, v in s.items():
                    if metric != "bot":
                        rows.append(["score", self.label(s["bot"]), "", "", metric, v])
            for b, goals in enumerate(self.reach):
                for g in goals:
                    for metric in ("reached", "share", "lo", "hi"):
                        rows.append(
                            ["reach", self.label(b), "", f"{g['goal']:g}", metric, g[metric]]
                        )
        for b, s in self.search.items():
            for metric, v in s.items():
                rows.append(["search", self.label(b), "", "", metric, v])
        return rows

    # ---- files ------------------------------------------------------------
    def write(self, out: str, make_plots: bool = True) -> list[str]:
        plots = self.plots(out) if make_plots else []
        with open(os.path.join(out, "summary.md"), "w", encoding="utf-8") as f:
            f.write(self.markdown(plots))
        with open(os.path.join(out, "summary.csv"), "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["section", "bot", "opponent", "seat", "metric", "value"])
            w.writerows(self.csv_rows())
        return plots

    def plots(self, out: str) -> list[str]:
        """PNG files written (names relative to `out`); none, with a note, without matplotlib."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("note: matplotlib is not installed, so no plots (pip install 'starspiel[plots]')")
            return []
        written = []
        labels = [f"{b}: {s}" for b, s in enumerate(self.specs)]
        if self.matrix is not None and np.isfinite(self.matrix).any():
            n = len(self.specs)
            fig, ax = plt.subplots(figsize=(2.2 + 1.1 * n, 1.8 + 0.9 * n))
            im = ax.imshow(self.matrix, vmin=0, vmax=1, cmap="RdYlGn")
            for i in range(n):
                for j in range(n):
                    if np.isfinite(self.matrix[i, j]):
                        ax.text(j, i, f"{self.matrix[i, j]:.2f}", ha="center", va="center")
            ax.set_xticks(range(n), [str(b) for b in range(n)])
            ax.set_yticks(range(n), labels)
            ax.set_xlabel("opponent")
            what = (
                "share of games the row bot ended ahead of the column bot"
                if self.multi
                else "score of row bot against column bot"
            )
            fig.suptitle(f"{self.config['game']}: {what}", fontsize=10)
            fig.colorbar(im, ax=ax)
            fig.tight_layout()
            fig.savefig(os.path.join(out, "score_matrix.png"), dpi=100, bbox_inches="tight")
            plt.close(fig)
            written.append("score_matrix.png")
        if self.solo:
            data = [
                [r["returns"][0] for r in ts.valid(self.records) if r["bot_index"][0] == b]
                for b in range(len(self.specs))
            ]
            if any(data):
                data = [d or [np.nan] for d in data]
                self._boxplot(out, "scores.png", data, labels, 0.5, "score", "score per game")
                written.append("scores.png")
        nodes = {
            b: [
                mv["nodes"]
                for r in ts.valid(self.records)
                for mv in r.get("search", [])
                if r["bot_index"][mv["player"]] == b
                and isinstance(mv.get("nodes"), int)
                and mv["nodes"] > 0
            ]
            for b in range(len(self.specs))
        }
        nodes = {b: v for b, v in nodes.items() if v}
        if nodes:
            self._boxplot(
                out,
                "nodes_per_move.png",
                list(nodes.values()),
                [labels[b] for b in nodes],
                0.6,
                "nodes per move (log scale)",
                "search effort per move",
                log=True,
            )
            written.append("nodes_per_move.png")
        return written

    def _boxplot(
        self,
        out: str,
        name: str,
        data: list[Any],
        labels: list[str],
        row_height: float,
        xlabel: str,
        title: str,
        log: bool = False,
    ) -> None:
        """One horizontal box per bot, written to ``out``/``name``."""
        import matplotlib.pyplot as plt  # noqa: PLC0415

        fig, ax = plt.subplots(figsize=(6.5, 1.5 + row_height * len(data)))
        _horizontal_boxplot(ax, data)
        ax.set_yticks(range(1, len(data) + 1), labels)
        if log:
            ax.set_xscale("log")
        ax.set_xlabel(xlabel)
        ax.set_title(f"{self.config['game']}: {title}", fontsize=10)
        fig.tight_layout()
        fig.savefig(os.path.join(out, name), dpi=100, bbox_inches="tight")
        plt.close(fig)
