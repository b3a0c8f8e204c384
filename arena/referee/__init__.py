"""The referee: the one place that plays a game with seated bots under limits, decides blame
and termination, and produces a typed ``GameRecord``.

- ``records``: ``Termination``, ``MoveRecord``, ``GameRecord`` and their serialisation each
  way (``to_wire`` / ``from_wire``);
- ``messages``: the messages of a watched game (``Ply``, ``GameEnded``), ``message_to_wire`` /
  ``message_from_wire``, and ``ply_to_wire`` (``ply_wire``, ``ply_entry``) / ``ply_from_wire``
  for the plies a worker leaves in shared memory;
- ``settings``: ``GameSettings`` (what one game is played with) and ``GameHooks`` (the match
  loop's callbacks), taken whole by ``play_game``, ``referee_game`` and ``arena.supervisor``;
- ``play``: the match loop ``play_game`` (``play_round`` for simultaneous rounds) and
  ``random_opening``;
- ``seeds``: what derives from a game's seed (``derive_seed``, ``bot_seeds``: the one place a
  bot's seed is computed; ``ChanceDraws``: the outcomes of chance nodes);
- ``guarded``: ``referee_game``, the loop plus the faults of a process running bots
  (``exit``, ``memory``, ``exception`` in ``reset``) — what the tournament worker and
  ``arena play`` call (through ``arena.supervisor``);
- ``private``: the copies of the state and game each bot is handed (``Private``);
- ``check``: ``referee_check``, the runner's replay of a record before it is stored;
- ``clock``: the game clocks of ``--tc``; ``adjudicate``: the rules of ``--adjudicate``.

OS mechanics (memory cap, parent-death signal, output isolation) live in ``arena.os_guard``.
"""

from arena.referee.check import Checked, referee_check, round_answers
from arena.referee.guarded import ply_text, referee_game
from arena.referee.play import exception_text, last_frame, play_game, play_round, random_opening
from arena.referee.private import Private
from arena.referee.adjudicate import Adjudication
from arena.referee.messages import (PLY_LENGTH, GameEnded, Message, Ply, message_from_wire, message_to_wire,
                                    ply_entry, ply_from_wire, ply_to_wire, ply_wire, recv_message, send_message)
from arena.referee.records import (ADJUDICATIONS, FAULTS, RECORD_VERSION, BotFault, GameRecord, MoveRecord,
                                   Termination, fault_record, forfeit, from_wire, to_wire)
from arena.referee.seeds import SEEDING, SEEDINGS, ChanceDraws, bot_seeds, derive_seed
from arena.referee.settings import NO_HOOKS, GameHooks, GameSettings

__all__ = [
    "ADJUDICATIONS", "Adjudication", "FAULTS", "NO_HOOKS", "PLY_LENGTH", "RECORD_VERSION", "SEEDING", "SEEDINGS",
    "BotFault", "ChanceDraws", "Checked", "GameEnded", "GameHooks", "GameRecord", "GameSettings", "Message",
    "MoveRecord", "Ply", "Private", "Termination", "bot_seeds", "derive_seed", "exception_text", "fault_record",
    "forfeit", "from_wire", "last_frame", "message_from_wire", "message_to_wire", "play_game", "play_round",
    "ply_entry", "ply_from_wire", "ply_text", "ply_to_wire", "ply_wire", "random_opening", "recv_message",
    "referee_check", "referee_game", "round_answers", "send_message", "to_wire",
]
