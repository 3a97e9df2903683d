"""The strength page's tables: games by questions, then one row per study."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from experiments.common.tables import markdown_table
from experiments.strength.checkpoint import CHECKPOINT_FILE
from experiments.strength.plan import BASE_TIME, GAMES, LEAD_TIMES, QUESTIONS, Study, studies
from experiments.strength.study import RESULT_FILE, study_result
from experiments.tournament import RECORDS_FILE

CPU_SECONDS_PER_DECISION_OVERHEAD = 0.005  # bot construction, records, chance events
# Decisions per game, both players, measured with star2(max_depth=2) self-play (4 games each).
DECISIONS_PER_GAME = {
    "dice": 16, "einstein": 15, "pig": 75, "backgammon": 61, "yacht": 69, "cant_stop": 162,
}  # fmt: skip


def estimated_cpu_hours(study: Study) -> float:
    """Decisions times seconds per move; a fixed-depth study is priced at BASE_TIME a move
    (the depths of PLY_DEPTHS are about what that clock reaches)."""
    decisions = study.games * DECISIONS_PER_GAME[study.game_key]
    seconds = BASE_TIME if study.time_limit is None else study.time_limit
    return decisions * (seconds + CPU_SECONDS_PER_DECISION_OVERHEAD) / 3600


def load_result(out: Path, study: Study, settled: bool = False) -> dict[str, Any] | None:
    """The study's result; for a study interrupted or still running, what its games say so
    far, unless `settled` (its games file is not committed, so the docs cannot show it)."""
    folder = out / study.name
    if (folder / RESULT_FILE).exists():
        return json.loads((folder / RESULT_FILE).read_text())
    if not settled and any((folder / f).exists() for f in (RECORDS_FILE, CHECKPOINT_FILE)):
        return study_result(study, folder)
    return None


def _cell(result: dict[str, Any] | None) -> str:
    """A short verdict and the score: '**wins** 0.561', 'no diff. >= 0.03: 0.499'."""
    if result is None:
        return "not run"
    verdict, score = result["verdict"], f"{result['score']:.3f}"
    partial = verdict.startswith("incomplete")
    if partial:
        verdict = verdict.partition(": ")[2]
    head = verdict.split(" at look")[0]
    if head in ("wins", "loses"):
        text = f"**{head}** {score}"
        if result.get("stopped_at_look") and result["games"] < result["planned_games"]:
            text += f" (stopped at {result['games']} games)"
    else:
        bound = verdict.split("of ")[1].split(" or")[0]
        text = f"no diff. >= {bound}: {score}"
    return text + (f" ({result['games']} of {result['planned_games']} games)" if partial else "")


def _interval(pair: list[float]) -> str:
    return f"[{pair[0]:.3f}, {pair[1]:.3f}]"


def overview(out: Path) -> str:
    """One row per question, one column per game and time per move: verdict and score."""
    plan = [s for s in studies() if not s.learned and s.time_limit is not None]
    clocks = {(s.game_key, s.time_limit) for s in plan if s.time_limit is not None}
    columns = [(g, t) for g in GAMES for t in sorted(t for k, t in clocks if k == g)]
    by_key = {(s.question.name, s.game_key, s.time_limit): s for s in plan}
    rows = []
    for q in QUESTIONS:
        cells = [f"{q.bot} v {q.opponent}"]
        for g, t in columns:
            s = by_key.get((q.name, g, t))
            cells.append("-" if s is None else _cell(load_result(out, s)))
        rows.append(cells)
    return markdown_table(["question"] + [f"{g} {t:g} s" for g, t in columns], rows)


def in_learned_panel(study: Study) -> bool:
    """A study a learned model plays in, or a fixed-depth ply study (hand rows beside the
    learned ones): the strength page's second table and forest panel."""
    return study.learned or study.time_limit is None


def details(out: Path, learned: bool = False, settled: bool = False) -> str:
    """Every study of one panel: its size, price, result, intervals, depths, engine,
    revision, time. The learned panel lists only the studies that have games; `settled`
    leaves out the games of studies not finished (load_result)."""
    header = [
        "study", "bots", "s/move", "planned games", "est. CPU-h", "played", "score",
        "Wilson 95%", "pair 95%", "pentanomial", "design", "verdict", "median depth", "engine",
        "revision", "wall s", "load",
    ]  # fmt: skip
    rows = []
    for s in studies():
        if in_learned_panel(s) != learned:
            continue
        r = load_result(out, s, settled)
        if learned and r is None:
            continue
        head = [
            s.name,
            f"`{s.bots[0]}` v `{s.bots[1]}`",
            "fixed depth" if s.time_limit is None else f"{s.time_limit:g}",
            s.games,
            f"{estimated_cpu_hours(s):.1f}",
        ]
        if r is None:
            rows.append(head + [0, "", "", "", "", "", "not run", "", "", "", "", ""])
            continue
        loads = r["loads"]
        rows.append(
            head
            + [
                r["games"],
                f"{r['score']:.3f}",
                _interval(r["wilson"]),
                _interval(r["pair_interval"]),
                " ".join(map(str, r["pentanomial"])),
                "4 looks" if r.get("design") == "looks" else "fixed",
                r["verdict"],
                " / ".join("-" if d is None else f"{d:g}" for d in r["median_depth"]),
                " / ".join(",".join(e) or "-" for e in r["engines"]),
                ",".join(r["revisions"]),
                f"{r['wall_seconds']:.0f}",
                f"{min(loads):.1f}-{max(loads):.1f}" if loads else "",
            ]
        )
    return markdown_table(header, rows, "--rrrrr--------r-")


def lead_table(records: list[dict[str, Any]]) -> str:
    """Mean completed depth lead of each question's bot at each time per move."""
    depths: dict[tuple[str, str, float], list[int]] = {}
    for r in records:
        if r.get("section") == "equal_time" and r.get("depth") is not None:
            depths.setdefault((r["game"], r["bot"], float(r["time_limit"])), []).append(r["depth"])
    times = sorted({t for _, _, t in depths})
    rows = []
    for game_key, bot, over in sorted(
        {(g, q.bot, q.lead_over) for q in QUESTIONS for g in q.games}
    ):
        cells = []
        for t in times:
            mine = depths.get((GAMES[game_key], bot, t))
            theirs = depths.get((GAMES[game_key], over, t))
            cells.append(
                f"{sum(mine) / len(mine) - sum(theirs) / len(theirs):+.2f}"
                if mine and theirs
                else "-"
            )
        chosen = LEAD_TIMES.get((game_key, bot, over))
        rows.append([game_key, bot, over, *cells, "-" if chosen is None else f"{chosen:g} s"])
    header = ["game", "bot", "over", *(f"lead at {t:g} s" for t in times), "chosen"]
    return markdown_table(header, rows, "---" + "r" * (len(times) + 1))


# The strength page's per-study tables, between these markers, are details(settled=True) of
# the committed results: `--write_docs` rewrites them, and test_strength checks them.
DETAILS_MARKERS = {False: "details", True: "learned-details"}


def with_details(page: str, out: Path) -> str:
    """`page` with each marked per-study table replaced by the settled results in `out`."""
    for learned, tag in DETAILS_MARKERS.items():
        start, end = f"<!-- {tag} -->\n", f"<!-- /{tag} -->"
        head, found, rest = page.partition(start)
        if not found or end not in rest:
            raise ValueError(f"the page has no {start.strip()} ... {end} block")
        page = head + start + details(out, learned, settled=True) + "\n" + end
        page += rest.partition(end)[2]
    return page
