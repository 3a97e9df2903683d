"""What a valid model is: its metadata, its arrays, and the game it may evaluate.

Each check raises ValueError with a message that says what was found and what was
expected; `bots.learned.model` prefixes it with the file's name. Checking everything
once at load keeps inference free of checks (and the C++ twin may trust the arrays).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from bots.learned.file_format import FORMAT
from games import plain_name

FAMILIES = ("mlp", "ntuple")
# The family each encoding feeds: integer inputs for an MLP, cells for an n-tuple network.
ENCODINGS = {
    "observation": "mlp",
    "observation_mover": "mlp",  # the observation, then a one-hot of the mover (N inputs)
    "observation_hand": "mlp",  # observation_mover's, then the hand evaluator's values (N)
    "log2_cells": "ntuple",
    "plane_cells": "ntuple",
}
HEADS = ("zero_sum", "one_player", "win_shares")
MLP_SHIFTS = ("input_shift", "weight_shift", "activation_shift", "output_shift")
NTUPLE_KEYS = ("luts", "lut_offsets", "placements", "placement_tables")
# Parameters that change only what a finished game pays, not its moves, its observation
# or when it ends: a value function learned under one setting plays under another
# (a win/loss backgammon model in the full-scoring game of the gnubg yardstick).
PAYOFF_PARAMETERS = {"backgammon": ("scoring_type",)}
_REQUIRED = ("format", "game", "family", "encoding", "architecture", "quantisation", "head")


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _choice(metadata: dict[str, Any], key: str, accepted: tuple[str, ...]) -> str:
    value = metadata[key]
    if value not in accepted:
        raise ValueError(f"unknown {key} {value!r}; accepted: {', '.join(accepted)}")
    return str(value)


def check_metadata(metadata: dict[str, Any]) -> None:
    """The metadata's keys and values, independent of the arrays."""
    missing = [key for key in _REQUIRED if key not in metadata]
    if missing:
        raise ValueError(f"metadata lacks {', '.join(missing)} (it has {sorted(metadata)})")
    if metadata["format"] != FORMAT:
        raise ValueError(f"unknown format {metadata['format']!r}; accepted: {FORMAT!r}")
    if not isinstance(metadata["game"], str) or not metadata["game"]:
        raise ValueError(f"metadata 'game' must be a game string, got {metadata['game']!r}")
    family = _choice(metadata, "family", FAMILIES)
    encoding = _choice(metadata, "encoding", tuple(ENCODINGS))
    _choice(metadata, "head", HEADS)
    if ENCODINGS[encoding] != family:
        raise ValueError(
            f"encoding {encoding!r} feeds the {ENCODINGS[encoding]!r} family, not {family!r}"
        )
    args = metadata.get("encoding_args", {})
    if not isinstance(args, dict):
        raise ValueError(f"encoding_args must be a JSON object, got {args!r}")
    if encoding == "plane_cells":
        if not _integer(args.get("planes")) or args["planes"] < 1:
            raise ValueError(f"plane_cells needs encoding_args {{'planes': P >= 1}}, got {args}")
    elif args:
        raise ValueError(f"encoding {encoding!r} takes no encoding_args, got {args}")
    for key in ("architecture", "quantisation"):
        if not isinstance(metadata[key], dict):
            raise ValueError(f"metadata {key!r} must be a JSON object, got {metadata[key]!r}")
    quantisation = metadata["quantisation"]
    shifts = MLP_SHIFTS if family == "mlp" else ("output_shift",)
    for key in shifts:
        value = quantisation.get(key)
        if not _integer(value) or abs(value) > 62 or (key != "output_shift" and value < 0):
            raise ValueError(
                f"quantisation {key} must be an integer (0..62; output_shift -62..62), "
                f"got {value!r} in {quantisation}"
            )
    architecture = metadata["architecture"]
    if family == "mlp":
        hidden = architecture.get("hidden")
        if not isinstance(hidden, list) or not all(_integer(n) and n > 0 for n in hidden):
            raise ValueError(f"mlp architecture needs 'hidden': [sizes > 0], got {architecture}")
        drop = quantisation["input_shift"] + quantisation["weight_shift"]
        if hidden and quantisation["activation_shift"] > min(drop, 30):
            raise ValueError(
                f"quantisation activation_shift must be at most input_shift + weight_shift "
                f"and 30, got {quantisation}"
            )
    else:
        values = architecture.get("values")
        if not _integer(values) or not 2 <= values <= 256:
            raise ValueError(f"ntuple architecture needs 'values' in 2..256, got {architecture}")


