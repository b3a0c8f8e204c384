"""The generalised SPRT on pentanomial pair counts, as fishtest and fastchess compute it
(``docs/statistics.md`` "SPRT (early stop)").

Pure functions: ``parse`` (the ``--sprt`` text), ``llr`` (log-likelihood ratio of H1
``elo = elo1`` against H0 ``elo = elo0``), ``bounds`` (Wald's ``ln(β/(1−α))``,
``ln((1−β)/α)``), ``verdict``; and ``SprtTally``, which feeds pairs to them **in pair order**
(series 0, 1, 2, ... of the match; a pair counts once both its games are stored and every
earlier pair is complete), so a match resumed or re-run in any finishing order reaches the same
verdict at the same pair.

The LLR (Michel Van den Bergh, "Comments on Normalized Elo",
https://www.cantate.be/Fishtest/normalized_elo_practical.pdf; fastchess
``src/matchmaking/sprt/sprt.cpp``): the pentanomial frequencies ``p̂`` (a zero count replaced
by 1e-3, as fastchess does) over pair scores ``a = 0, ¼, ½, ¾, 1``; under each hypothesis the
maximum-likelihood distribution ``p`` with the hypothesis' constraint, and
``LLR = N·Σ p̂ᵢ·ln(p1ᵢ/p0ᵢ)`` (N the regularised pair count).

- ``logistic``: the constraint is the expected score ``s = 1/(1 + 10^(−elo/400))``; then
  ``pᵢ = p̂ᵢ/(1 + θ(aᵢ − s))`` with θ the root of ``Σ p̂ᵢ(aᵢ − s)/(1 + θ(aᵢ − s)) = 0``
  (proposition 1.1 and eq. 1.2–1.3 of the paper).
- ``normalized``: the constraint is ``(μ − ½)/σ = t`` with ``t = √2·nelo/(800/ln 10)`` for
  pairs (section 4.1, iterated to a fixed point).
- ``bayesian`` (fastchess's ``model=bayesian``): the hypotheses are BayesElo differences
  (Coulom's bayeselo model with a draw parameter), tested on the **games** W, D, L of the
  counted pairs (the trinomial, as fastchess, which offers this model without pentanomial
  statistics). The draw parameter is estimated from the sample,
  ``drawelo = 200·log10((1 − l)/l · (1 − w)/w)`` (w, l: the regularised win and loss
  frequencies); a BayesElo ``e`` gives ``P(win) = 1/(1 + 10^((drawelo − e)/400))``,
  ``P(loss) = 1/(1 + 10^((drawelo + e)/400))`` and the expected score ``P(win) + ½·P(draw)``,
  which is the constraint of the logistic GSPRT above on scores ``0, ½, 1``. The LLR is 0
  while no game was won or none lost (no draw parameter to estimate).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum

import numpy as np

from arena.errors import ConfigError
from arena.stats.elo import NELO_SCALE, match_stats
# the constrained maximum-likelihood fits live in ``sprt_mle``; their constants are read here too
from arena.stats.sprt_mle import ELO_CLIP as ELO_CLIP, P_FLOOR as P_FLOOR, REGULARIZE as REGULARIZE
from arena.stats.sprt_mle import SCORE_EPS as SCORE_EPS, bayeselo_score as bayeselo_score, clip_elo
from arena.stats.sprt_mle import drawelo as drawelo, hypothesis_score as hypothesis_score, mle_normalized, mle_score


class SprtModel(StrEnum):
    """The Elo model of an SPRT's hypotheses (``--sprt ...,model=NAME``)."""

    #: H0/H1 constrain the expected pair score ``s = 1/(1 + 10^(−elo/400))`` (fishtest's and
    #: fastchess's default).
    LOGISTIC = "logistic"
    #: H0/H1 constrain the normalized Elo ``(μ − ½)/σ`` of a pair (Van den Bergh, section 4.1).
    NORMALIZED = "normalized"
    #: H0/H1 are BayesElo differences with a draw parameter estimated from the games, tested on
    #: the games' W-D-L (fastchess's ``bayesian``).
    BAYESIAN = "bayesian"


