"""The float models the trainer learns: an MLP (the spec's "float twin") and an n-tuple network.

Both predict one number, `out`, for player 0 (the spec's `zero_sum` and `one_player` heads).
Training runs in float64; the quantised model that both engines play is made from these
weights at export (experiments/learn/export.py). A model's parameters are a list of numpy
arrays (`params()`), updated in place, so the checkpoint and the TD update need no
knowledge of the family.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pyspiel

from bots.evaluators.api import game_value_bounds
from bots.learned import SYMMETRIES, float_mlp_outputs, ntuple_placements
from bots.learned.encodings import hand_evaluator
from bots.spec import parse_spec

# The spec's integer-inference shifts (docs: learned_spec "Integer inference").
INPUT_SHIFT, WEIGHT_SHIFT, ACTIVATION_SHIFT = 6, 8, 7

FAMILIES = ("mlp", "ntuple")
# observation_hand: observation_mover's inputs, then the game's hand evaluator's values (the
# network learns a correction of the heuristic, as TD-Gammon's expert features).
MLP_ENCODINGS = ("observation", "observation_mover", "observation_hand")
TUPLE_SETS = ("lines", "squares", "lines_squares", "rectangles")


class ModelSpecError(ValueError):
    """A --model spec that cannot describe a model for the game; the message says why."""


@dataclasses.dataclass(frozen=True)
class ModelSpec:
    """A parsed --model string: family, architecture and encoding, with defaults filled in."""

    family: str
    encoding: str
    hidden: tuple[int, ...] = ()
    output_scale_log2: int = 0  # s: the MLP's output is y * 2**s
    tuple_set: str = ""
    symmetries: str = "none"
    values: int = 0  # n-tuple: cell values 0..values-1
    output_shift: int = 0  # n-tuple: lut_q = rint(lut * 2**output_shift)
    encoding_args: tuple[tuple[str, int], ...] = ()

    def text(self) -> str:
        """The canonical spec string (written to the metadata and the config)."""
        if self.family == "mlp":
            hidden = "-".join(str(h) for h in self.hidden)
            return f"mlp(hidden={hidden},scale={self.output_scale_log2},encoding={self.encoding})"
        return (
            f"ntuple(tuples={self.tuple_set},symmetries={self.symmetries},values={self.values},"
            f"output_shift={self.output_shift})"
        )


def default_model_spec(game: pyspiel.Game) -> str:
    """The architecture of a game's shipped model (issue 79): see docs/guide/learned.md."""
    name = game.get_type().short_name.removeprefix("python_")
    if name == "2048":
        # Szubert and Jaskowski's 97% network; 12 values (up to the 2048 tile, larger tiles
        # read as 2048) and output_shift=1 keep the file within the 10 MB budget.
        return "ntuple(tuples=rectangles,symmetries=dihedral,values=12,output_shift=1)"
    if name == "pig":
        return "mlp(hidden=40)"
    if name == "cant_stop":
        # Over raw observations an MLP loses to the hand evaluator under search (star2
        # depth 2: 0.30); with its values as inputs it ties it (0.52): docs/results/learned.md.
        return "mlp(hidden=80,encoding=observation_hand)"
    # backgammon, cant_stop, einstein_wurfelt_nicht (an MLP over its one-hot planes sees the
    # global cube counts that decide which cube a die moves; short n-tuples do not) and any
    # other game with an observation tensor.
    return "mlp(hidden=80)"


def head_of(game: pyspiel.Game) -> str:
    """`zero_sum` for two-player zero-sum games, `one_player` for one-player games."""
    game_type = game.get_type()
    if game.num_players() == 1:
        return "one_player"
    if game.num_players() == 2 and game_type.utility in (
        pyspiel.GameType.Utility.ZERO_SUM,
        pyspiel.GameType.Utility.CONSTANT_SUM,
    ):
        return "zero_sum"
    raise ModelSpecError(
        f"cannot train on '{game}': the trainer learns one-player games and two-player "
        f"zero-sum games ({game.num_players()} players, {game_type.utility.name} utility)"
    )


