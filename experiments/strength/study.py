"""Runs one study as a tournament and reduces its games to a result with a verdict."""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from experiments.common.runner import RunnerOptions
from experiments.strength import power
from experiments.strength.plan import Study
from experiments.tournament import RECORDS_FILE, run_tournament
from experiments.tournament.stats import pairing_stats

SESSIONS_FILE = "sessions.jsonl"
RESULT_FILE = "result.json"
MAX_MOVES = 1000


def revision() -> str:
    """The checkout's commit, marked dirty when the tree has uncommitted changes."""
    root = Path(__file__).resolve().parents[2]
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return (commit or "unknown") + ("-dirty" if dirty else "")


def tournament_config(study: Study) -> dict[str, Any]:
    return {
        "program": "experiments.tournament",
        "game": study.game,
        "bots": study.bots,
        "schedule": "gauntlet",
        "games_per_pair": study.games,
        "seed": 0,
        "max_moves": MAX_MOVES,
    }


def run_study(study: Study, out: Path, options: RunnerOptions) -> dict[str, Any]:
    """Plays what is missing of `study` in `out`, logs the session, returns the result."""
    out.mkdir(parents=True, exist_ok=True)
    session = {
        "revision": revision(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "workers": options.workers,
        "load_before": list(os.getloadavg()),
    }
    start = time.perf_counter()
    try:
        run_tournament(
            tournament_config(study), str(out), options=options, bootstrap=0, plots=False
        )
    finally:
        session["seconds"] = round(time.perf_counter() - start, 1)
        session["load_after"] = list(os.getloadavg())
        with open(out / SESSIONS_FILE, "a") as f:
            f.write(json.dumps(session) + "\n")
    result = study_result(study, out)
    (out / RESULT_FILE).write_text(json.dumps(result, indent=1) + "\n")
    return result


def _lines(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def verdict(stats: dict[str, Any], planned: int) -> str:
    """wins / loses from the pair interval, else the difference the games could rule out."""
    pairs = sum(stats["pentanomial"])
    if pairs < 2:
        return "not run"
    prefix = "" if stats["games"] >= planned else f"incomplete ({stats['games']} of {planned}): "
    if stats["pair_lo"] > 0.5:
        return prefix + "wins"
    if stats["pair_hi"] < 0.5:
        return prefix + "loses"
    effect = power.detectable_effect(power.pair_sd(stats["pentanomial"]), pairs)
    bound = max(power.EFFECT, math.ceil(effect * 100 - 1e-9) / 100)
    return prefix + f"no difference of {bound:.2f} or more at {stats['games']} games"


def study_result(study: Study, out: Path) -> dict[str, Any]:
    """The study's score, intervals, verdict, depths, engines, revisions and wall time."""
    records = [r for r in _lines(out / RECORDS_FILE) if r.get("bots") is not None]
    stats = pairing_stats(records, 0, 1)
    depths: dict[int, list[int]] = {0: [], 1: []}
    engines: dict[int, set[str]] = {0: set(), 1: set()}
    for r in records:
        for move in r.get("search", []):
            bot = r["bot_index"][move["player"]]
            if move.get("depth") is not None:
                depths[bot].append(int(move["depth"]))
            if move.get("engine"):
                engines[bot].add(str(move["engine"]))
    sessions = _lines(out / SESSIONS_FILE)
    return {
        "study": study.name,
        "game": study.game,
        "bots": study.bots,
        "time_limit": study.time_limit,
        "planned_games": study.games,
        "prior_sd": round(study.sd, 4),
        **{k: stats[k] for k in ("games", "wins", "draws", "losses", "pentanomial", "errors")},
        "score": stats["score"],
        "wilson": [stats["score_lo"], stats["score_hi"]],
        "pair_interval": [stats["pair_lo"], stats["pair_hi"]],
        "verdict": verdict(stats, study.games),
        "median_depth": [statistics.median(depths[b]) if depths[b] else None for b in (0, 1)],
        "engines": [sorted(engines[b]) for b in (0, 1)],
        "revisions": sorted({s["revision"] for s in sessions}),
        "wall_seconds": round(sum(s["seconds"] for s in sessions), 1),
        "loads": [s["load_before"][0] for s in sessions] + [s["load_after"][0] for s in sessions],
    }
