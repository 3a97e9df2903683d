"""Time to depth and equal-time depth: what pruning buys a bot that plays on a clock.

  python -m experiments.benchmark.depth --out=results/depth
  python -m experiments.benchmark.depth --quick --out=/tmp/depth     # smoke run

Each task is one (section, game, position, bot, time limit), so a run resumes where it
stopped. Timings are comparable only when nothing else runs, hence --workers=1 by
default. What each section measures and what its columns mean: docs/guide/benchmark.md,
"Time to depth and equal-time depth".
"""

from __future__ import annotations

import gc
import hashlib
import math
import os
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import bots
from bots.calibration import calibration_command, default_calibration_path
from bots.search import SearchTimeout
from bots.spec import parse_spec, split_top_level, with_params
from experiments.benchmark import ordering_bound
from experiments.benchmark.core import plies
from experiments.common import flags, parsing, results, runner
from experiments.common.game_loader import load_game, short_name
from experiments.common.measure import timed, timed_iteration
from experiments.common.tables import markdown_table
from games.position_sampler import (
    positions_from_games,
    sample_position,
    state_from_history,
)

SECTIONS = ("time_to_depth", "equal_time", "ordering_bound")
REFERENCE = "expectiminimax"
DEFAULT_DEPTHS = "dice(n=5,k=4):6;einstein_wurfelt_nicht:5;pig:7;backgammon:3"
DEFAULT_ALGORITHMS = ("expectiminimax", "star2", "star2(tt_size=0)", "chanceprobcut")
DEFAULT_BOTS = ("expectiminimax", "star2", "chanceprobcut", "mcms")
DEFAULT_EQUAL_TIME_GAMES = (
    "dice(n=5,k=4)",
    "einstein_wurfelt_nicht",
    "pig",
    "backgammon",
    "yacht",
)
RECORDS_FILE = "records.jsonl"
QUICK = {
    "depths": "dice(n=4,k=3):3;pig(winscore=20):3",
    "algorithms": ["expectiminimax", "star2"],
    "equal_time_games": ["dice(n=4,k=3)", "pig(winscore=20)"],
    "bots": ["expectiminimax", "star2", "mcms"],
    "time_limits": [0.02],
    "positions": 2,
}

FLAGS, _define = flags.program_flags()
_define.list("sections", list(SECTIONS), f"Sections to run, from: {', '.join(SECTIONS)}.")
_define.string(
    "games",
    None,
    "Games of both sections, comma-separated (default: the games of --depths and "
    "--equal_time_games); time to depth takes each one's depth from --depths, by game "
    "string or else by short name.",
)
_define.string(
    "depths",
    DEFAULT_DEPTHS,
    "Time to depth: games and the deepest depth D to try, 'game:D;game:D' (a range "
    "'game:1-D' counts as D); expectiminimax deepens to D-1.",
)
_define.alias("max_depth", "depths")
_define.string(
    "algorithms",
    ",".join(DEFAULT_ALGORITHMS),
    "Time to depth: search bot specs, comma-separated (commas inside a spec's parentheses "
    "belong to it); expectiminimax always runs: it is the reference.",
)
_define.string(
    "equal_time_games",
    ",".join(DEFAULT_EQUAL_TIME_GAMES),
    "Equal-time depth: games, comma-separated (commas inside a game's parentheses belong to it).",
)
_define.string(
    "bots", ",".join(DEFAULT_BOTS), "Equal-time depth: search bot specs, as --algorithms."
)
_define.list("time_limits", ["0.2", "1.0"], "Equal-time depth: seconds per move.")
_define.string(
    "versus",
    REFERENCE,
    "Equal-time depth: the bots (specs as in --bots) each bot's depth is paired with, "
    "position by position, one 'deeper / shallower' column each; e.g. "
    "'expectiminimax,star2' to compare chanceprobcut with star2 too. Only the summary "
    "changes: rerunning a finished folder with another --versus searches nothing again.",
)
_define.integer(
    "positions", None, "Positions per game (default 8 and 100 per section).", lower_bound=1
)
_define.integer("seed", 0, "Seed of the position sampler (and of --positions_from's draw).")
_define.string(
    "positions_from",
    None,
    "A tournament's results folder (or its games.jsonl): the positions are decision nodes "
    "with two or more legal moves of its recorded games of each game, drawn with --seed, "
    "instead of the random-play sampler's.",
)
_define.integer(
    "ordering_rounds",
    ordering_bound.DEFAULT_ROUNDS,
    "Ordering bound: searches at D, each ordered by the best moves of the one before.",
    lower_bound=1,
)
_define.float("budget", 120.0, "Time to depth: wall seconds one iteration may take.")
_define.bool("quick", False, "A seconds-long smoke run (small games, two positions).")
_define.string("out", "results/depth", "Results folder.")
flags.define_runner_flags(_define, workers_default=1)


