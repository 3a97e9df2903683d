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
from experiments.strength import checkpoint, power
from experiments.strength.plan import Study
from experiments.tournament import run_tournament
from experiments.tournament.stats import Z95, pair_interval, pairing_stats

SESSIONS_FILE = "sessions.jsonl"
SEQUENTIAL = "looks"  # power.LOOKS interim looks with O'Brien-Fleming boundaries
FIXED = "fixed"  # every planned game, one look (the studies run before the looks)
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
    """Plays what is missing of `study` in `out`, look by look, and returns the result.

    A study begun before interim looks existed (its first session names no design)
    keeps its fixed design and plays every planned game.
    """
    out.mkdir(parents=True, exist_ok=True)
    checkpoint.restore(out)
    sessions = _lines(out / SESSIONS_FILE)
    design = _design(sessions) if sessions else SEQUENTIAL
    session = {
        "revision": revision(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "workers": options.workers,
        "design": design,
        "load_before": list(os.getloadavg()),
    }
    start = time.perf_counter()
    looks = range(1, power.LOOKS + 1) if design == SEQUENTIAL else [power.LOOKS]
    try:
        for look in looks:
            limit = power.look_games(study.games, look)
            # A look whose games an earlier session played needs only its check below.
            if look == power.LOOKS or _prefix(_records(out), limit) is None:
                run_tournament(
                    tournament_config(study),
                    str(out),
                    options=options,
                    bootstrap=0,
                    plots=False,
                    limit=limit,
                )
            if design == SEQUENTIAL and _stopped_at(study, _records(out)) is not None:
                break
    finally:
        session["seconds"] = round(time.perf_counter() - start, 1)
        session["load_after"] = list(os.getloadavg())
        with open(out / SESSIONS_FILE, "a") as f:
            f.write(json.dumps(session) + "\n")
        checkpoint.save(out, settled=_settled(study, design, _records(out)))
    result = study_result(study, out)
    (out / RESULT_FILE).write_text(json.dumps(result, indent=1) + "\n")
    return result


def _lines(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def verdict(stats: dict[str, Any], planned: int, critical: float = Z95) -> str:
    """wins / loses from the pair interval, else the difference the games could rule out.

    `critical`: the z the interval was built with; the difference ruled out is the
    one these pairs detect with the planned power at that z.
    """
    pairs = sum(stats["pentanomial"])
    if pairs < 2:
        return "not run"
    prefix = "" if stats["games"] >= planned else f"incomplete ({stats['games']} of {planned}): "
    if stats["pair_lo"] > 0.5:
        return prefix + "wins"
    if stats["pair_hi"] < 0.5:
        return prefix + "loses"
    effect = power.detectable_effect(power.pair_sd(stats["pentanomial"]), pairs, critical=critical)
    bound = max(power.EFFECT, math.ceil(effect * 100 - 1e-9) / 100)
    return prefix + f"no difference of {bound:.2f} or more at {stats['games']} games"


def _design(sessions: list[dict[str, Any]]) -> str:
    return str(sessions[0].get("design", FIXED)) if sessions else SEQUENTIAL


def _records(out: Path) -> list[dict[str, Any]]:
    lines = checkpoint.games_text(out).splitlines()
    return [r for r in map(json.loads, filter(str.strip, lines)) if r.get("bots") is not None]


def _prefix(records: list[dict[str, Any]], games: int) -> list[dict[str, Any]] | None:
    """The records of the schedule's first `games` games, or None while some are unplayed."""
    mine = [r for r in records if r["game_index"] < games]
    return mine if len({r["game_index"] for r in mine}) == games else None


def _settled(study: Study, design: str, records: list[dict[str, Any]]) -> bool:
    """Every planned game played, or (with looks) a look's boundary crossed."""
    if _prefix(records, study.games) is not None:
        return True
    return design == SEQUENTIAL and _stopped_at(study, records) is not None


def _stopped_at(study: Study, records: list[dict[str, Any]]) -> tuple[int, dict[str, Any]] | None:
    """The first look whose pair z crossed its boundary, with that look's statistics."""
    for look in range(1, power.LOOKS + 1):
        prefix = _prefix(records, power.look_games(study.games, look))
        if prefix is None:
            return None
        stats = pairing_stats(prefix, 0, 1)
        if abs(power.pair_z(stats["pentanomial"])) >= power.look_boundary(look):
            return look, stats
    return None


def study_result(study: Study, out: Path) -> dict[str, Any]:
    """The study's score, intervals, verdict, depths, engines, revisions and wall time.

    A study with interim looks that stopped early reports the games up to that look,
    with the pair interval at that look's boundary (a repeated confidence interval,
    valid whatever look it stopped at); one that played every game uses the last
    look's boundary.
    """
    records = _records(out)
    sessions = _lines(out / SESSIONS_FILE)
    design = _design(sessions)
    stats = pairing_stats(records, 0, 1)
    critical = Z95
    stopped = None
    if design == SEQUENTIAL:
        critical = power.look_boundary(power.LOOKS)
        stopped = _stopped_at(study, records)
        if stopped is not None:
            look, stats = stopped
            critical = power.look_boundary(look)
            records = _prefix(records, power.look_games(study.games, look)) or []
        stats = dict(stats)
        stats["pair_lo"], stats["pair_hi"] = pair_interval(stats["pentanomial"], critical)
    depths: dict[int, list[int]] = {0: [], 1: []}
    engines: dict[int, set[str]] = {0: set(), 1: set()}
    for r in records:
        for move in r.get("search", []):
            bot = r["bot_index"][move["player"]]
            if move.get("depth") is not None:
                depths[bot].append(int(move["depth"]))
            if move.get("engine"):
                engines[bot].add(str(move["engine"]))
    planned = study.games
    text = verdict(stats, stats["games"] if stopped else planned, critical)
    if stopped is not None and stopped[0] < power.LOOKS:
        text += f" at look {stopped[0]} of {power.LOOKS}"
    return {
        "study": study.name,
        "game": study.game,
        "bots": study.bots,
        "time_limit": study.time_limit,
        "planned_games": planned,
        "prior_sd": round(study.sd, 4),
        "design": design,
        "stopped_at_look": None if stopped is None else stopped[0],
        **{k: stats[k] for k in ("games", "wins", "draws", "losses", "pentanomial", "errors")},
        "score": stats["score"],
        "wilson": [stats["score_lo"], stats["score_hi"]],
        "pair_interval": [stats["pair_lo"], stats["pair_hi"]],
        "pair_z": power.pair_z(stats["pentanomial"]),
        "critical_z": critical,
        "verdict": text,
        "median_depth": [statistics.median(depths[b]) if depths[b] else None for b in (0, 1)],
        "engines": [sorted(engines[b]) for b in (0, 1)],
        "revisions": sorted({s["revision"] for s in sessions}),
        "wall_seconds": round(sum(s["seconds"] for s in sessions), 1),
        "loads": [s["load_before"][0] for s in sessions] + [s["load_after"][0] for s in sessions],
    }
