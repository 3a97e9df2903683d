"""Runs every algorithm on one position (all its depths) and turns each search into a record.

Expectiminimax runs first and is the reference: every exact algorithm's root
value must equal it to 1e-9 (``mismatch`` in the record otherwise); where
expectiminimax did not run (over budget or a preset's depth limit) the first
exact algorithm that finished is the reference, and the record says so. The
OpenSpiel baseline is ``open_spiel.python.algorithms.minimax.expectiminimax``
with the same evaluator and no pruning.

Every search has a time budget (seconds per call). A search over budget is
stopped (engine: ``StarSearcher.deadline``; OpenSpiel: a clock check at every leaf)
and recorded as ``skipped``; searches that cannot fit are skipped without
running: deeper ones after a skip on the same position, and OpenSpiel calls
whose time predicted from one depth shallower, scaled by our expectiminimax's
node growth, exceeds it. Everything a search's outcome depends on is in its own
position, so one position is one task of the shared runner and its records are
the same on any backend.
"""

from __future__ import annotations

import dataclasses
import math
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import pyspiel

from bots.calibration import probcut_settings
from bots.evaluators import make_evaluator
from bots.native_searcher import make_searcher
from bots.search import STAT_KEYS, SearchTimeout
from experiments.common.measure import (
    BudgetExceeded,
    openspiel_expectiminimax,
    timed,
    timed_iteration,
)
from experiments.common.runner import TaskTimeout
from experiments.node_reduction import ballard
from experiments.node_reduction.position_sets import deserialize
from experiments.node_reduction.presets import ALGORITHMS, INEXACT, REFERENCE

TOLERANCE = 1e-9
OPENSPIEL = "openspiel"


@dataclasses.dataclass(frozen=True)
class StudyRow:
    """One position searched to one depth: a row of the study, one record per algorithm."""

    case: str
    entry: dict
    depth: int
    ballard: bool = False

    def record_id(self, algorithm: str) -> str:
        return f"{self.case}|{self.entry['id']}|d{self.depth}|{algorithm}"

    def searched(self, algorithms: Sequence[str]) -> list[str]:
        """The algorithms this row runs: all but the reference on a Ballard tree past
        --reference_trees."""
        if self.entry.get("no_reference"):
            return [a for a in algorithms if a != REFERENCE]
        return list(algorithms)

    def at_depth(self, depth: int) -> StudyRow:
        """The same position searched to another depth (cases named by depth follow it)."""
        case = f"depth={depth}" if self.case == f"depth={self.depth}" else self.case
        return dataclasses.replace(self, case=case, depth=depth)


@dataclasses.dataclass
class StudySettings:
    """What the searches need besides the row: evaluator spec, ChanceProbCut and budgets."""

    preset: str
    evaluator: str | None = None
    probcut_R: int | None = None  # None: the calibration's default
    probcut_t: float = 1.5
    probcut_calibration: str | None = None
    budget: float = 60.0
    depths: tuple[int, ...] = ()
    depth_limits: dict[str, int] = dataclasses.field(default_factory=dict)
    reuse_probes: bool = False  # Ballard trees: count a probed leaf once (Table 7)