def task_position(payload: dict[str, Any]) -> tuple[Any, Any]:
    """The game and position of a task: a recorded history, else the shared sampler's."""
    game = load_game(payload["game"])
    if "history" in payload:
        return game, state_from_history(game, payload["history"])
    return game, sample_position(game, payload["seed"], payload["index"], plies(payload["game"]))


def time_to_depth(payload: dict[str, Any]) -> dict[str, Any]:
    """One runner task: one algorithm deepening on one position from a fresh bot.

    The loop is the bot's own iterative deepening (one searcher, its table kept,
    the previous iteration's move first, stop once the tree is exhausted), with
    a per-iteration wall budget instead of the move's deadline and the process
    CPU time read after every iteration.
    """
    game, state = task_position(payload)
    bot = bots.make_bot(payload["bot"], game, state.current_player())
    searcher = bot.searcher
    searcher.reset_stats()
    order: list[int] = []
    cpu = 0.0
    depths: list[dict[str, Any]] = []
    for depth in range(1, payload["max_depth"] + 1):
        if depths and depths[-1].get("exhausted"):
            depths.append(dict(depths[-1], depth=depth))
            continue
        evaluations, hits = searcher.evaluations, searcher.tt_hits
        try:
            _, action, timing = timed_iteration(
                searcher, state, depth, budget=payload["budget"], root_order=order
            )
        except SearchTimeout:
            break
        cpu += timing.process
        row: dict[str, Any] = {
            "depth": depth,
            "cpu": cpu,
            "nodes": searcher.nodes,
            "tt_hits": searcher.tt_hits,
        }
        if searcher.evaluations == evaluations and searcher.tt_hits == hits:
            row["exhausted"] = True  # every leaf was terminal: the bot stops here
        depths.append(row)
        order = [action] if action is not None else []
    return {"id": payload["id"], "section": "time_to_depth", **_fields(payload), "depths": depths}


def equal_time(payload: dict[str, Any]) -> dict[str, Any]:
    """One runner task: one move of a fresh time-limited bot on one position."""
    game, state = task_position(payload)
    spec = with_params(payload["bot"], time_limit=payload["time_limit"])
    bot = bots.make_bot(spec, game, state.current_player())
    cap = parse_spec(spec)[1].get("max_depth")
    _, timing = timed(lambda: bot.step(state))
    stats = bot.last_search
    return {
        "id": payload["id"],
        "section": "equal_time",
        **_fields(payload),
        "time_limit": payload["time_limit"],
        "depth": int(stats["depth"]),
        # The bot stops deepening once its value is proven (every leaf it reached
        # was terminal, so deeper search cannot change the move) or at its default
        # depth cap; a spec's own max_depth is a cap, not a proof.
        "proved": bool(stats["completed"]) and not (isinstance(cap, int) and stats["depth"] >= cap),
        "nodes": int(stats["nodes"]),
        "wall": timing.wall,
        "engine": stats.get("engine"),
    }


def ordering_bound_task(payload: dict[str, Any]) -> dict[str, Any]:
    """One runner task: one algorithm's tree at depth D with the best moves known."""
    game, state = task_position(payload)
    name, params = parse_spec(payload["bot"])
    record = ordering_bound.ordering_bound(
        game, state, name, params, payload["max_depth"], payload["rounds"]
    )
    return {
        "id": payload["id"],
        "section": "ordering_bound",
        **_fields(payload),
        "depth": payload["max_depth"],
        **record,
    }


def _fields(payload: dict[str, Any]) -> dict[str, Any]:
    fields = {"game": payload["game"], "index": payload["index"], "bot": payload["bot"]}
    if "source" in payload:
        fields["source"] = payload["source"]
    return fields


def _skip_reason(spec: str, game_string: str) -> str | None:
    """Why this bot is left out on this game (no committed calibration), or None.

    Any other problem with the spec (an unknown name or parameter) is an error.
    """
    game = load_game(game_string)
    name, params = parse_spec(spec)
    if (
        name == "chanceprobcut"
        and params.get("calibration") is None
        and not os.path.exists(default_calibration_path(game))
    ):
        return (
            f"no committed ChanceProbCut calibration (make one with: {calibration_command(game)})"
        )
    bots.make_bot(spec, game, 0)  # a bad spec fails here, before any task runs
    return None


