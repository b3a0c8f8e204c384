"""A small process pool for games: per-game deadlines, blame, replacement of dead workers.

Why not ``pebble.ProcessPool``: its per-task timeout kills and replaces a worker well, but it
cannot tell which seat was thinking when the worker hung or died, nor distinguish a hung move
(``timeout``) from a hung game (``game_time``). Here each worker is the child of the one
game supervisor (``arena.supervisor``): it keeps a shared ``Status`` current (seat on move,
plies played, move start, game playing and its start, fork mark), and the runner waits on
the pipes and the process sentinels (``select.poll``, as ``multiprocessing.connection.wait``),
then judges each busy worker from its status (``arena.supervisor.blame``). Each finished ply
is also written to a shared buffer (``arena.supervisor.PlyLog``), so a game lost to a kill or
a crash keeps its moves; a finished game comes through the pipe as
``arena.referee.GameEnded``. Each worker holds a few tasks (one playing, the next already in
its pipe; more for short games), so it never waits for the runner
to store a result; ``Status.game`` says which game is playing.

Faults handled here (``docs/arena.md`` "Contracts / Faults"):

- a game over ``game_time`` seconds: the worker is killed and replaced, the seat on move loses
  (``game_time``);
- a move running past ``move_time + time_margin`` plus a grace (the greater of 1 s and
  ``move_time``): killed, the seat on move loses (``timeout``). At a simultaneous round
  (Ricochet, Solo Interaction races) each seat's answer is timed so (``Status.move_started``
  is written for each seat asked): a racer that never answers loses the game, the rounds before stand;
- a worker that dies (SIGKILL, ``os._exit``, segfault, all its fds closed) while a game is
  assigned to it (``Status.game`` is set from the game's start until its result is sent): replaced,
  the game replayed up to ``retries`` times; then the seat on move loses (``crash``). Deaths
  between games are nobody's fault; ``MAX_IDLE_DEATHS`` in a row stop the run (workers that
  cannot start);
- a bot that forks the worker (``arena.supervisor.Watched.check`` marks ``Status.forked``): the worker is killed and
  replaced, the forking seat loses (``crash``), the plies before the fork stand.

Processes: each worker leads its own session and the pool makes this process a child subreaper
while it is open (``os_guard.hold_subreaper``: one saved state for every pool and block of the
process), so killing a worker's process group and then every stray child of this process
(``os_guard.kill_orphans``) leaves nothing a bot started, ``setsid`` ones included. Workers are
started and recorded under ``os_guard.children_lock()``, which every sweep holds: one pool's
sweep spares every open pool's workers (``open_workers``), even one being started by another
thread. Not safe against other threads starting other children while a pool is open: a sweep
kills them.
Dispatch: one task at a time to the least-loaded worker, never to one whose move is overdue.
"""

from __future__ import annotations

import logging
import math
import select
import time
import weakref
from collections import deque
from collections.abc import Callable, Generator, Iterable
from dataclasses import replace
from typing import Any

from arena.errors import ConfigError
from arena.os_guard import children, children_lock, exit_text, hold_subreaper, kill_orphans, release_subreaper
from arena.supervisor import Deadlines, Status, played, read_plies
from arena.supervisor.parent import died, forked, overdue
from arena.tournament.gamepool import Result
from arena.tournament.logs import join_retired
from arena.tournament.series import GameTask
from arena.tournament.slot import _POOLS, WorkerSlot, context, open_workers
from arena.tournament.threads import threaded
from arena.tournament.worker import WorkerSetup, task_fault

log = logging.getLogger("arena.pool")