def check_observation(game: pyspiel.Game) -> list[int]:
    """The observation tensor's shape, or a ModelSpecError naming the game."""
    if not game.get_type().provides_observation_tensor:
        raise ModelSpecError(
            f"game '{game}' has no observation tensor, and every encoding of a learned model "
            "is derived from observation_tensor(0); pick a game that provides one"
        )
    return list(game.observation_tensor_shape())


def _scale_log2(game: pyspiel.Game) -> int:
    """s with values up to about 4 * 2**s: 0 for win/loss games, ~17 for 2048's score."""
    low, high = game_value_bounds(game)
    size = max(abs(low), abs(high), 1.0)
    return 0 if size <= 4 else math.ceil(math.log2(size / 4))


def parse_model_spec(text: str, game: pyspiel.Game) -> ModelSpec:
    """'mlp(hidden=40-40)' or 'ntuple(tuples=lines_squares,symmetries=dihedral)' for `game`."""
    try:
        family, params = parse_spec(text)
    except ValueError as error:
        raise ModelSpecError(f"--model: {error}") from None
    shape = check_observation(game)
    if family == "mlp":
        return _mlp_spec(text, params, game)
    if family == "ntuple":
        return _ntuple_spec(text, params, game, shape)
    raise ModelSpecError(
        f"--model: unknown family {family!r} in {text!r}; accepted: 'mlp(hidden=80)', "
        "'mlp(hidden=40-40,scale=0)', 'ntuple(tuples=lines_squares,symmetries=dihedral)'"
    )


def _check_keys(text: str, params: dict[str, Any], accepted: tuple[str, ...]) -> None:
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        raise ModelSpecError(
            f"--model: unknown parameter(s) {', '.join(unknown)} in {text!r}; "
            f"accepted: {', '.join(accepted)}"
        )


def _mlp_spec(text: str, params: dict[str, Any], game: pyspiel.Game) -> ModelSpec:
    _check_keys(text, params, ("hidden", "scale", "encoding"))
    raw = str(params.get("hidden", 80))
    try:
        hidden = tuple(int(h) for h in raw.split("-"))
    except ValueError:
        hidden = ()
    if not hidden or min(hidden) < 1:
        raise ModelSpecError(
            f"--model: hidden={raw!r} in {text!r} is not a list of layer sizes; "
            "write e.g. hidden=80 or hidden=40-40 (one or more layers of at least one unit)"
        )
    scale = params.get("scale", _scale_log2(game))
    if not isinstance(scale, int) or not 0 <= scale <= 30:
        raise ModelSpecError(f"--model: scale={scale!r} in {text!r} must be an integer in 0..30")
    # Two players: the observation need not say who moved last (backgammon's afterstates,
    # pig, EinStein), so the default appends a one-hot of the mover.
    default = "observation_mover" if game.num_players() == 2 else "observation"
    encoding = params.get("encoding", default)
    if encoding not in MLP_ENCODINGS:
        raise ModelSpecError(
            f"--model: encoding={encoding!r} in {text!r}; accepted: {', '.join(MLP_ENCODINGS)}"
        )
    if encoding == "observation_hand":
        try:
            hand_evaluator(game)
        except ValueError as error:
            raise ModelSpecError(f"--model: {text!r}: {error}") from None
    return ModelSpec("mlp", encoding, hidden=hidden, output_scale_log2=scale)