def _algorithm_depth(spec: str, game_depth: int) -> int:
    """How deep one algorithm deepens: the reference to D-1, others to D or their max_depth."""
    if spec == REFERENCE:
        return max(1, game_depth - 1)
    cap = parse_spec(spec)[1].get("max_depth")
    return min(game_depth, cap) if isinstance(cap, int) else game_depth


def build_tasks(settings: dict[str, Any], log: Any = print) -> list[runner.Task]:
    """The tasks, position by position with every algorithm's turn on one position next
    to the others', so a burst of load on the shared machine falls on all alike."""
    tasks = []
    common = {"seed": settings["seed"]}
    recorded = _recorded_positions(settings)
    sections = settings["sections"]

    def deepening(game_string: str, index: int, spec: str, max_depth: int) -> runner.Task:
        return _task(
            f"time_to_depth|{game_string}|{index}|{spec}",
            game_string,
            index,
            spec,
            max_depth=_algorithm_depth(spec, max_depth),
            budget=settings["budget"],
            **common,
            **recorded(game_string, "time_to_depth", index),
        )

    if "time_to_depth" in sections:
        algorithms = [REFERENCE] + [a for a in settings["algorithms"] if a != REFERENCE]
        for game_string, max_depth in settings["depths"].items():
            specs = _runnable(algorithms, game_string, "time to depth", log)
            for index in range(settings["positions"]["time_to_depth"]):
                for spec in specs:
                    tasks.append(deepening(game_string, index, spec, max_depth))
    if "ordering_bound" in sections:
        # Measured against the reference's time to depth, which runs here too.
        for game_string, max_depth in settings["depths"].items():
            specs = _runnable(
                [a for a in settings["algorithms"] if a != REFERENCE],
                game_string,
                "ordering bound",
                log,
            )
            specs = [s for s in specs if not _ordering_skip(s, game_string, log)]
            for index in range(settings["positions"]["time_to_depth"]):
                if "time_to_depth" not in sections:
                    tasks.append(deepening(game_string, index, REFERENCE, max_depth))
                for spec in specs:
                    tasks.append(
                        _task(
                            f"ordering_bound|{game_string}|{index}|{spec}",
                            game_string,
                            index,
                            spec,
                            max_depth=_algorithm_depth(spec, max_depth),
                            rounds=settings.get("ordering_rounds", ordering_bound.DEFAULT_ROUNDS),
                            **common,
                            **recorded(game_string, "time_to_depth", index),
                        )
                    )
    if "equal_time" in settings["sections"]:
        for game_string in settings["equal_time_games"]:
            specs = _runnable(settings["bots"], game_string, "equal time", log)
            for limit in settings["time_limits"]:
                for index in range(settings["positions"]["equal_time"]):
                    for spec in specs:
                        task_id = f"equal_time|{game_string}|{index}|{spec}|{limit:g}"
                        position = recorded(game_string, "equal_time", index)
                        tasks.append(
                            _task(
                                task_id,
                                game_string,
                                index,
                                spec,
                                time_limit=limit,
                                **common,
                                **position,
                            )
                        )
    return tasks


def _ordering_skip(spec: str, game_string: str, log: Any) -> bool:
    reason = ordering_bound.skip_reason(parse_spec(spec)[1])
    if reason:
        log(f"ordering bound: {spec} skipped on {game_string}: {reason}")
    return reason is not None


def _recorded_positions(settings: dict[str, Any]) -> Callable[[str, str, int], dict[str, Any]]:
    """``recorded(game, section, index)``: the payload fields of a --positions_from position
    (its history and source), or no fields where positions come from the sampler."""
    source = settings.get("positions_from")
    if not source:
        return lambda game_string, section, index: {}
    records = list(read_game_records(source).values())
    drawn: dict[tuple[str, str], list[tuple[str, list[int]]]] = {}

    def recorded(game_string: str, section: str, index: int) -> dict[str, Any]:
        if (game_string, section) not in drawn:
            count = settings["positions"][section]
            game = load_game(game_string)
            drawn[(game_string, section)] = positions_from_games(
                game, records, count, settings["seed"]
            )
        origin, history = drawn[(game_string, section)][index]
        return {"history": history, "source": origin}

    return recorded


