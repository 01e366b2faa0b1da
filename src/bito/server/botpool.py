"""Bot decisions off the event loop: a small pool of worker processes (issue 18, item 1).

The server never runs a bot on its event loop. :class:`BotPool` hands each decision to one of
a few worker processes (started with ``spawn``, so they share nothing with the server but what
a request carries) and awaits the answer without blocking the loop. It guarantees:

* **Only the seat's view crosses.** A request carries the view of the seat to act
  (``state.view(seat)``), never the state: a worker cannot see a card that seat cannot.
* **A hard time cap.** A decision that takes longer than ``time_cap`` seconds (or a worker
  that dies or raises) is abandoned: the worker is killed and started again, and the caller
  gets ``None`` and plays a fallback move (:func:`fallback_action`). It is logged; a table
  never stalls.
* **A cap on concurrent work.** Each worker decides one move at a time; further requests wait
  in line (an asyncio queue, not a blocked thread), so a flood of bot tables makes bots
  slower, never people.
* **Bots keep their memory.** A seat's bot lives in one worker across the whole game, keyed
  by ``(table, seat)``: the request is routed to the worker that already holds it (sticky
  routing). Passing the bot's state along with every request was the other choice, but a
  search bot keeps its endgame solver's table (up to 500,000 entries) between decisions, too
  big to pickle per move. When the worker holding a bot is gone (killed after a time-out, or
  the server restarted), a new bot is built and the seat's earlier views are replayed into its
  memory (:func:`remember`) before it decides, so it knows what it would have known.

:class:`BotPool` is the whole interface a server needs (``decide``, ``forget``, ``close``), so a
multi-process deployment can keep one pool per process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("bito.server")

Key = tuple[str, int]  # (table id, seat)
START_CAP = 60.0  # seconds a worker may take to start
MAX_BOTS = 4000  # bots one worker keeps before it forgets the least recently used
#: Added to a worker's niceness: when bots want more CPU than there is (200 tables of search
#: bots ask for tens of cores), the operating system gives the event loop and the database
#: their turn first, so a flood of bots slows the bots, not the people's moves.
WORKER_NICENESS = 5


def default_workers() -> int:
    """One worker per core but one (the event loop keeps a core), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


# --- the worker process ------------------------------------------------------------------------