def _ntuple_spec(
    text: str, params: dict[str, Any], game: pyspiel.Game, shape: list[int]
) -> ModelSpec:
    _check_keys(text, params, ("tuples", "symmetries", "values", "output_shift", "planes"))
    tuple_set = params.get("tuples", "lines_squares")
    symmetries = params.get("symmetries") or "none"  # 'none' parses as None
    if tuple_set not in TUPLE_SETS:
        raise ModelSpecError(
            f"--model: tuples={tuple_set!r} in {text!r}; accepted: {', '.join(TUPLE_SETS)}"
        )
    if symmetries not in SYMMETRIES:
        raise ModelSpecError(
            f"--model: symmetries={symmetries!r} in {text!r}; accepted: {', '.join(SYMMETRIES)}"
        )
    planes = params.get("planes")
    cells = int(np.prod(shape)) if planes is None else int(np.prod(shape)) // int(planes)
    side = math.isqrt(cells)
    if side * side != cells or side < 2:
        raise ModelSpecError(
            f"--model: n-tuples need a square board; '{game}' has an observation of shape "
            f"{shape} ({cells} cells{'' if planes is None else f' in {planes} planes'})"
        )
    args: tuple[tuple[str, int], ...] = ()
    if planes is None:
        encoding = "log2_cells"
        default_values = 1 + int(math.log2(max(2, game.get_parameters().get("max_tile", 2048))))
    else:
        encoding, args = "plane_cells", (("planes", int(planes)),)
        default_values = int(planes) + 1
    values = params.get("values", default_values)
    if not isinstance(values, int) or values < 2:
        raise ModelSpecError(f"--model: values={values!r} in {text!r} must be an integer >= 2")
    low, high = game_value_bounds(game)
    default_shift = max(0, 24 - math.ceil(math.log2(max(abs(low), abs(high), 1.0))))
    output_shift = params.get("output_shift", default_shift)
    if not isinstance(output_shift, int) or not 0 <= output_shift <= 30:
        raise ModelSpecError(f"--model: output_shift={output_shift!r} must be in 0..30")
    return ModelSpec(
        "ntuple",
        encoding,
        tuple_set=tuple_set,
        symmetries=symmetries,
        values=values,
        output_shift=output_shift,
        encoding_args=args,
    )


# ---------------------------------------------------------------------------------------
# MLP: h = clip(x @ W + b, 0, 1) per hidden layer, out = (h @ W_H + b_H) * 2**s.


class FloatMLP:
    """The spec's float twin of the integer MLP, with its gradient for TD."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], output_scale_log2: int):
        self.layers = [(np.asarray(w, np.float64), np.asarray(b, np.float64)) for w, b in layers]
        self.scale = float(2.0**output_scale_log2)
        self.output_scale_log2 = output_scale_log2

    @classmethod
    def initial(cls, n_in: int, spec: ModelSpec, rng: np.random.Generator) -> FloatMLP:
        """Weights that start every hidden unit inside (0, 1), where its gradient flows."""
        layers = []
        sizes = [n_in, *spec.hidden]
        for a, b in zip(sizes[:-1], sizes[1:], strict=True):
            layers.append((rng.normal(0.0, 0.5 / math.sqrt(a), (a, b)), np.full(b, 0.5)))
        last = sizes[-1]
        layers.append((rng.normal(0.0, 0.1 / math.sqrt(last), (last, 1)), np.zeros(1)))
        return cls(layers, spec.output_scale_log2)

    def params(self) -> list[np.ndarray]:
        return [a for layer in self.layers for a in layer]

    def set_params(self, arrays: list[np.ndarray]) -> None:
        it = iter(arrays)
        self.layers = [
            (np.array(next(it), np.float64), np.array(next(it), np.float64)) for _ in self.layers
        ]

    def outputs(self, x: np.ndarray) -> np.ndarray:
        """`out` of each row of x (n, n_in) -> (n,): bots.learned's float twin."""
        return float_mlp_outputs(self.layers, x, self.output_scale_log2)[:, 0]

    def output_and_gradient(self, x: np.ndarray) -> tuple[float, list[np.ndarray]]:
        """`out` of one input and d out / d params, in params() order."""
        hs = [np.asarray(x, np.float64)]
        masks = []
        for w, b in self.layers[:-1]:
            pre = hs[-1] @ w + b
            masks.append((pre > 0.0) & (pre < 1.0))
            hs.append(np.clip(pre, 0.0, 1.0))
        w_out, b_out = self.layers[-1]
        out = float(hs[-1] @ w_out[:, 0] + b_out[0]) * self.scale
        grads: list[np.ndarray] = [hs[-1][:, None] * self.scale, np.full(1, self.scale)]
        delta = w_out[:, 0] * self.scale
        for index in range(len(self.layers) - 2, -1, -1):
            delta = delta * masks[index]
            grads = [np.outer(hs[index], delta), delta.copy(), *grads]
            if index:
                delta = self.layers[index][0] @ delta
        return out, grads


# ---------------------------------------------------------------------------------------
# n-tuple networks over the cells of a square board.