def _array(arrays: dict[str, np.ndarray], key: str, dtype: type, ndim: int) -> np.ndarray:
    array = arrays[key]
    if array.dtype != np.dtype(dtype) or array.ndim != ndim:
        raise ValueError(
            f"array {key!r} must be {np.dtype(dtype)} with {ndim} dimension(s), "
            f"got {array.dtype} with shape {array.shape}"
        )
    return array


def _exact_keys(arrays: dict[str, np.ndarray], expected: list[str], what: str) -> None:
    missing = [key for key in expected if key not in arrays]
    extra = sorted(set(arrays) - set(expected))
    if missing or extra:
        raise ValueError(
            f"{what} has the arrays {', '.join(expected)}; "
            + (f"missing {', '.join(missing)}" if missing else "")
            + ("; " if missing and extra else "")
            + (f"unexpected {', '.join(extra)}" if extra else "")
        )


def mlp_layers(metadata: dict[str, Any]) -> int:
    """Layers with weights: the hidden ones and the output layer."""
    return len(metadata["architecture"]["hidden"]) + 1


def check_arrays(metadata: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    """The arrays' names, dtypes and shapes against the (checked) metadata."""
    if metadata["family"] == "mlp":
        _check_mlp(metadata, arrays)
    else:
        _check_ntuple(metadata, arrays)
    outputs = output_count(metadata, arrays)
    if metadata["head"] == "win_shares" and outputs < 2:
        raise ValueError(f"head 'win_shares' needs one output per player, the model has {outputs}")
    if metadata["head"] != "win_shares" and outputs != 1:
        raise ValueError(f"head {metadata['head']!r} needs one output, the model has {outputs}")


def _check_mlp(metadata: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    layers = mlp_layers(metadata)
    names = [f"{kind}{layer}" for layer in range(layers) for kind in ("w", "b")]
    _exact_keys(arrays, names, f"an mlp with hidden {metadata['architecture']['hidden']}")
    hidden = metadata["architecture"]["hidden"]
    width = None
    for layer in range(layers):
        w = _array(arrays, f"w{layer}", np.int16, 2)
        b = _array(arrays, f"b{layer}", np.int64, 1)
        if width is not None and w.shape[0] != width:
            raise ValueError(f"array 'w{layer}' has {w.shape[0]} inputs, layer {layer - 1} {width}")
        if b.shape[0] != w.shape[1] or (layer < len(hidden) and w.shape[1] != hidden[layer]):
            raise ValueError(
                f"layer {layer}: w{layer} {w.shape} and b{layer} {b.shape} do not match "
                f"hidden {hidden}"
            )
        width = w.shape[1]
    if arrays["w0"].shape[0] < 1:
        raise ValueError("array 'w0' has no inputs")


def table_sizes(arrays: dict[str, np.ndarray]) -> np.ndarray:
    """Entries of each n-tuple table."""
    return np.diff(arrays["lut_offsets"])


def placement_lengths(placements: np.ndarray) -> np.ndarray:
    """Cells of each placement (rows are padded with -1)."""
    return np.count_nonzero(placements >= 0, axis=1)


def _check_ntuple(metadata: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    _exact_keys(arrays, list(NTUPLE_KEYS), "an ntuple network")
    luts = _array(arrays, "luts", np.int32, 1)
    offsets = _array(arrays, "lut_offsets", np.int64, 1)
    placements = _array(arrays, "placements", np.int32, 2)
    tables = _array(arrays, "placement_tables", np.int32, 1)
    if offsets.shape[0] < 2 or offsets[0] != 0 or offsets[-1] != luts.shape[0]:
        raise ValueError(
            f"lut_offsets must run from 0 to len(luts) = {luts.shape[0]} with one more "
            f"entry than tables, got {offsets[:3]}...{offsets[-1:]} ({offsets.shape[0]} entries)"
        )
    if np.any(np.diff(offsets) < 1):
        raise ValueError("lut_offsets must increase (every table has entries)")
    if placements.shape[0] < 1 or placements.shape[1] < 1 or tables.shape != placements.shape[:1]:
        raise ValueError(
            f"placements (P, kmax) and placement_tables (P,) must agree, got "
            f"{placements.shape} and {tables.shape}"
        )
    lengths = placement_lengths(placements)
    padded = np.arange(placements.shape[1])[None, :] >= lengths[:, None]
    if np.any(placements[~padded] < 0) or np.any(placements[padded] != -1) or np.any(lengths < 1):
        raise ValueError("each placement lists its cells (>= 0) first, then -1 padding only")
    count = offsets.shape[0] - 1
    if np.any(tables < 0) or np.any(tables >= count):
        raise ValueError(f"placement_tables must name tables 0..{count - 1}")
    values = metadata["architecture"]["values"]
    sizes = table_sizes(arrays)
    for p, (table, k) in enumerate(zip(tables.tolist(), lengths.tolist())):
        if int(sizes[table]) != values**k:
            raise ValueError(
                f"placement {p} reads {k} cells of {values} values, so table {table} needs "
                f"{values}**{k} = {values**k} entries, it has {int(sizes[table])}"
            )


def output_count(metadata: dict[str, Any], arrays: dict[str, np.ndarray]) -> int:
    """How many numbers the network outputs."""
    if metadata["family"] == "mlp":
        return int(arrays[f"w{mlp_layers(metadata) - 1}"].shape[1])
    return 1


def input_count(metadata: dict[str, Any], arrays: dict[str, np.ndarray]) -> int | None:
    """The observation entries an MLP reads; None for n-tuple networks."""
    return int(arrays["w0"].shape[0]) if metadata["family"] == "mlp" else None


def _without(parameters: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in parameters.items() if k not in names}


def check_game(metadata: dict[str, Any], arrays: dict[str, np.ndarray], game: pyspiel.Game) -> None:
    """The model was trained on this game (same short name and parameters, up to
    PAYOFF_PARAMETERS), reads its observation tensor's size, and its head fits the game's
    players and utilities."""
    try:
        trained = pyspiel.load_game(metadata["game"])
    except pyspiel.SpielError as error:
        raise ValueError(
            f"holds a model of {metadata['game']!r}, which pyspiel cannot load ({error}); "
            f"expected a model of {str(game)!r}"
        ) from None
    if plain_name(trained.get_type().short_name) != plain_name(game.get_type().short_name):
        raise ValueError(
            f"holds a model of {trained.get_type().short_name!r}, not of "
            f"{game.get_type().short_name!r}"
        )
    payoff = PAYOFF_PARAMETERS.get(plain_name(game.get_type().short_name), ())
    if _without(trained.get_parameters(), payoff) != _without(game.get_parameters(), payoff):
        raise ValueError(f"holds a model of {str(trained)!r}, not of {str(game)!r}")
    size = int(np.prod(game.observation_tensor_shape()))
    inputs = input_count(metadata, arrays)
    if metadata["encoding"] == "observation_mover":
        players = game.num_players()
        if inputs != size + players:
            raise ValueError(
                f"the mlp reads {inputs} inputs, {game}'s observation tensor has {size} and "
                f"observation_mover adds {players} (one per player)"
            )
    elif metadata["encoding"] == "observation_hand":
        players = game.num_players()
        if inputs != size + 2 * players:
            raise ValueError(
                f"the mlp reads {inputs} inputs, {game}'s observation tensor has {size} and "
                f"observation_hand adds {2 * players} (a one-hot of the mover and a hand "
                f"value per player)"
            )
    elif inputs is not None and inputs != size:
        raise ValueError(f"the mlp reads {inputs} inputs, {game}'s observation tensor has {size}")
    if metadata["family"] == "ntuple":
        cells = size
        if metadata["encoding"] == "plane_cells":
            planes = metadata["encoding_args"]["planes"]
            if size % planes:
                raise ValueError(f"{game}'s observation tensor ({size}) is not {planes} planes")
            cells = size // planes
        if int(arrays["placements"].max()) >= cells:
            raise ValueError(f"placements name cells beyond the board's {cells}")
    _check_head(metadata["head"], output_count(metadata, arrays), game)


def _check_head(head: str, outputs: int, game: pyspiel.Game) -> None:
    players = game.num_players()
    utility = game.get_type().utility
    if head == "zero_sum" and (players != 2 or utility != pyspiel.GameType.Utility.ZERO_SUM):
        raise ValueError(f"head 'zero_sum' needs a two-player zero-sum game, not {game}")
    if head == "one_player" and players != 1:
        raise ValueError(f"head 'one_player' needs a one-player game, {game} has {players}")
    if head == "win_shares":
        if outputs != players:
            raise ValueError(f"head 'win_shares' has {outputs} outputs, {game} has {players}")
        lo, hi = game.min_utility(), game.max_utility()
        try:
            total = game.utility_sum()
        except pyspiel.SpielError:
            total = None
        loser = None if total is None or players < 2 else (total - hi) / (players - 1)
        if loser is None or not lo <= loser <= hi:
            raise ValueError(
                f"head 'win_shares' needs a constant-sum game of two or more players whose "
                f"losers' return (utility_sum - max) / (N - 1) lies within the utilities, "
                f"which {game} is not"
            )