#: The accepted model names, in the order error messages list them.
MODELS = tuple(m.value for m in SprtModel)
PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
GAME_SCORES = np.array([0.0, 0.5, 1.0])
@dataclass(frozen=True)
class SprtSpec:
    """``--sprt`` settings: the Elo of H0 and H1 (``elo0 < elo1``), error rates α (false H1)
    and β (false H0), both in (0, 1) with α + β < 1, and the Elo model."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: SprtModel = SprtModel.LOGISTIC

    def __post_init__(self) -> None:
        """Accept the model's name too (``SprtSpec(**stored)``).

        Raises:
            ValueError: an unknown model name.
        """
        object.__setattr__(self, "model", SprtModel(self.model))

    def text(self) -> str:
        """The canonical ``--sprt`` text (stored with the settings)."""
        return (f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},beta={self.beta:g},"
                f"model={self.model}")


def parse(text: str) -> SprtSpec:
    """``elo0=E0,elo1=E1[,alpha=0.05][,beta=0.05][,model=logistic|normalized|bayesian]`` as a
    spec.

    Raises:
        ConfigError: a missing or unknown key, a bad number, ``elo0 >= elo1``, α or β outside
            (0, 1), α + β >= 1, or an unknown model (one line naming what is accepted).
    """
    usage = f"expected elo0=E0,elo1=E1[,alpha=0.05][,beta=0.05][,model={'|'.join(MODELS)}]"
    values: dict[str, str] = {}
    for item in str(text).split(","):
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq or key not in ("elo0", "elo1", "alpha", "beta", "model") or key in values:
            raise ConfigError(f"bad --sprt {text!r} at {item.strip()!r}; {usage}")
        values[key] = value.strip()
    if "elo0" not in values or "elo1" not in values:
        raise ConfigError(f"bad --sprt {text!r}: elo0 and elo1 are required; {usage}")
    nums = {}
    for key in ("elo0", "elo1", "alpha", "beta"):
        if key in values:
            try:
                nums[key] = float(values[key])
            except ValueError:
                raise ConfigError(f"bad --sprt {text!r}: {key} must be a number, not {values[key]!r}") from None
            if not math.isfinite(nums[key]):
                raise ConfigError(f"bad --sprt {text!r}: {key} must be finite")
    spec = SprtSpec(nums["elo0"], nums["elo1"], nums.get("alpha", 0.05), nums.get("beta", 0.05))
    if spec.elo0 >= spec.elo1:
        raise ConfigError(f"bad --sprt {text!r}: elo0 must be less than elo1")
    if not (0 < spec.alpha < 1 and 0 < spec.beta < 1 and spec.alpha + spec.beta < 1):
        raise ConfigError(f"bad --sprt {text!r}: alpha and beta must be in (0, 1) with alpha + beta < 1")
    model = values.get("model", SprtModel.LOGISTIC.value).lower()
    if model not in MODELS:
        raise ConfigError(f"bad --sprt {text!r}: model must be one of {', '.join(MODELS)}")
    return replace(spec, model=SprtModel(model))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's LLR bounds ``(ln(β/(1−α)), ln((1−β)/α))``: below the first H0 is accepted,
    above the second H1."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _bayesian_llr(wdl: Sequence[int], spec: SprtSpec) -> float:
    """The ``bayesian`` model's LLR of games W-D-L (module docstring)."""
    w, d, l_ = (int(x) for x in wdl)
    if w == 0 or l_ == 0:
        return 0.0
    counts = np.array([l_, d if d else REGULARIZE, w], dtype=float)
    total = float(counts.sum())
    phat = counts / total
    de = drawelo(wdl)
    p0 = mle_score(phat, GAME_SCORES, bayeselo_score(spec.elo0, de))
    p1 = mle_score(phat, GAME_SCORES, bayeselo_score(spec.elo1, de))
    lp0, lp1 = (np.log(np.maximum(np.nan_to_num(p, nan=P_FLOOR), P_FLOOR)) for p in (p0, p1))
    return total * float(np.sum(phat * (lp1 - lp0)))


def llr(penta: Sequence[int], spec: SprtSpec, wdl: Sequence[int] | None = None) -> float:
    """The GSPRT log-likelihood ratio of pentanomial counts ``[LL, LD, DD+WL, WD, WW]``
    (module docstring); the ``bayesian`` model reads the games' ``wdl`` (W, D, L of the same
    pairs' games) instead. 0 with no pair; finite for any finite bounds and counts (the
    hypotheses' Elo clipped to ±``ELO_CLIP``, scores by ``hypothesis_score``, probabilities
    floored at ``P_FLOOR``).

    Raises:
        ValueError: the ``bayesian`` model without ``wdl``.
    """
    if spec.model is SprtModel.BAYESIAN:
        if wdl is None:
            raise ValueError("the bayesian SPRT model needs the games' W-D-L counts")
        return _bayesian_llr(wdl, spec)
    counts = np.asarray(penta, dtype=float)
    if counts.sum() == 0:
        return 0.0
    counts = np.where(counts == 0, REGULARIZE, counts)
    total = float(counts.sum())
    phat = counts / total
    if spec.model is SprtModel.NORMALIZED:
        t0, t1 = (math.sqrt(2) * clip_elo(e) / NELO_SCALE for e in (spec.elo0, spec.elo1))
        p0, p1 = mle_normalized(phat, PAIR_SCORES, t0), mle_normalized(phat, PAIR_SCORES, t1)
    else:
        p0 = mle_score(phat, PAIR_SCORES, hypothesis_score(spec.elo0))
        p1 = mle_score(phat, PAIR_SCORES, hypothesis_score(spec.elo1))
    lp0, lp1 = (np.log(np.maximum(np.nan_to_num(p, nan=P_FLOOR), P_FLOOR)) for p in (p0, p1))
    return total * float(np.sum(phat * (lp1 - lp0)))