def read_game_records(source: str) -> dict[str, dict]:
    """A tournament's game records from its results folder or its games.jsonl."""
    return results.read_records(_games_file(source))


def _games_file(source: str) -> str:
    path = os.path.join(source, "games.jsonl") if os.path.isdir(source) else source
    if not os.path.isfile(path):
        raise ValueError(
            f"--positions_from: no games.jsonl at {path!r}; give a tournament's results "
            "folder or its games.jsonl"
        )
    return path


def _file_digest(source: str | None) -> str | None:
    if not source:
        return None
    with open(_games_file(source), "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def _task(task_id: str, game_string: str, index: int, spec: str, **fields: Any) -> runner.Task:
    payload = {"id": task_id, "game": game_string, "index": index, "bot": spec, **fields}
    return runner.Task(task_id, payload)


def _runnable(specs: Sequence[str], game_string: str, section: str, log: Any) -> list[str]:
    """The specs that can run on ``game_string``; the others are logged as skipped."""
    runnable = []
    for spec in specs:
        reason = _skip_reason(spec, game_string)
        if reason:
            log(f"{section}: {spec} skipped on {game_string}: {reason}")
        else:
            runnable.append(spec)
    return runnable


def run_task(payload: dict[str, Any]) -> dict[str, Any]:
    # The previous task's bot and table (100,000 entries) are garbage in a reference
    # cycle; collected inside the next task's clock they cost it up to a third of
    # its time (pig: the same star2 search timed 5.5 s right after expectiminimax,
    # 3.5 s elsewhere). Collect them before any clock starts.
    gc.collect()
    if "time_limit" in payload:
        return equal_time(payload)
    if "rounds" in payload:
        return ordering_bound_task(payload)
    return time_to_depth(payload)


# ---------------------------------------------------------------- summaries


def time_to_depth_table(records: Sequence[dict[str, Any]]) -> str:
    """time(alg, d+1) / time(expectiminimax, d) and cost per node, per game and depth."""
    by_key: dict[tuple[str, str], dict[int, dict[int, dict]]] = defaultdict(dict)
    for r in records:
        if r.get("section") == "time_to_depth" and not r.get("error"):
            by_key[(r["game"], r["bot"])][r["index"]] = {d["depth"]: d for d in r["depths"]}
    games = sorted({game for game, _ in by_key})
    header = [
        "game",
        "d",
        "positions",
        "expectiminimax CPU s at d",
        "algorithm",
        "CPU s at d+1",
        "time(alg, d+1) / time(emm, d)",
        "cost per node / emm's at d",
        "cost per node the table did not answer / emm's at d",
    ]
    rows: list[list[Any]] = []
    for game in games:
        reference = by_key.get((game, REFERENCE), {})
        algorithms = sorted(bot for g, bot in by_key if g == game and bot != REFERENCE)
        depths = sorted({d for runs in reference.values() for d in runs})
        for d in depths:
            for alg in algorithms:
                runs = by_key[(game, alg)]
                both = [
                    i
                    for i in reference
                    if d in reference[i] and i in runs and d + 1 in runs[i] and d in runs[i]
                ]
                if not both:
                    continue
                emm = sum(reference[i][d]["cpu"] for i in both)
                deeper = sum(runs[i][d + 1]["cpu"] for i in both)
                mine = [runs[i][d] for i in both]
                theirs = [reference[i][d] for i in both]
                cost = _per_node(mine) / _per_node(theirs)
                searched = _per_node(mine, searched_only=True) / _per_node(
                    theirs, searched_only=True
                )
                rows.append(
                    [
                        game,
                        d,
                        len(both),
                        f"{emm:.3f}",
                        f"`{alg}`",
                        f"{deeper:.3f}",
                        f"{deeper / emm if emm else math.nan:.2f}",
                        f"{cost:.2f}",
                        "-" if math.isnan(searched) else f"{searched:.2f}",
                    ]
                )
    return markdown_table(header, rows, "-rrr-rrrr") + "\n"


def _per_node(rows: Sequence[dict[str, Any]], searched_only: bool = False) -> float:
    """CPU per node; with ``searched_only`` per node the table did not answer.

    Most of expectiminimax's extra nodes are transpositions its table answers at
    the cost of a key and a lookup, so its cost per node is low partly because
    its nodes are cheap; the second figure separates that mix from the
    per-node work of the search itself. Records from before the table-hit
    count have none (nan).
    """
    if searched_only:
        if any("tt_hits" not in r for r in rows):
            return math.nan
        nodes = sum(r["nodes"] - r["tt_hits"] for r in rows)
    else:
        nodes = sum(r["nodes"] for r in rows)
    return sum(r["cpu"] for r in rows) / nodes if nodes else math.nan


def equal_time_table(
    records: Sequence[dict[str, Any]], versus: Sequence[str] = (REFERENCE,)
) -> str:
    """Completed depth per game, time limit and bot, paired with each bot of ``versus``.

    A search that proved its value (a forced result found, or the game's end in
    reach) stops at whatever depth it proved it, which says nothing about how deep
    it could have searched: star2 can prove a win at depth 2, where its cutoffs
    leave only terminal leaves, while expectiminimax, searching every move, goes on
    to depth 90. So a proven search counts as deeper than any unproven one and as
    deep as another proven one, and mean and median are over the positions no bot
    proved.
    """
    groups: dict[tuple[str, float], dict[str, dict[int, dict]]] = defaultdict(
        lambda: defaultdict(dict)
    )
    for r in records:
        if r.get("section") == "equal_time" and not r.get("error"):
            groups[(r["game"], r["time_limit"])][r["bot"]][r["index"]] = r
    header = [
        "game",
        "s/move",
        "bot",
        "positions",
        "proved",
        "depth mean ± s.e.",
        "median",
        *(f"deeper / shallower than {other}" for other in versus),
        "nodes per move",
        "worst move s",
    ]
    rows: list[list[Any]] = []
    for (game, limit), by_bot in sorted(groups.items()):
        proved_anywhere = {
            i for runs in by_bot.values() for i, r in runs.items() if r.get("proved")
        }
        for bot in sorted(by_bot, key=lambda b: (b != REFERENCE, b)):
            runs = by_bot[bot]
            depths = [r["depth"] for i, r in runs.items() if i not in proved_anywhere]
            mean = statistics.fmean(depths) if depths else math.nan
            error = statistics.stdev(depths) / math.sqrt(len(depths)) if len(depths) > 1 else 0
            median = f"{statistics.median(depths):g}" if depths else "-"
            paired = [_versus(runs, by_bot.get(other), bot == other) for other in versus]
            proved = sum(1 for r in runs.values() if r.get("proved"))
            nodes = statistics.fmean(r["nodes"] for r in runs.values())
            worst = max(r["wall"] for r in runs.values())
            rows.append(
                [
                    game,
                    f"{limit:g}",
                    f"`{bot}`",
                    len(runs),
                    proved,
                    f"{mean:.2f} ± {error:.2f}",
                    median,
                    *paired,
                    f"{nodes:,.0f}",
                    f"{worst:.3f}",
                ]
            )
    align = "-r-rr-r" + "-" * len(versus) + "rr"
    return markdown_table(header, rows, align) + "\n"


def _versus(runs: dict[int, dict], other: dict[int, dict] | None, same: bool) -> str:
    """'deeper / shallower of paired positions' against another bot's runs."""
    if same or not other:
        return "-"
    paired = [(_effective_depth(runs[i]), _effective_depth(other[i])) for i in runs if i in other]
    deeper = sum(a > b for a, b in paired)
    shallower = sum(a < b for a, b in paired)
    return f"{deeper} / {shallower} of {len(paired)}"


def _effective_depth(record: dict[str, Any]) -> float:
    """The completed depth, infinite where the search proved its value."""
    return math.inf if record.get("proved") else record["depth"]


def summary(
    records: Sequence[dict[str, Any]], command: str, versus: Sequence[str] = (REFERENCE,)
) -> str:
    errors = [r for r in records if r.get("error")]
    text = "# Depth at equal time\n\n"
    if any(r.get("section") == "time_to_depth" and r["bot"] != REFERENCE for r in records):
        text += "## Time to depth (process CPU seconds, summed over positions)\n\n"
        text += time_to_depth_table(records) + "\n"
    if any(r.get("section") == "ordering_bound" for r in records):
        text += (
            "## Ordering bound (depth d+1 with the best moves known, against "
            "expectiminimax's time to depth d)\n\n"
        )
        text += ordering_bound.ordering_bound_table(records, REFERENCE) + "\n"
    if any(r.get("section") == "equal_time" for r in records):
        text += "## Equal-time depth (deepest completed iteration of one move)\n\n"
        text += equal_time_table(records, versus) + "\n"
    if errors:
        text += f"{len(errors)} task(s) failed; see the records (rerun with --rerun_errors).\n\n"
    return text + f"Command: `{command}` (search engine: {results.search_engine()})\n"


def run(
    settings: dict[str, Any],
    out: str,
    options: runner.RunnerOptions,
    versus: Sequence[str] = (REFERENCE,),
) -> str:
    tasks = build_tasks(settings)
    # Only the sections run decide the results: folders of runs without the
    # ordering bound keep resuming as they were written.
    config = {
        key: value
        for key, value in settings.items()
        if key != "ordering_rounds" or "ordering_bound" in settings["sections"]
    }
    with results.ResultsFolder(out, config, records_file=RECORDS_FILE) as folder:
        runner.run_missing(run_task, tasks, folder, options, unit="searches")
        records = folder.records()
    command = "python -m experiments.benchmark.depth " + " ".join(sys.argv[1:])
    text = summary(records, command, versus)
    results.write_atomic(f"{out}/summary.md", text)
    return text


def _specs(text: str) -> list[str]:
    return [spec.strip() for spec in split_top_level(text) if spec.strip()]


def _depth_for(game_string: str, depths: dict[str, int]) -> int:
    """The --depths entry of a --games game: by its game string, else by its short name."""
    if game_string in depths:
        return depths[game_string]
    matches = [d for g, d in depths.items() if short_name(g) == short_name(game_string)]
    if len(matches) == 1:
        return matches[0]
    raise ValueError(
        f"--games: no depth for {game_string!r} in --depths ({'; '.join(depths)}); "
        f"add '{game_string}:D' to --depths"
    )


def settings_from_flags() -> dict[str, Any]:
    quick = QUICK if FLAGS.quick else {}
    depths_text = quick.get("depths", FLAGS.depths)
    default, per_game = parsing.parse_per_game(depths_text, "--depths")
    if default is not None:
        raise ValueError(
            f"--depths needs a game for every depth ('game:D;game:D'), got {default!r}"
        )
    depths = {}
    for game_string, depth in per_game.items():
        load_game(game_string)
        depths[game_string] = parsing.parse_int_list(depth, "--depths", minimum=1)[-1]
    equal_time_games = list(
        quick.get(
            "equal_time_games", [g.strip() for g in parsing.split_games(FLAGS.equal_time_games)]
        )
    )
    for game_string in equal_time_games:
        load_game(game_string)
    if FLAGS.games:
        games = [g.strip() for g in parsing.split_games(FLAGS.games) if g.strip()]
        for game_string in games:
            load_game(game_string)
        equal_time_games = games
        if {"time_to_depth", "ordering_bound"} & set(FLAGS.sections):
            depths = {game: _depth_for(game, depths) for game in games}
    unknown = sorted(set(FLAGS.sections) - set(SECTIONS))
    if unknown:
        raise ValueError(
            f"unknown --sections {', '.join(unknown)}; accepted: {', '.join(SECTIONS)}"
        )
    try:
        limits = [float(t) for t in quick.get("time_limits", FLAGS.time_limits)]
    except ValueError:
        raise ValueError(f"--time_limits must be numbers, got {FLAGS.time_limits}") from None
    count = quick.get("positions", FLAGS.positions)
    return {
        "sections": list(FLAGS.sections),
        "depths": depths,
        "algorithms": quick.get("algorithms", _specs(FLAGS.algorithms)),
        "equal_time_games": equal_time_games,
        "bots": quick.get("bots", _specs(FLAGS.bots)),
        "time_limits": limits,
        "positions": {
            "time_to_depth": count or 8,
            "equal_time": count or 100,
        },
        "seed": FLAGS.seed,
        "budget": FLAGS.budget,
        "ordering_rounds": FLAGS.ordering_rounds,
        "positions_from": FLAGS.positions_from,
        # A folder resumed against other games would mix two draws of positions.
        "positions_from_digest": _file_digest(FLAGS.positions_from),
    }


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        flags.fail(f"unexpected arguments: {' '.join(argv[1:])}")
    try:
        settings = settings_from_flags()
        versus = _specs(FLAGS.versus)
        missing = [v for v in versus if v not in settings["bots"]]
        if missing and FLAGS["versus"].present and "equal_time" in settings["sections"]:
            raise ValueError(
                f"--versus {', '.join(missing)} is not among --bots ({', '.join(settings['bots'])})"
            )
        print(run(settings, FLAGS.out, flags.runner_options(FLAGS), versus))
    except ValueError as error:
        flags.fail(str(error))


if __name__ == "__main__":
    flags.run(main, FLAGS)
