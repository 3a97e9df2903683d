"""summary.csv, summary.md and nodes.png of a node-reduction folder.

summary.csv has exactly the columns ``preset,case,algorithm,metric,measured,published``
(published empty where the paper gives nothing). Means are over the positions
(trees) of a case whose search finished; reductions compare totals over the
positions where both algorithms finished.
"""

from __future__ import annotations

import csv
import math
import os
import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from bots.search import STAT_KEYS
from experiments.common.tables import markdown_table
from experiments.node_reduction.presets import INEXACT, REFERENCE, Preset

CSV_COLUMNS = ("preset", "case", "algorithm", "metric", "measured", "published")
SUMMARY_CSV, SUMMARY_MD, PLOT_FILE = "summary.csv", "summary.md", "nodes.png"
# Averaged per algorithm: every searcher counter but probcut_researches, and the time.
_MEAN_KEYS = tuple(k for k in STAT_KEYS if k != "probcut_researches") + ("seconds",)
# Besides expectiminimax, an algorithm is compared with the first of these that ran:
# the table with Star2 (Veness and Blair), ChanceProbCut (which runs with a table)
# with Star2 + TT (Schadd et al.); MCMS (which runs with a table) with Star2 + TT.
_BASES = {"star2_tt": ("star2",), "chanceprobcut": ("star2_tt", "star2"), "mcms": ("star2_tt",)}
_VERSUS = re.compile(r"^(\w+)@(\w+=\d+) vs (\w+)@(\w+=\d+)$")


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _standard_error(values: Sequence[float]) -> float | None:
    """Standard error of the mean (sample standard deviation / sqrt(n)), None below 2 values."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def _fmt(x: Any) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, str):
        return x
    if isinstance(x, int) or float(x).is_integer() and abs(x) >= 1000:
        return f"{int(x):,}"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def _csv_value(x: Any) -> str:
    if x is None:
        return ""
    if isinstance(x, float):
        return repr(round(x, 6))
    return str(x)


class NodeReport:
    """Aggregates the records of one folder per (case, algorithm)."""

    def __init__(
        self,
        preset: Preset | None,
        preset_name: str,
        records: Sequence[dict],
        cases: Sequence[str],
        algorithms: Sequence[str],
        command: str = "",
        sampled_reference: bool = False,
    ):
        self.preset = preset
        self.preset_name = preset_name
        self.cases = list(cases)
        self.algorithms = list(algorithms)
        # The reference ran on some trees only (--reference_trees): the others' means are
        # not cut down to its trees.
        self.sampled_reference = sampled_reference
        self.command = command
        self.by_key: dict[tuple[str, str], list[dict]] = defaultdict(list)
        for record in records:
            self.by_key[(record["case"], record["algorithm"])].append(record)
        self.published = dict(preset.published) if preset else {}
        self.measured = self._measure()

    # ------------------------------------------------------------- numbers

    def ok(self, case: str, algorithm: str) -> list[dict]:
        return [r for r in self.by_key.get((case, algorithm), []) if r.get("status") == "ok"]

    def common_positions(self, case: str) -> set[str]:
        """Positions every algorithm that finished anything in `case` finished (the means use
        only these, so a column is not averaged over other positions than its neighbours)."""
        sets = [
            {r["position"] for r in self.ok(case, a)}
            for a in self.algorithms
            if not (self.sampled_reference and a == REFERENCE)
        ]
        sets = [s for s in sets if s]
        return set.intersection(*sets) if sets else set()

    def _paired_ratio(self, case: str, algorithm: str, base: str, key: str) -> float | None:
        """sum(algorithm key) / sum(base key) over positions where both finished."""
        base_by_pos = {r["position"]: r for r in self.ok(case, base) if r.get(key) is not None}
        num = den = 0.0
        for r in self.ok(case, algorithm):
            b = base_by_pos.get(r["position"])
            if b is not None and r.get(key) is not None:
                num += r[key]
                den += b[key]
        return num / den if den > 0 else None

    def _measure(self) -> dict[tuple[str, str, str], Any]:
        m: dict[tuple[str, str, str], Any] = {}
        for case in self.cases:
            common = self.common_positions(case)
            for alg in self.algorithms:
                all_records = self.by_key.get((case, alg), [])
                if not all_records:
                    continue
                ok = self.ok(case, alg)
                m[(case, alg, "finished")] = len(ok)
                if common:
                    ok = [r for r in ok if r["position"] in common]
                m[(case, alg, "positions")] = len(ok)
                for key in _MEAN_KEYS:
                    values = [r[key] for r in ok if r.get(key) is not None]
                    if values:
                        m[(case, alg, key)] = _mean(values)
                full = [r["full_leaves"] for r in ok if r.get("full_leaves")]
                if full and (case, alg, "leaves") in m:
                    m[(case, alg, "leaves_pct")] = 100.0 * m[(case, alg, "leaves")] / _mean(full)
                    sem = _standard_error([r["leaves"] for r in ok])
                    if sem is not None:
                        m[(case, alg, "leaves_sem")] = sem
                if alg != REFERENCE:
                    ratio = self._paired_ratio(case, alg, REFERENCE, "nodes")
                    if ratio is not None:
                        m[(case, alg, "node_reduction_pct")] = 100.0 * (1.0 - ratio)
                    ratio = self._paired_ratio(case, alg, REFERENCE, "seconds")
                    if ratio is not None:
                        m[(case, alg, "time_vs_expectiminimax")] = ratio
                base = next((b for b in _BASES.get(alg, ()) if self.by_key.get((case, b))), None)
                if base is not None:
                    ratio = self._paired_ratio(case, alg, base, "nodes")
                    if ratio is not None:
                        m[(case, alg, f"node_reduction_vs_{base}_pct")] = 100.0 * (1.0 - ratio)
                    ratio = self._paired_ratio(case, alg, base, "seconds")
                    if ratio is not None:
                        m[(case, alg, f"time_reduction_vs_{base}_pct")] = 100.0 * (1.0 - ratio)
                if alg in INEXACT:
                    errors = [abs(r["value_error"]) for r in ok if r.get("value_error") is not None]
                    if errors:
                        m[(case, alg, "mean_abs_value_error")] = _mean(errors)
                        agree = [
                            bool(r.get("move_agrees"))
                            for r in ok
                            if r.get("value_error") is not None
                        ]
                        m[(case, alg, "move_agreement_pct")] = 100.0 * sum(agree) / len(agree)
                m[(case, alg, "mismatches")] = sum(1 for r in all_records if r.get("mismatch"))
                m[(case, alg, "errors")] = sum(1 for r in all_records if r.get("status") == "error")
                skipped = sum(1 for r in all_records if r.get("status") == "skipped")
                if skipped:
                    m[(case, alg, "skipped")] = skipped
        for versus in self.published:
            match = _VERSUS.match(versus[0])
            if match and versus[2] == "time_ratio":
                alg, at, base, base_at = match.groups()
                t, t_base = m.get((at, alg, "seconds")), m.get((base_at, base, "seconds"))
                if t is not None and t_base:
                    m[versus] = t / t_base
        return m

    @property
    def mismatches(self) -> int:
        return sum(1 for rs in self.by_key.values() for r in rs if r.get("mismatch"))

    @property
    def errors(self) -> int:
        return sum(1 for rs in self.by_key.values() for r in rs if r.get("status") == "error")

    def csv_rows(self) -> list[tuple]:
        keys = list(self.measured)
        keys += [
            k
            for k in self.published
            if k not in self.measured and k[0] in self.cases and self.by_key.get((k[0], k[1]))
        ]
        return [
            (
                self.preset_name,
                case,
                alg,
                metric,
                _csv_value(self.measured.get((case, alg, metric))),
                _csv_value(self.published.get((case, alg, metric))),
            )
            for case, alg, metric in keys
        ]

    # ------------------------------------------------------------- output

    def write(self, out: str, plots: bool = True) -> list[str]:
        """Writes summary.csv, summary.md and (if matplotlib is there) nodes.png; returns notes."""
        with open(os.path.join(out, SUMMARY_CSV), "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(CSV_COLUMNS)
            writer.writerows(self.csv_rows())
        notes = []
        if plots:
            notes.append(self.plot(os.path.join(out, PLOT_FILE)))
        with open(os.path.join(out, SUMMARY_MD), "w", encoding="utf-8") as handle:
            handle.write("\n".join(self.markdown(notes)) + "\n")
        return notes

    def _is_ballard(self) -> bool:
        return any(r.get("full_leaves") for rs in self.by_key.values() for r in rs)

    def _cell(self, case: str, alg: str, metric: str, reduction: bool, scale: float = 1.0) -> str:
        value = self.measured.get((case, alg, metric))
        if value is None:
            skipped = self.measured.get((case, alg, "skipped"))
            return f"skipped ({skipped})" if skipped else "-"
        text = _fmt(value * scale)
        if reduction and alg != REFERENCE:
            red = self.measured.get((case, alg, "node_reduction_pct"))
            if red is not None:
                text += f" ({-red:+.1f}%)"
        return text

    def _table(self, metric: str, reduction: bool, scale: float = 1.0) -> list[str]:
        algs = [
            a
            for a in self.algorithms
            if any((c, a, metric) in self.measured or self.by_key.get((c, a)) for c in self.cases)
        ]
        rows = [
            [case] + [self._cell(case, a, metric, reduction, scale) for a in algs]
            for case in self.cases
            if any(self.by_key.get((case, a)) for a in algs)
        ]
        return markdown_table(["case", *algs], rows).splitlines()

    def _ballard_table(self) -> list[str]:
        algs = [a for a in self.algorithms if a != REFERENCE]
        head = ["case", "trees"]
        for a in algs:
            head += [f"{a} leaves ± s.e. (% of all)", f"{a} published"]
        rows = []
        for case in self.cases:
            if not any(self.by_key.get((case, a)) for a in self.algorithms):
                continue
            # The trees behind the leaves columns (the reference may have searched fewer).
            counts = [self.measured.get((case, a, "positions")) for a in algs or [REFERENCE]]
            row = [case, _fmt(max((c for c in counts if c is not None), default=None))]
            for a in algs:
                leaves = self.measured.get((case, a, "leaves"))
                pct = self.measured.get((case, a, "leaves_pct"))
                sem = self.measured.get((case, a, "leaves_sem"))
                spread = f" ± {_fmt(sem)}" if sem is not None else ""
                row.append("-" if leaves is None else f"{_fmt(leaves)}{spread} ({pct:.1f})")
                p_leaves = self.published.get((case, a, "leaves"))
                p_pct = self.published.get((case, a, "leaves_pct"))
                if p_leaves is not None:
                    row.append(f"{_fmt(p_leaves)} ({p_pct})")
                else:
                    row.append("-" if p_pct is None else f"({p_pct})")
            rows.append(row)
        return markdown_table(head, rows).splitlines()

    def markdown(self, notes: Sequence[str] = ()) -> list[str]:
        title = self.preset.description if self.preset else "custom run"
        lines = [f"# Node reduction: {self.preset_name}", "", title, ""]
        if self.command:
            lines += ["Command:", "", "    " + self.command, ""]
        if self.preset:
            lines += [f"- {n}" for n in self.preset.notes] + [""]
        if self._is_ballard():
            lines += (
                ["## Leaves examined: measured vs published (mean over trees; % of all leaves)", ""]
                + self._ballard_table()
                + [""]
            )
        lines += [
            "## Mean nodes per search (change vs expectiminimax)",
            "",
            "Means over the positions that every algorithm with a result in that row "
            "finished (column `positions` of summary.csv); the change is over the "
            "positions both finished."
            + (
                f" {REFERENCE} searched only the first trees of each case "
                "(--reference_trees): its column and the changes are over those trees."
                if self.sampled_reference
                else ""
            ),
            "",
        ]
        lines += self._table("nodes", reduction=True) + [""]
        lines += ["## Mean milliseconds per search (wall clock, shared machine)", ""]
        lines += self._table("seconds", False, scale=1000.0) + [""]
        if any(k[2] == "probe_nodes" and v for k, v in self.measured.items()):
            lines += (
                ["## Mean probe nodes per search", ""] + self._table("probe_nodes", False) + [""]
            )
        extra = [
            k
            for k in self.measured
            if k[2].startswith(("node_reduction_vs_", "time_reduction_vs_"))
            or k[2] in ("mean_abs_value_error", "move_agreement_pct")
        ]
        if extra:
            lines += [
                "## Other comparisons",
                "",
                "Star2 + TT against Star2; ChanceProbCut (forward pruning) and MCMS (sampled "
                "chance nodes), neither exact, against Star2 + TT, with the root-value error "
                "and how often they pick expectiminimax's move.",
                "",
                markdown_table(
                    ["case", "algorithm", "metric", "measured"],
                    [[c, a, m, _fmt(self.measured[(c, a, m)])] for c, a, m in extra],
                ),
                "",
            ]
        compared = [
            (k, v)
            for k, v in self.published.items()
            if k in self.measured or self.by_key.get((k[0], k[1]))
        ]
        if compared:
            lines += [
                "## Published numbers side by side",
                "",
                markdown_table(
                    ["case", "algorithm", "metric", "measured", "published"],
                    [
                        [case, alg, metric, _fmt(self.measured.get((case, alg, metric))), _fmt(pub)]
                        for (case, alg, metric), pub in compared
                    ],
                ),
                "",
            ]
        lines += [
            "## Checks",
            "",
            f"- exact algorithms checked against expectiminimax's root value (1e-9): "
            f"{self.mismatches} mismatch(es)",
            f"- errors: {self.errors}",
        ]
        skipped = sum(v for k, v in self.measured.items() if k[2] == "skipped")
        if skipped:
            lines.append(
                f"- skipped searches: {skipped} (over the per-search time budget, or beyond "
                f"a preset's depth limit; the reason is in each record's 'note')"
            )
        lines += [f"- {n}" for n in notes if n]
        return lines

    def plot(self, path: str) -> str:
        """Log-scale nodes (Ballard: leaves) against depth (or N, D) per algorithm."""
        try:
            import matplotlib  # noqa: PLC0415 - optional extra

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt  # noqa: PLC0415
        except ImportError:
            return "nodes.png not written: matplotlib is not installed (pip install matplotlib)"
        ballard = self._is_ballard()
        metric = "leaves" if ballard else "nodes"
        series: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
        axis = "depth (decision plies)"
        for case in self.cases:
            parts = dict(p.split("=", 1) for p in case.split(",") if "=" in p)
            group = ",".join(p for p in case.split(",") if "=" not in p)
            if "D" in parts:
                x, axis = float(parts["D"]), "D (arc levels)"
                group = f"B={parts['B']} {group}"
            elif "N" in parts:
                x, axis = float(parts["N"]), "N (branching)"
            elif "depth" in parts:
                x = float(parts["depth"])
            elif "k" in parts:
                x, axis = float(parts["k"]), "probing factor k"
            else:
                continue
            for alg in self.algorithms:
                y = self.measured.get((case, alg, metric))
                if y:
                    series[(alg, group)].append((x, y))
        if not series:
            return "nodes.png not written: no finished searches"
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for (alg, group), points in sorted(series.items()):
            points.sort()
            ax.plot(
                [p[0] for p in points],
                [p[1] for p in points],
                marker="o",
                label=f"{alg} {group}".strip(),
            )
        ax.set_yscale("log")
        ax.set_xlabel(axis)
        ax.set_ylabel(f"mean {metric} per search (log)")
        ax.set_title(f"{self.preset_name}: {metric} per search")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2 if len(series) > 6 else 1)
        fig.tight_layout()
        fig.savefig(path, dpi=120)
        plt.close(fig)
        return ""