class PositionSearches:
    """Runs the algorithms of one row, reusing loaded games, evaluators and calibrations."""

    def __init__(self, settings: StudySettings, records: dict[str, dict] | None = None):
        self.settings = settings
        self.records = {} if records is None else records  # id -> record of this position
        self._evaluators: dict[str, Any] = {}
        self._probcut: dict[str, Any] = {}
        self.task_expired: str | None = None  # set when the runner's --task_timeout fired

    # ------------------------------------------------------------------ setup

    def evaluator_for(self, game: pyspiel.Game) -> Any:
        key = str(game)
        if key not in self._evaluators:
            if len(self._evaluators) > 64:
                self._evaluators.clear()  # Ballard: one game per random tree
            self._evaluators[key] = make_evaluator(self.settings.evaluator, game)
        return self._evaluators[key]

    def probcut_for(self, game: pyspiel.Game) -> Any:
        key = str(game)
        if key not in self._probcut:
            self._probcut[key] = probcut_settings(
                game,
                self.settings.probcut_R,
                self.settings.probcut_t,
                self.settings.probcut_calibration,
                evaluator=self.settings.evaluator,  # a calibration fits one evaluator
            )
        return self._probcut[key]

    # ----------------------------------------------------------------- running

    def run_row(
        self, row: StudyRow, algorithms: list[str], on_record: Callable[[dict], None]
    ) -> None:
        """Runs the algorithms of `row` that have no record yet (reference first)."""
        todo = [a for a in row.searched(algorithms) if row.record_id(a) not in self.records]
        if not todo:
            return
        game, state = deserialize(row.entry)
        player = 0 if row.ballard else state.current_player()
        order = [REFERENCE] + [a for a in todo if a != REFERENCE] if REFERENCE in todo else todo
        for algorithm in order:
            record = self._run_one(row, algorithm, game, state, player, algorithms)
            self.records[record["id"]] = record
            on_record(record)

    def _base_record(self, row: StudyRow, algorithm: str, game: pyspiel.Game) -> dict:
        record = {
            "id": row.record_id(algorithm),
            "preset": self.settings.preset,
            "case": row.case,
            "position": row.entry["id"],
            "game": str(game),
            "depth": row.depth,
            "algorithm": algorithm,
            "status": "ok",
            "value": None,
            "action": None,
            "seconds": None,
            "reference": None,
            "reference_value": None,
            "mismatch": None,
            "error": None,
            "note": None,
        }
        if "full_leaves" in row.entry:
            record["full_leaves"] = row.entry["full_leaves"]
        return record

    def _reference(self, row: StudyRow, algorithms: list[str], exclude: str) -> dict | None:
        """Expectiminimax's record of this row, else the first finished exact one."""
        for name in [REFERENCE] + algorithms:
            if name == exclude or name in INEXACT:
                continue
            ref = self.records.get(row.record_id(name))
            if ref is not None and ref.get("status") == "ok":
                return ref
        return None

    def _run_one(
        self,
        row: StudyRow,
        algorithm: str,
        game: pyspiel.Game,
        state: pyspiel.State,
        player: int,
        algorithms: list[str],
    ) -> dict:
        record = self._base_record(row, algorithm, game)
        reason = self._skip_reason(row, algorithm)
        if reason is not None:
            record["status"], record["note"] = "skipped", reason
            return record
        try:
            if algorithm == OPENSPIEL:
                self._run_openspiel(row, record, game, state, player)
            else:
                self._run_engine(row, record, algorithm, game, state, player)
        except (BudgetExceeded, SearchTimeout):
            record["status"], record["timed_out"] = "skipped", True
            record["note"] = f"stopped at the {self.settings.budget:g} s budget"
        except TaskTimeout as error:  # the whole position's limit, --task_timeout
            record["status"], record["timed_out"] = "skipped", True
            record["note"] = self.task_expired = f"{error} (--task_timeout)"
        except Exception as error:  # recorded; the run goes on and exits non-zero
            record["status"] = "error"
            record["error"] = f"{type(error).__name__}: {error}"
            record["traceback"] = traceback.format_exc(limit=8)
        self._check(row, record, algorithms)
        return record

    def _run_engine(
        self,
        row: StudyRow,
        record: dict,
        algorithm: str,
        game: pyspiel.Game,
        state: pyspiel.State,
        player: int,
    ) -> None:
        kwargs = dict(ALGORITHMS[algorithm])
        engine_algorithm = kwargs.pop("algorithm")
        evaluator = self.evaluator_for(game)
        probcut = self.probcut_for(game) if engine_algorithm == "chanceprobcut" else None
        if "probing" in kwargs and row.entry.get("probing_factor") is not None:  # Table 7
            kwargs["probing_factor"] = row.entry["probing_factor"]
        if row.ballard:
            star25 = {k: kwargs[k] for k in ("probing_factor", "probing") if k in kwargs}
            searcher = ballard.ballard_searcher(
                game,
                engine_algorithm,
                evaluator,
                tt_size=kwargs.get("tt_size", 0),
                probcut=probcut,
                reuse_probes=self.settings.reuse_probes,
                **star25,
            )
        elif engine_algorithm == "mcms":
            samples = kwargs.pop("samples")
            seed = kwargs.pop("seed", 0)
            searcher = make_searcher(
                "auto",
                game,
                player,
                "star2",
                samples=samples,
                seed=seed,
                evaluator=evaluator,
                **kwargs,
            )
        else:
            # What bots.search.search() builds, plus a deadline for the budget.
            searcher = make_searcher(
                "auto",
                game,
                player,
                engine_algorithm,
                evaluator=evaluator,
                probcut=probcut,
                **kwargs,
            )
        value, action, timing = timed_iteration(
            searcher, state, row.depth, budget=self.settings.budget
        )
        stats = searcher.stats()
        record["seconds"] = timing.wall
        record["value"] = float(value)
        record["action"] = None if action is None else int(action)
        record["engine"] = searcher.engine
        record.update({key: int(stats[key]) for key in STAT_KEYS})

    def _run_openspiel(
        self, row: StudyRow, record: dict, game: pyspiel.Game, state: pyspiel.State, player: int
    ) -> None:
        evaluator = self.evaluator_for(game)
        (value, action, calls), timing = timed(
            lambda: openspiel_expectiminimax(
                state.clone(), row.depth, evaluator, player, self.settings.budget
            )
        )
        record["seconds"] = timing.wall
        record["value"], record["action"], record["evaluations"] = value, action, calls

    def _skip_reason(self, row: StudyRow, algorithm: str) -> str | None:
        """Why this search cannot fit the budget (or the preset's depth limit), or None."""
        if self.task_expired is not None:
            return self.task_expired
        budget = self.settings.budget
        limit = self.settings.depth_limits.get(algorithm)
        if limit is not None and row.depth > limit:
            return f"beyond the preset's depth limit {limit} for {algorithm}"
        shallower = [d for d in self.settings.depths if d < row.depth]
        if not shallower:
            return None
        prev = row.at_depth(max(shallower))
        prev_rec = self.records.get(prev.record_id(algorithm))
        if prev_rec is not None and prev_rec.get("status") == "skipped":
            return f"depth {prev.depth} was already skipped for this position"
        if algorithm == OPENSPIEL and prev_rec is not None and prev_rec.get("status") == "ok":
            prev_ref = self.records.get(prev.record_id(REFERENCE))
            ref = self.records.get(row.record_id(REFERENCE))
            if prev_ref and ref and prev_ref.get("nodes") and ref.get("nodes"):
                growth = ref["nodes"] / prev_ref["nodes"]
                predicted = prev_rec["seconds"] * growth
                if predicted > budget:
                    return (
                        f"predicted {predicted:.0f} s > {budget:g} s budget (depth {prev.depth} "
                        f"took {prev_rec['seconds']:.2f} s; expectiminimax nodes grew "
                        f"x{growth:.1f})"
                    )
        return None

    def _check(self, row: StudyRow, record: dict, algorithms: list[str]) -> None:
        """Compares the root value with the reference: exact algorithms must agree."""
        if record["status"] != "ok":
            return
        if record["algorithm"] == REFERENCE:
            record["reference"], record["reference_value"] = REFERENCE, record["value"]
            record["mismatch"] = False
            return
        ref = self._reference(row, algorithms, exclude=record["algorithm"])
        if ref is None:
            record["note"] = "no finished exact search of this position to check against"
            return
        record["reference"], record["reference_value"] = ref["algorithm"], ref["value"]
        difference = record["value"] - ref["value"]
        if record["algorithm"] in INEXACT:
            record["value_error"] = difference
            record["move_agrees"] = record["action"] == ref["action"]
            record["mismatch"] = False
            return
        record["mismatch"] = not abs(difference) <= TOLERANCE or math.isnan(difference)
        if record["mismatch"]:
            record["note"] = (
                f"value {record['value']!r} differs from {ref['algorithm']}'s "
                f"{ref['value']!r} by {difference:.3g} (tolerance {TOLERANCE:g})"
            )
