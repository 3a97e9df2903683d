"""Learned value functions (MLPs and n-tuple networks) exact in both engines.

A model is one ``.npz`` file (docs/guide/learned.md): a JSON ``metadata`` entry and
integer arrays. Inference is integer arithmetic on quantised weights, so the Python
engine and the native one compute the same values bit for bit.

  * `file_format`: reading and writing the file; `checks`: what a valid model is.
  * `encodings`: a state's features from ``observation_tensor(0)``.
  * `inference`: the integer MLP and n-tuple forward passes; `heads`: values per player.
  * `model`: `LearnedModel`, `load_model`, `save_model`.
  * `quantise`: float networks -> file arrays, and their float forward passes.
  * `ntuple`: placements of tuples under a board's symmetries.
"""

from __future__ import annotations

from bots.learned.checks import ENCODINGS, FAMILIES, HEADS
from bots.learned.file_format import FORMAT
from bots.learned.model import LearnedModel, load_model, make_metadata, save_model
from bots.learned.ntuple import SYMMETRIES, ntuple_placements, pad_placements
from bots.learned.quantise import (
    float_mlp_outputs,
    float_ntuple_outputs,
    mlp_quantisation,
    quantise_mlp,
    quantise_ntuple,
)

__all__ = [
    "ENCODINGS",
    "FAMILIES",
    "FORMAT",
    "HEADS",
    "SYMMETRIES",
    "LearnedModel",
    "float_mlp_outputs",
    "float_ntuple_outputs",
    "load_model",
    "make_metadata",
    "mlp_quantisation",
    "ntuple_placements",
    "pad_placements",
    "quantise_mlp",
    "quantise_ntuple",
    "save_model",
]
