"""Tournaments: pairings, series, the worker pool and the run (``docs/arena.md`` "Tournaments")."""

from arena.tournament.config import TournamentConfig, build
from arena.tournament.runner import RunSummary, plan, run_tournament

__all__ = ["TournamentConfig", "build", "plan", "run_tournament", "RunSummary"]