def verdict(value: float, spec: SprtSpec) -> str:
    """``"H1"`` (LLR at or above the upper bound), ``"H0"`` (at or below the lower) or
    ``"inconclusive"``."""
    lower, upper = bounds(spec.alpha, spec.beta)
    return "H1" if value >= upper else "H0" if value <= lower else "inconclusive"


@dataclass
class SprtTally:
    """Feeds a two-bot match's games to the SPRT in pair order.

    ``add(series, points)`` takes one stored game (``series``: 0-based pair index; ``points``
    of the first bot, 0/½/1); pairs are consumed in series order once complete, and the LLR
    is checked after each. ``decided_at`` is the 1-based pair whose LLR left the bounds (later
    pairs are not counted). ``wdl``: the first bot's W, D, L over the counted pairs' games.
    """

    spec: SprtSpec
    games_per_pair: int = 2
    penta: list[int] = field(default_factory=lambda: [0] * 5)
    wdl: list[int] = field(default_factory=lambda: [0] * 3)
    pairs: int = 0
    value: float = 0.0
    decided_at: int | None = None
    _pending: dict[int, list[float]] = field(default_factory=dict)

    @property
    def result(self) -> str:
        return verdict(self.value, self.spec) if self.decided_at is not None else "inconclusive"

    def add(self, series: int, points: float) -> bool:
        """Add one game; True once the SPRT has decided."""
        if self.decided_at is not None:
            return True
        self._pending.setdefault(int(series), []).append(float(points))
        while len(self._pending.get(self.pairs, ())) >= self.games_per_pair:
            pair = self._pending.pop(self.pairs)
            self.penta[int(round(2 * sum(pair)))] += 1
            for points in pair:
                self.wdl[2 - int(round(2 * points))] += 1
            self.pairs += 1
            self.value = llr(self.penta, self.spec, self.wdl)
            if verdict(self.value, self.spec) != "inconclusive":
                self.decided_at = self.pairs
                return True
        return False

    def state(self) -> dict:
        """The SPRT's state as stored and printed: the spec's fields, ``llr``, ``lower``,
        ``upper``, ``verdict``, ``pairs`` counted, ``decided_at`` (pair or None), ``penta``,
        ``wdl`` (the games' W, D, L) and the Elo estimate of those pairs (``elo``, ``elo_low``,
        ``elo_high``)."""
        lower, upper = bounds(self.spec.alpha, self.spec.beta)
        st = match_stats(self.penta)
        return {**asdict(self.spec), "llr": self.value, "lower": lower, "upper": upper,
                "verdict": self.result, "pairs": self.pairs, "decided_at": self.decided_at,
                "penta": list(self.penta), "wdl": list(self.wdl), "elo": st.elo, "elo_low": st.elo_low,
                "elo_high": st.elo_high}

    def line(self) -> str:
        """One line for the progress bar: ``SPRT [E0, E1] LLR x (lower, upper) ...``."""
        return state_line(self.state(), live=True)


def state_line(state: dict, live: bool = False, brief: bool = False) -> str:
    """A stored SPRT state (``SprtTally.state``) as one line, e.g. ``SPRT [0, 50] LLR 3.01
    (-2.94, 2.94): H1 accepted at pair 41 of 41; Elo +151.2 [98.0, 210.4]``. ``live``: the
    verdict only (``running`` while undecided); ``brief``: the verdict and the pair it came at
    (``... H1 accepted at pair 41``, ``... inconclusive after 30 pairs``), no Elo."""
    head = {"H1": "H1 accepted", "H0": "H0 accepted"}.get(state["verdict"], "running" if live else "inconclusive")
    text = (f"SPRT [{state['elo0']:g}, {state['elo1']:g}] LLR {state['llr']:.2f} "
            f"({state['lower']:.2f}, {state['upper']:.2f}): {head}")
    if live:
        return text
    at = f" at pair {state['decided_at']}" if state.get("decided_at") else ""
    if brief:
        return text + (at or f" after {state['pairs']} pairs")
    low, high = state["elo_low"], state["elo_high"]
    interval = (f"[{low:+.1f}, {high:+.1f}]" if low == low and high == high  # NaN: no spread seen
                else "(no interval: every pair scored the same)")
    return f"{text}{at} of {state['pairs']} pairs counted; Elo {state['elo']:+.1f} {interval}"
