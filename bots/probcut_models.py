"""ChanceProbCut's models: what a shallow search predicts about the deep value.

Schadd et al. (2009) map the value of a shallow search (depth reduced by R)
through a calibrated linear model to probable bounds on the deep value. The
models come from calibration files (bots/calibration.py); the searches that
feed them stay in the recursion (bots/search.py).
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class ProbCutModel:
    """v_deep ~ a * v_shallow + b with residual sigma, for one remaining depth.

    The optional mover-relative fit (``mover``: a, b, sigma on values seen by
    the side to move at the outcome) separates the two bands a fixed-view fit
    mixes in two-player games, where shallow and deep searches end on different
    players' moves. From the searching player's view it predicts
    ``a * v + s * b`` with s = +1 when the searching player moves, -1 otherwise.
    """

    a: float
    b: float
    sigma: float
    mover: tuple[float, float, float] | None = None

    def probable_range(
        self, shallow: float, mover: int, player: int, t: float
    ) -> tuple[float, float]:
        """The deep value's probable range, ``t`` sigmas either side of the prediction
        from a shallow value at an outcome where ``mover`` moves (< 0: nobody)."""
        if self.mover is not None and mover >= 0:
            slope, intercept, sigma = self.mover
            sign = 1.0 if mover == player else -1.0
            predicted = slope * shallow + sign * intercept
        else:
            predicted, sigma = self.a * shallow + self.b, self.sigma
        margin = t * sigma
        return predicted - margin, predicted + margin


class ProbCutSettings:
    """Calibrated models by remaining depth for one (game, R)."""

    def __init__(self, reduction: int, t: float, models: dict[int, ProbCutModel]):
        if reduction < 1:
            raise ValueError(f"ChanceProbCut reduction R must be >= 1, got {reduction}")
        if not t > 0:
            raise ValueError(f"ChanceProbCut confidence t must be > 0, got {t}")
        if not models:
            raise ValueError("ChanceProbCut needs at least one calibrated depth")
        self.reduction = int(reduction)
        self.t = float(t)
        self.models = dict(models)
        self._depths = sorted(self.models)

    def model_for(self, depth: int) -> ProbCutModel:
        """The model for this remaining depth, else the nearest calibrated one."""
        model = self.models.get(depth)
        if model is None:
            nearest = min(self._depths, key=lambda d: (abs(d - depth), -d))
            model = self.models[nearest]
        return model

    def native_models(self) -> dict[int, list[float]]:
        """The models as the native engine reads them: [a, b, sigma, *mover] by depth."""
        return {
            depth: [model.a, model.b, model.sigma, *(model.mover or ())]
            for depth, model in self.models.items()
        }