def named_tuples(name: str, side: int) -> list[list[int]]:
    """Rows and columns ("lines"), all 2x2 squares ("squares"), or both, on a side x side
    board; or "rectangles", Szubert and Jaskowski's (2014) network for 2048: the first two
    rows and the 2x3 rectangles on them and on the next two (with dihedral symmetries, the
    network of their 97% player)."""
    lines = [[r * side + c for c in range(side)] for r in range(side)]
    lines += [[r * side + c for r in range(side)] for c in range(side)]
    squares = [
        [r * side + c, r * side + c + 1, (r + 1) * side + c, (r + 1) * side + c + 1]
        for r in range(side - 1)
        for c in range(side - 1)
    ]
    if name == "rectangles":
        rectangles = [[r * side + c for r in (top, top + 1) for c in range(3)] for top in (0, 1)]
        return lines[:2] + rectangles
    return {"lines": lines, "squares": squares, "lines_squares": lines + squares}[name]


def placements_of(
    tuples: list[list[int]], side: int, symmetries: str
) -> tuple[list[list[int]], np.ndarray, np.ndarray]:
    """(tuples with their own table, placements, the table of each placement).

    A tuple that is an image of an earlier one under the symmetries gets no table of its
    own (with dihedral symmetries the rows and columns of 2048 are two tables, not eight).
    """
    tables: list[list[int]] = []
    covered: set[frozenset[int]] = set()  # the cell sets that placements already read
    for cells in tuples:
        if frozenset(cells) in covered:
            continue
        tables.append(list(cells))
        images, _ = ntuple_placements([cells], symmetries, side)
        covered.update(frozenset(int(c) for c in row if c >= 0) for row in images)
    placements, owners = ntuple_placements(tables, symmetries, side)
    return tables, placements, owners


class FloatNTuple:
    """Float tables of an n-tuple network: out = sum over placements of lut[t_p][index_p]."""

    def __init__(
        self,
        tables: list[list[int]],
        placements: np.ndarray,
        placement_tables: np.ndarray,
        values: int,
        cells: int,
        luts: np.ndarray | None = None,
    ):
        """`placements` (P, kmax) padded with -1 and `placement_tables` (P,): the file's."""
        self.tables, self.values, self.cells = tables, values, cells
        self.placements, self.placement_tables = placements, placement_tables
        rows = [[int(c) for c in row if c >= 0] for row in placements]
        sizes = [values ** len(t) for t in tables]
        self.lut_offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self.luts = (
            np.zeros(int(self.lut_offsets[-1])) if luts is None else np.asarray(luts, np.float64)
        )
        # Placements grouped by length: cell indices, place values and table offsets.
        self._groups: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        for k in sorted({len(p) for p in rows}):
            members = [i for i, p in enumerate(rows) if len(p) == k]
            where = np.array([rows[i] for i in members], np.int64)
            powers = values ** np.arange(k - 1, -1, -1, dtype=np.int64)
            base = self.lut_offsets[[int(placement_tables[i]) for i in members]]
            self._groups.append((where, powers, base))

    @classmethod
    def from_spec(cls, spec: ModelSpec, cells: int) -> FloatNTuple:
        side = math.isqrt(cells)
        tables, placements, owners = placements_of(
            named_tuples(spec.tuple_set, side), side, spec.symmetries
        )
        return cls(tables, placements, owners, spec.values, cells)

    def params(self) -> list[np.ndarray]:
        return [self.luts]

    def set_params(self, arrays: list[np.ndarray]) -> None:
        self.luts = np.array(arrays[0], np.float64)

    def indices(self, c: np.ndarray) -> np.ndarray:
        """Flat table indices (n, P) read for each row of cell values c (n, cells)."""
        c = np.asarray(c, np.int64)
        parts = [(c[:, cells] * powers).sum(axis=2) + base for cells, powers, base in self._groups]
        return np.concatenate(parts, axis=1)

    def outputs(self, c: np.ndarray) -> np.ndarray:
        return self.luts[self.indices(c)].sum(axis=1)


FloatModel = FloatMLP | FloatNTuple


def new_model(spec: ModelSpec, n_features: int, rng: np.random.Generator) -> FloatModel:
    if spec.family == "mlp":
        return FloatMLP.initial(n_features, spec, rng)
    return FloatNTuple.from_spec(spec, n_features)