def _worker_main(conn: Any) -> None:  # pragma: no cover - runs in the child process
    """A worker's loop: decide moves for the bots it holds until the pipe closes."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    import bito.bots  # noqa: F401  (imported once, before the first request)

    try:  # the search bots' compiled playouts: loaded now, not in the first decision's time
        from bito.bots.rollouts import load_kernel_greedy

        load_kernel_greedy()
    except Exception:
        pass
    # Lowered only now: the start (seconds of imports, once) is what a table with a bot waits
    # for, and at a lowered priority a busy machine's other work would make it wait longer.
    with contextlib.suppress(OSError):  # a platform without priorities still plays
        os.nice(WORKER_NICENESS)
    conn.send(("ready", os.getpid()))
    bots: OrderedDict[Key, tuple[str, Any]] = OrderedDict()
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(_serve_request(bots, request))
        except (BrokenPipeError, OSError):
            return


def _serve_request(bots: OrderedDict[Key, tuple[str, Any]], request: dict[str, Any]
                   ) -> tuple[str, Any]:
    from bito.bots import make_bot

    for table in request.get("forget", ()):
        for gone in [k for k in bots if k[0] == table]:
            del bots[gone]
    if "job" in request:  # work other than a move: a game review (bito.server.review)
        from bito.server.review import run_job

        return run_job(request["job"])
    if request.get("sleep"):  # for the tests: a worker that hangs
        time.sleep(request["sleep"])
    key: Key = (str(request["key"][0]), int(request["key"][1]))
    name, view = request["bot"], request["view"]
    try:
        held = bots.get(key)
        fresh = held is None or held[0] != name
        if held is None or held[0] != name:
            bot = make_bot(name, request["seed"])
            for past in request.get("past") or ():
                remember(bot, past)
            held = (name, bot)
        bots[key] = held
        bots.move_to_end(key)
        while len(bots) > MAX_BOTS:
            bots.popitem(last=False)
        action = held[1].choose(view)
        return ("ok", (str(action), fresh))
    except Exception as e:  # a bot that cannot play this view: the server falls back
        bots.pop(key, None)
        return ("error", f"{type(e).__name__}: {e}")


def remember(bot: Any, view: Any) -> None:
    """Feed an earlier view of its seat into a new bot's memory, without deciding anything
    (the bots' own :func:`bito.bots.base.remember`, which takes a view of any family)."""
    from bito.bots.base import remember as bot_remember

    bot_remember(bot, view)


# --- the server's side -----------------------------------------------------------------------

class PoolClosed(Exception):
    """The pool was closed while a worker was starting or deciding: nothing failed."""


@dataclass(eq=False)
class _Worker:
    """One worker process and the pipe to it.

    The pipe is used by one thread at a time (the start, or a decision's round trip, run off
    the event loop); ``pipe`` is held for that. The pool's :meth:`BotPool.close` runs on the
    event loop and cannot wait for a start that may take a minute, so :meth:`shut` kills the
    process (which wakes a thread waiting on the pipe: the other end is gone) and leaves the
    pipe to be closed by the thread still using it, if one is."""

    index: int
    ctx: Any
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    proc: Any = None
    conn: Any = None
    keys: set[Key] = field(default_factory=set)  # bots this incarnation holds
    forget: list[str] = field(default_factory=list)  # tables to drop with the next request
    waiting: int = 0  # requests queued or running here
    closing: bool = False  # the pool is closing: no new process, and a start under way ends
    pipe: threading.Lock = field(default_factory=threading.Lock)  # held by the pipe's user
    guard: threading.Lock = field(default_factory=threading.Lock)  # proc, conn and closing

    def start(self) -> None:
        with self.pipe:
            with self.guard:  # a process is started, or the pool is closed: never both
                if self.closing:
                    raise PoolClosed
                parent, child = self.ctx.Pipe()
                self.proc = self.ctx.Process(target=_worker_main, args=(child,), daemon=True,
                                             name=f"bito-bot-{self.index}")
                self.proc.start()
                child.close()
                self.conn = parent
                self.keys = set()
                self.forget = []
            # Starting (imports, the compiled playouts) is not a decision: it has its own cap.
            try:
                ready = parent.poll(START_CAP) and parent.recv()[0] == "ready"
            except (EOFError, OSError):
                if self.closing:  # killed by shut(): the process is gone on purpose
                    raise PoolClosed from None
                raise
            finally:
                if self.closing:
                    self._release()
            if self.closing:
                raise PoolClosed
            if not ready:
                raise TimeoutError(f"a bot worker did not start in {START_CAP:g} s")

    def roundtrip(self, request: dict[str, Any], cap: float) -> tuple[str, Any]:
        """Send one request and wait for its answer (in a thread: the pipe blocks)."""
        with self.pipe:
            try:
                if self.closing:
                    raise PoolClosed
                self.conn.send(request)
                if not self.conn.poll(cap):
                    raise TimeoutError(f"no decision in {cap:g} s")
                answer: tuple[str, Any] = self.conn.recv()
                return answer
            except (EOFError, OSError):
                if self.closing:
                    raise PoolClosed from None
                raise
            finally:
                if self.closing:
                    self._release()

    def stop(self) -> None:
        """End the process and close the pipe (once nobody is using it)."""
        self._kill()
        with self.pipe:
            self._release()

    def shut(self) -> None:
        """For the pool's close, on the event loop: no process starts from now on, the running
        one is killed, and the pipe is closed now if it is idle, else by its user on waking."""
        with self.guard:
            self.closing = True
        self._kill()
        if self.pipe.acquire(blocking=False):
            try:
                self._release()
            finally:
                self.pipe.release()

    def _kill(self) -> None:
        with self.guard:
            proc = self.proc
        if proc is not None:
            with contextlib.suppress(Exception):
                proc.kill()

    def _release(self) -> None:
        with self.guard:
            proc, conn = self.proc, self.conn
            self.proc = self.conn = None
            self.keys = set()
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()
        if proc is not None:
            with contextlib.suppress(Exception):
                proc.kill()
                proc.join(2)


class BotPool:
    """Worker processes that decide bot moves; see the module docstring."""

    def __init__(self, workers: int | None = None, time_cap: float = 5.0) -> None:
        self.size = workers or default_workers()
        self.time_cap = time_cap
        self._ctx = multiprocessing.get_context("spawn")
        self._workers = [_Worker(i, self._ctx) for i in range(self.size)]
        self._home: dict[Key, _Worker] = {}
        #: decisions abandoned (time-out, a dead worker, a bot error): each played a fallback
        self.failures = 0
        self.decisions = 0
        self.closed = False
        self.built = 0  # bots built (a new seat, or one rebuilt after its worker was lost)
        self.replayed = 0  # of those, rebuilt mid-game with the seat's earlier views
        #: called with each decision's seconds (the metrics' histogram), when set
        self.observe: Callable[[float], None] | None = None

    @property
    def pids(self) -> list[int]:
        """The process ids of the workers running now (for operators and their tools)."""
        return [w.proc.pid for w in self._workers if w.proc is not None]

    @property
    def queued(self) -> int:
        """Decisions waiting for or running on a worker (the bot queue's depth)."""
        return sum(w.waiting for w in self._workers)

    def _worker_for(self, key: Key) -> _Worker:
        home = self._home.get(key)
        if home is None:
            # a new bot goes to the least busy worker (ties: by a stable hash of the table)
            start = zlib.crc32(key[0].encode()) % self.size
            order = self._workers[start:] + self._workers[:start]
            home = self._home[key] = min(order, key=lambda w: (w.waiting, len(w.keys)))
        return home

    async def decide(self, key: Key, bot: str, seed: int, view: Any,
                     past: Callable[[], Sequence[Any]] | None = None,
                     _sleep: float = 0.0) -> str | None:
        """The move (its text) the bot ``bot`` of ``key`` chooses from ``view``; None when the
        worker failed or ran out of time (the caller plays a fallback move). ``past`` gives the
        seat's earlier views, asked for only when the bot must be built again mid-game."""
        worker = self._worker_for(key)
        worker.waiting += 1
        # Shielded: a table that moves on (its task cancelled) must not leave a request
        # half-sent on the pipe; the answer is simply dropped.
        task = asyncio.ensure_future(self._run(worker, key, bot, seed, view, past, _sleep))
        try:
            return await asyncio.shield(task)
        finally:
            worker.waiting -= 1

    async def _run(self, worker: _Worker, key: Key, bot: str, seed: int, view: Any,
                   past: Callable[[], Sequence[Any]] | None, sleep: float) -> str | None:
        async with worker.lock:
            if self.closed:  # the server is shutting down
                return None
            if worker.proc is None or not worker.proc.is_alive():
                if worker.proc is not None:
                    log.warning("bot worker %d died; starting it again", worker.index)
                    worker.stop()
                try:
                    await asyncio.to_thread(worker.start)
                except Exception as e:
                    await asyncio.to_thread(worker.stop)
                    if self.closed:  # closed meanwhile: no move is wanted, nothing failed
                        return None
                    self.failures += 1
                    log.warning("a bot worker could not start (%s); a fallback move is "
                                "played", e)
                    return None
            request: dict[str, Any] = {"key": key, "bot": bot, "seed": seed, "view": view,
                                       "forget": worker.forget}
            if sleep:
                request["sleep"] = sleep
            if key not in worker.keys and past is not None:
                request["past"] = list(past())
                self.replayed += bool(request["past"])
            worker.forget = []
            self.decisions += 1
            started = time.monotonic()
            try:
                kind, value = await asyncio.to_thread(worker.roundtrip, request, self.time_cap)
                if self.observe is not None:
                    self.observe(time.monotonic() - started)
            except Exception as e:  # a time-out, a dead worker, a view that did not pickle
                took = time.monotonic() - started
                await asyncio.to_thread(worker.stop)  # killed: it may still be thinking
                if self.closed:  # closed meanwhile: no move is wanted, nothing failed
                    return None
                self.failures += 1
                log.warning("table %s seat %d: bot %s failed (%s after %.2f s); a fallback "
                            "move is played", key[0], key[1], bot, e or type(e).__name__, took)
                return None
            if kind != "ok":
                self.failures += 1
                worker.keys.discard(key)
                log.warning("table %s seat %d: bot %s failed (%s); a fallback move is played",
                            key[0], key[1], bot, value)
                return None
            worker.keys.add(key)
            text, fresh = value
            self.built += bool(fresh)
            return str(text)

    async def job(self, key: Key, job: dict[str, Any], cap: float) -> tuple[str, Any] | None:
        """Run ``job`` (a game review: :func:`bito.server.review.run_job`) in a worker,
        waiting in line with the decisions; None when the worker failed or took more than
        ``cap`` seconds (the worker is then replaced, as after a decision's time-out)."""
        worker = self._worker_for(key)
        self._home.pop(key, None)  # a job holds no bot: nothing to route back to
        worker.waiting += 1
        try:
            async with worker.lock:
                if self.closed:
                    return None
                if worker.proc is None or not worker.proc.is_alive():
                    worker.stop()
                    try:
                        await asyncio.to_thread(worker.start)
                    except Exception as e:
                        await asyncio.to_thread(worker.stop)
                        if not self.closed:
                            log.warning("a bot worker could not start for a job (%s)", e)
                        return None
                request = {"job": job, "forget": worker.forget}
                worker.forget = []
                try:
                    return await asyncio.to_thread(worker.roundtrip, request, cap)
                except Exception as e:  # a time-out or a dead worker
                    await asyncio.to_thread(worker.stop)
                    if not self.closed:
                        log.warning("a job in bot worker %d failed (%s)", worker.index,
                                    e or type(e).__name__)
                    return None
        finally:
            worker.waiting -= 1

    async def warm(self) -> None:
        """Start every worker now, off the loop: a process standing by to take tables over
        (several processes on one database) must not pay a worker's start-up, a second or
        two, inside the 5 s a taken-over table may wait."""
        for worker in self._workers:
            async with worker.lock:
                if worker.proc is None and not self.closed:
                    try:
                        await asyncio.to_thread(worker.start)
                    except Exception as e:  # started again on first use
                        if not self.closed:  # (shutting down meanwhile is no news)
                            log.warning("a bot worker could not start early (%s)", e)
                        await asyncio.to_thread(worker.stop)

    def forget(self, table: str) -> None:
        """The table's game is over: its bots may go (with the worker's next request)."""
        for key in [k for k in self._home if k[0] == table]:
            worker = self._home.pop(key)
            if key in worker.keys:
                worker.keys.discard(key)
                if table not in worker.forget:
                    worker.forget.append(table)

    def close(self) -> None:
        """Stop every worker, without waiting for one that is starting or deciding (its
        thread closes the pipe when it wakes; see :class:`_Worker`)."""
        self.closed = True
        for worker in self._workers:
            worker.shut()


def fallback_action(state: Any, seed: int) -> Any:
    """The move played when a bot's worker fails: the heuristic's (fast, decided here from
    the seat's view only), or the first legal move if even that fails."""
    from bito.bots import make_bot

    legal = state.legal_actions()
    try:
        action = make_bot("heuristic", seed).choose(state.view(state.to_act))
    except Exception:
        action = None
    return action if action in legal else legal[0]