#: tasks in flight per worker: at least the game playing and the next; for short games, enough
#: to cover PREFETCH_SECONDS of play (so a runner descheduled on a loaded machine never starves
#: a worker), at most PREFETCH_MAX (so the end of a run stays balanced)
PREFETCH, PREFETCH_SECONDS, PREFETCH_MAX = 2, 0.05, 16
#: seconds a worker may take to start its next game (``WorkerSlot.waiting_since``): then replaced, nobody blamed
READY_GRACE = 30.0
#: workers dying in a row outside any game before the run gives up
MAX_IDLE_DEATHS = 5
class Pool:
    """Plays ``GameTask`` s on ``workers`` processes; ``run`` yields each ``Result`` as it finishes.
    Games enter by ``submit`` (before or while ``run`` goes on) or ``run``'s ``tasks``.

    Args:
        setup: what every worker needs (game, bots, limits).
        workers: number of worker processes.
        num_players: seats per game.
        game_time: hard wall-clock seconds per game.
        move_time: per-move seconds (``None``: no per-move watchdog).
        time_margin: seconds of overrun tolerated per move.
        retries: replays of a game whose worker died before it is lost (``crash``).
    """

    def __init__(self, setup: WorkerSetup, workers: int, num_players: int, game_time: float,
                 move_time: float | None = None, time_margin: float = 0.5, retries: int = 2,
                 worker_log: bool = True) -> None:
        self.setup, self.workers, self.n = setup, workers, num_players
        self.game_time, self.retries = game_time, retries
        #: a move is killed after its move time, margin and a grace (the greater of 1 s and the move time)
        self.deadlines = Deadlines(game_time, move_time, time_margin, 0.0 if move_time is None else max(1.0, move_time))
        self.ctx, self.fork = context()
        #: worker records through a per-worker ``WorkerLog`` to this process's handlers (fork
        #: only); ``worker_log=False`` in a Dask worker (``arena.tournament.remote``), whose
        #: workers append to the log file themselves
        self.worker_log = self.fork and worker_log
        self.slots: list[WorkerSlot] = []
        self.replaced = 0
        self.idle_deaths = 0
        self.mean_seconds: float | None = None  # running mean of game durations
        self.pending: deque[GameTask] = deque()  # games submitted, not yet given to a worker
        self._poller = select.poll()  # ``_wait``'s
        self._polled: tuple[int, ...] = ()  # the descriptors it polls
        #: called by ``run`` after each wait (at least every second while games play), from the
        #: thread iterating it: a caller's look at the games playing (``playing``) between results
        self.on_wait: Callable[[], None] | None = None
        #: results of the same wait still to be yielded after the one ``run`` just yielded (the
        #: caller commits the games that came together in one transaction once it reads 0)
        self.left = 0
        #: games at once in each worker (``arena.tournament.threads``: bots waiting on the network), else 1
        self.at_once = setup.concurrency if threaded(setup) else 1

    def playing(self) -> list[tuple[GameTask, Status]]:
        """The games playing now, each with its worker's shared status (the seat on move, plies,
        move start: ``arena.supervisor.Status``, which the worker keeps writing)."""
        return [(task, slot.status) for slot in self.slots if (task := slot.playing()) is not None]

    def _depth(self) -> int:
        if self.at_once > 1:  # games in threads: each thread a game, and as many ended ones held for their turn
            return 2 * self.at_once + PREFETCH  # (records go back in order: arena.tournament.threads)
        if not self.mean_seconds:
            return PREFETCH
        return max(PREFETCH, min(PREFETCH_MAX, 1 + math.ceil(PREFETCH_SECONDS / self.mean_seconds)))

    def _startup_failure(self, code: int | None) -> None:
        """Count workers dying outside any game; several in a row mean workers cannot start.

        Raises:
            ConfigError: ``MAX_IDLE_DEATHS`` such deaths in a row (see the tournament log).
        """
        self.idle_deaths += code != 0  # exit 0: a worker that retired (outbox.Cleaner), not a failed start
        if self.idle_deaths >= MAX_IDLE_DEATHS:
            raise ConfigError(f"worker processes keep dying outside any game ({exit_text(code)}, "
                              f"{self.idle_deaths} in a row); see the tournament log")

    def submit(self, tasks: Iterable[GameTask]) -> None:
        """Queue ``tasks`` behind the games pending: a running ``run`` plays them too (call it
        between two of its results, from the thread iterating it)."""
        self.pending.extend(tasks)

    def run(self, tasks: Iterable[GameTask] = (), keep: bool = False,
            inbox: Any = None) -> Generator[Result, None, None]:
        """Play ``tasks`` and the games submitted, yielding each ``Result`` as it ends; the run
        ends when none is pending or in flight. Workers started: ``workers``, at most as many as
        games pending when it starts (all of them with ``inbox``).

        ``keep``: leave the worker processes running after the last result, for the next
        ``run``; an interrupted run closes them whatever ``keep`` says.
        ``inbox``: more tasks handed over while the run goes on, by other threads (a Dask
        worker's games, ``arena.tournament.remote.Inbox``: ``fileno()`` readable when tasks
        wait, ``take()`` returns them, ``closed`` ends the run once they are played); the
        workers then all start at once and keep their next game in their pipe, as here.
        """
        self.submit(tasks)
        pending = self.pending
        deaths: dict[int, int] = {}
        if not hasattr(self, "_before"):  # once per pool (``keep``: a later run reuses it)
            with children_lock():
                hold_subreaper()  # orphans of workers come back here (kill_orphans)
                self._release = weakref.finalize(self, release_subreaper)  # by close, or a pool never closed
                self._before = children()  # the caller's own children are never touched
                _POOLS.add(self)
        if not self.slots:
            count = self.workers if inbox is not None else min(self.workers, len(pending))
            with children_lock():  # no sweep meets a worker not yet in ``slots``
                self.slots = [WorkerSlot(self.ctx, self.setup, self.worker_log) for _ in range(count)]
        try:
            while pending or any(s.tasks for s in self.slots) or (inbox is not None and not inbox.closed):
                if inbox is not None:
                    pending.extend(inbox.take())
                self._fill(pending)
                busy = [s for s in self.slots if s.tasks]
                ready = self._wait([s.conn.fileno() for s in busy] + [s.proc.sentinel for s in busy]
                                   + ([inbox.fileno()] if inbox is not None else []), self._timeout(busy))
                done: list[Result] = []
                for i in range(len(self.slots)):
                    if self.slots[i].tasks:
                        done.extend(self._check(i, pending, deaths, self.slots[i].proc.sentinel in ready))
                self._fill(pending)  # workers play on while the caller stores
                if self.on_wait is not None:
                    self.on_wait()
                for k, result in enumerate(done):
                    self.left = len(done) - 1 - k
                    yield result
        except BaseException:
            pending.clear()  # an interrupted run's games are not played by a later one
            self.close()
            raise
        if not keep:
            self.close()

    def _wait(self, fds: list[int], timeout: float) -> set[int]:
        """Wait until one of ``fds`` is readable (a result, a dead worker's sentinel, the inbox)
        or ``timeout`` seconds have passed: ``multiprocessing.connection.wait``, with one
        ``select.poll`` kept while the descriptors stay the same (``wait`` makes and fills a
        selector each call, once a game). Returns the descriptors ready."""
        key = tuple(fds)
        if key != self._polled:
            poller = select.poll()
            for fd in key:
                poller.register(fd, select.POLLIN)
            self._poller, self._polled = poller, key
        return {fd for fd, _ in self._poller.poll(math.ceil(timeout * 1000))}

    def _overdue(self, slot: WorkerSlot, now: float) -> bool:
        """The worker's bot on move is past its move time plus margin, or its game clock (the
        watchdog will kill it soon): no game is queued behind it."""
        lost = self.deadlines.lost_after(slot.status)
        return (lost is not None and slot.playing() is not None and slot.status.move_started > 0
                and now - slot.status.move_started > lost)

    def _fill(self, pending: deque) -> None:
        """Top up the workers' games in flight, one game at a time to the least-loaded worker
        (ties: the lowest index), never to a worker whose move is overdue: a worker stuck on a
        hung move never holds games that others could play. Each worker's new games go as one
        task of several games (``WorkerSlot.give``: one message, not one a game)."""
        if not pending:
            return
        depth, now = self._depth(), time.monotonic()
        room = {i: depth - len(s.tasks) for i, s in enumerate(self.slots)
                if len(s.tasks) < depth and not self._overdue(s, now)}
        while pending and room:
            share: dict[int, list[GameTask]] = {i: [] for i in room}
            for _ in range(min(len(pending), sum(room.values()))):  # one by one, the least loaded first
                i = max(room, key=lambda j: (room[j] - len(share[j]), -j))
                share[i].append(pending.popleft())
            for i, batch in share.items():
                if not batch:
                    continue
                slot = self.slots[i]
                del room[i]
                if slot.playing() is not None and not slot.proc.is_alive():
                    pending.extendleft(reversed(batch))  # died in a game: _check blames it
                elif not slot.give(batch):  # died between games: nobody's fault, its games given again
                    code = slot.proc.exitcode
                    pending.extendleft(reversed(self._replace(i) + batch))
                    self._startup_failure(code)
                    room[i] = depth

    def _timeout(self, busy: list[WorkerSlot]) -> float:
        now, left = time.monotonic(), [1.0]
        for s in busy:  # the next check of a game playing, or of a worker's start of its next game
            left.append(self.deadlines.next_check(s.status, now) if s.playing() is not None
                        else s.waiting_since + READY_GRACE - now)
        return max(0.0, min(left))

    def _sweep(self) -> None:
        """Kill every descendant of an ended worker (re-parented here: the pool is a subreaper);
        the workers of every open pool are spared (``open_workers``)."""
        killed = kill_orphans(lambda: self._before | open_workers())
        if killed:
            log.warning("killed %d process(es) left by bots of ended workers: %s", len(killed), killed)

    def _receive(self, slot: WorkerSlot, deaths: dict, until: int | None = None) -> list[Result]:
        """The results waiting in ``slot``'s pipe, in order (``WorkerSlot.results``)."""
        out = []
        for task, record in slot.results(until):
            out.append(Result(task, record, deaths.get(task.game_id, 0) + 1))
            self.idle_deaths = 0
            m = self.mean_seconds
            self.mean_seconds = record.seconds if m is None else 0.9 * m + 0.1 * record.seconds
        return out

    def _forked(self, i: int, pending: deque, deaths: dict) -> list[Result] | None:
        """The results of the games before the one whose bot forked the worker (a copy of the
        worker, or the worker itself, marked ``Status.forked`` with the game id), then that
        game's: the worker and its descendants are killed, the forking seat loses (``crash``),
        the game is not replayed. ``None`` when no fork is marked.

        The marked game may be behind results not read yet: the worker sent them before it
        began that game (``Status.game`` moves on only after a send), so they are in the pipe
        and read first. A result of the marked game itself (the copy was gone before the worker
        looked) gives the plies before the fork: the ply buffer is then the next game's.
        """
        slot = self.slots[i]
        st, game_id = slot.status, slot.status.forked
        if game_id < 0:
            return None
        st.forked = -1
        if all(t.game_id != game_id for t in slot.tasks):
            log.warning("a bot forked worker %d during game %d (its result was already sent)", slot.proc.pid, game_id)
            return None
        out = self._receive(slot, deaths, until=game_id)
        unread = []
        if not slot.tasks or slot.tasks[0].game_id != game_id:  # the worker died before sending them all
            log.warning("worker %d: results before game %d (a bot forked) not sent; played again",
                        slot.proc.pid, game_id)
            while slot.tasks[0].game_id != game_id:
                unread.append(slot.tasks.popleft())  # replayed (nobody's fault)
        task, ply = slot.tasks[0], st.fork_ply
        sent = slot.sent(game_id)
        if sent is not None:  # the worker missed the copy (already gone) and played on: its plies, not the buffer's
            after = len(task.opening)  # its opening plies are the fault record's own
            kept = (list(sent.moves[after:ply]), [m for m in sent.move_stats if after <= m.ply < ply])
        elif st.game == game_id:  # the plies before the fork stand
            kept = played(read_plies(slot.buffer, st), ply, len(task.opening))
        else:
            kept = ([], [])
        seconds = time.monotonic() - st.game_started
        lost = forked(st, task.seats, "worker process")
        pending.extendleft(reversed(unread + self._replace(i, task)))
        out.append(Result(task, task_fault(task, lost.seat, lost.reason, lost.detail, *kept, seconds=seconds), 1))
        return out

    def _died(self, i: int, task: GameTask | None, pending: deque, deaths: dict) -> Result | None:
        """Worker ``i`` ended: its games go back to ``pending`` (nobody's fault between games, a
        replay while ``retries`` allow), or the game playing is lost by the seat on move (``crash``)."""
        slot = self.slots[i]
        code = slot.proc.exitcode
        plies = slot.child.plies() if task is not None else []
        rest = self._replace(i)
        if task is None:  # died between games: replay all, nobody's fault
            pending.extendleft(reversed(rest))
            self._startup_failure(code)
            return None
        deaths[task.game_id] = deaths.get(task.game_id, 0) + 1
        if deaths[task.game_id] <= self.retries:
            log.warning("game %d: worker died (%s), replaying", task.game_id, exit_text(code))
            pending.extendleft(reversed(rest))
            return None
        pending.extendleft(reversed([t for t in rest if t is not task]))
        lost = died(slot.status, code, task.seats, "worker")
        lost = replace(lost, detail=f"{lost.detail}, {deaths[task.game_id]} attempts")
        seconds = time.monotonic() - slot.status.game_started
        return Result(task, lost.record(task.seats, task.seed, task.opening, plies, seconds), deaths[task.game_id])

    def _check(self, i: int, pending: deque, deaths: dict, ended: bool = True) -> list[Result]:
        """The results of worker ``i``: those in its pipe, then a fault of the game playing (a
        fork, a death, ``game_time``, ``timeout``: ``arena.supervisor.blame``), if any.
        ``ended``: the worker's sentinel was ready at the last wait (only then is the process
        asked whether it ended: a worker that ends after the wait makes the next one return)."""
        forked = self._forked(i, pending, deaths)
        if forked is not None:
            return forked
        slot = self.slots[i]
        out = self._receive(slot, deaths)
        if not slot.tasks:
            return out
        task, now, st = slot.playing(), time.monotonic(), slot.status
        if ended and not slot.proc.is_alive():
            lost = self._died(i, task, pending, deaths)
            return out + ([lost] if lost is not None else [])
        if task is None and now - slot.waiting_since > READY_GRACE:  # stuck between games (a bot's cleanup)
            log.warning("worker %d started no game within %gs; replaced", slot.proc.pid, READY_GRACE)
            pending.extendleft(reversed(self._replace(i)))
            return out
        late = None if task is None else overdue(st, now, self.deadlines, task.seats, "worker")
        if task is None or late is None:
            return out
        plies = slot.child.plies()
        pending.extendleft(reversed(self._replace(i, task)))
        out.append(Result(task, late.record(task.seats, task.seed, task.opening, plies, now - st.game_started),
                          deaths.get(task.game_id, 0) + 1))
        return out

    def _replace(self, i: int, lost: GameTask | None = None) -> list[GameTask]:
        """Kill worker ``i``, start a new one; return the old one's tasks in flight but ``lost``
        (the game whose fault record is made), in order: the games it finished and had not sent
        yet (``outbox.Outbox``) are among them, played again."""
        old = self.slots[i]
        old.kill()
        with children_lock():  # no sweep meets the new worker before it is in ``slots``
            self.slots[i] = WorkerSlot(self.ctx, self.setup, self.worker_log)
        self.replaced += 1
        self._sweep()
        return [t for t in old.tasks if t is not lost]

    def close(self) -> None:
        """Stop idle workers, kill busy ones (their games are not recorded)."""
        for slot in self.slots:
            if not slot.tasks:
                slot.stop()
        deadline = time.monotonic() + 2
        for slot in self.slots:
            if not slot.tasks:
                slot.proc.join(max(0.0, deadline - time.monotonic()))
            slot.kill()
        with children_lock():
            self.slots = []
        if hasattr(self, "_before"):
            try:
                self._sweep()
            finally:
                with children_lock():
                    _POOLS.discard(self)
                self._release()  # the subreaper state: put back when no holder is left
                del self._before
        left = join_retired()
        if left:
            log.warning("log threads still reading after the workers ended: %s", ", ".join(left))
