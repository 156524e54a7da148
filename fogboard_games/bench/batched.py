"""`bench --batch`: `fogboard_games.batch` beside the C++ loop, and beside
pgx when it is installed (docs/batch.md#speed, docs/performance.md).

The batch carries on from slice to slice (`BatchPlay`), as a training loop
would, and plays actions drawn from the legal mask by `random_actions`
(batch/bots.py), vectorized so that the draw stays a small part of a step. pgx is a
benchmark peer only, imported here when present, never a dependency
(`PgxPlay`: its step, draw and restart in one jitted call, timed after its
compile).
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel

from fogboard_games.batch.bots import random_actions
from fogboard_games.bench.options import DEFAULT_BATCH_SIZE, check_options
from fogboard_games.bench.playouts import SLICES, interleaved, playout_rate
from fogboard_games.bench.report import cell
from fogboard_games.core.registry import BENCH_PAIRS

# Presets OpenSpiel has no C++ twin of, measured beside our own pyspiel game's
# Python loop instead (Liar's Dice in dice mode with rerolls and pass, Mind Bluff
# and its series, Parley).
OWN_LOOP = (
    "liars-dice-table",
    "mind-bluff",
    "mind-bluff-tiny",
    "mind-bluff-series",
    "parley",
    "parley-tiny",
)

BATCH_LEGEND = """\
batch     fogboard_games.batch at the batch size shown: every row plays uniformly random
          legal actions (drawn from the mask, vectorized: random_actions), finished rows
          restarted at once; plies (decisions) per second over all rows, chance drawn
          inside
C++ loop  OpenSpiel's C++ game stepped one state at a time from a Python loop, random
          legal actions; plies (decisions) per second, chance steps played, not counted
          (ours:PRESET where OpenSpiel has no twin: our own pyspiel game in that loop)
plain     no tensor read; tensor: the mover's information-state tensor read at every
          ply (batch: state.observation, (B, D) float32; C++: information_state_tensor())
compact   the same read in the compact dtype (bool, or uint8 where a value exceeds 1)
ratio     batch / C++ loop, both measured in this run (compact beside the C++ tensor
          loop); -: no C++ counterpart; a game marked "ours:" has none either and is
          measured beside our own pyspiel game's Python loop instead (same loop, same
          reads)
floor     plain play plus only the part of handing out the movers' tensors that this
          kind of engine cannot avoid, done on stand-in arrays of the same sizes
          (bench.batched.Floor): one (B, D) gather of the movers' rows from a uint8
          array of every seat's rows, cast into a float32 (B, D) array (the mover
          changes in most rows at most plies), or where every ply passes the turn in
          every row (abrupt boards without a sense) four float32 entries a row
          written into that ply's movers' array and restarted rows set afresh;
          its ratio, to the C++ loop with tensor, is the most the tensor ratio
          could reach (measured alongside it; presets with a C++ twin only)
bytes/row the batch environment's memory per row (history, bitboards, tensor stores,
          the handed-out array and its log: memory_per_row(), game tables apart)"""

PGX_LEGEND = """\
ours      fogboard_games.batch, as above; obs: State.observation read at every ply in the
          observation form (the mover's view now) in the compact dtype (bool; uint8
          where the view counts, as Mind Bluff's debts)
pgx       pgx's env of that id, one jitted call per ply over every row (vmap): a uniformly
          random legal action (categorical over the mask), the step, and a fresh start
          in the rows that finished; timed after its compile; obs: state.observation
          (pgx computes it in every step) handed to numpy at every ply
/cpu      plies per CPU second of the process (time.process_time: every thread), beside
          plies per wall second; ratio = ours / pgx
bytes/row ours as above, in the observation form; pgx: its state's arrays per row
pgx's hex has the swap move and no fog; at 8 x 8 its start of game is rebuilt for the
size (pgx builds an 11 x 11 board); dark-hex-11 is pgx's own hex, 11 x 11;
liars-dice-classic-1 and mind-bluff beside leduc_holdem and kuhn_poker
are context only: other games (pgx has neither of ours)"""

# (our game or None, the row's name, pgx env id, board size for pgx's hex)
PGX_PAIRS = (
    ("phantom-ttt-3", "phantom-ttt-3", "tic_tac_toe", None),
    ("fogboard_dark_hex(board_size=8)", "dark-hex-8", "hex", 8),
    ("fogboard_dark_hex(board_size=11)", "dark-hex-11", "hex", None),
    # Context only: pgx has no Liar's Dice or Mind Bluff, so beside two small
    # imperfect-information games of its own (other games, not the same one).
    ("liars-dice-classic-1", "liars-dice-classic-1", "leduc_holdem", None),
    ("mind-bluff", "mind-bluff", "kuhn_poker", None),
)
# Rows of the C++ table beyond the covered presets: (name, our game, C++ game).
EXTRA_PAIRS = (("dark-hex-11", "fogboard_dark_hex(board_size=11)", "dark_hex(board_size=11)"),)


class BatchPlay:
    """A batch environment playing random legal actions, restarting rows as they
    finish, reading the observation at every ply if `tensor`: `rate(seconds)`
    plays on for that long from where the last call stopped and returns plies
    (running rows' decisions) per second."""

    def __init__(self, env, tensor: bool, seed: int = 0, floor=None):
        self.env, self.tensor, self.floor = env, tensor, floor
        self.rng = np.random.default_rng(seed)
        self.state = env.reset()

    def rate(self, seconds: float) -> float:
        """Plies per wall second; `cpu_rate` is set to plies per CPU second."""
        env, rng, state, tensor, floor = self.env, self.rng, self.state, self.tensor, self.floor
        plies = 0
        cpu = time.process_time()
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            for _ in range(8):
                if tensor:
                    state.observation  # noqa: B018  (reading it is the workload)
                elif floor is not None:
                    floor.hand_out(state)
                plies += env.batch_size - np.count_nonzero(state.terminated)
                state = env.step(random_actions(rng, state.legal_action_mask))
                if state.terminated.any():
                    state = env.reset(state.terminated)
        self.state = state
        self.cpu_rate = plies / max(time.process_time() - cpu, 1e-9)
        return plies / (time.perf_counter() - start)


class Floor:
    """The least a step must do to hand out the movers' information-state
    tensors in float32, done on stand-in arrays of the real sizes (B rows, D
    entries; `hand_out(state)` at every ply of plain play): the floor under
    the tensor read of `fogboard_games.batch`, whose stores keep every seat's
    tensor in uint8 and hand out a float32 array of the movers'
    (docs/batch.md#observations).

    Where the mover changes in most rows at most plies (the classical boards,
    Liar's Dice), each such row's handed-out tensor changes
    whole: one gather of the movers' rows (`state.current_player`) from a
    uint8 array of every seat's rows, cast into the float32 array. Where every
    ply passes the turn in every row (`always_passes`: abrupt boards without a
    sense), the movers' tensors are one block, and a ply writes its four
    entries a row (a board attempt) into that ply's movers' float32 array, the
    two arrays taking turns, and sets the rows restarted since the last ply
    afresh in both (a new game's tensors change whole). Left out, as the
    engine cannot skip them either but they are not the hand-out: the game's
    own writes into its stores, the zeros of finished rows."""

    ENTRIES = 4  # a board attempt's entries in the mover's tensor
    PLIES = 16  # stand-in plies of entries, taken in turn

    def __init__(self, env):
        B, D = env.batch_size, env.tensor_size
        self.batch_size, self.ply = B, 0
        self.rows = np.arange(B)
        self.blocks = bool(getattr(env, "always_passes", False))
        self.env = env
        if self.blocks:
            self.out = np.zeros((2, B, D), np.float32)
            rng = np.random.default_rng(0)
            cols = np.sort(rng.integers(0, D, (self.PLIES, B, self.ENTRIES)), axis=2)
            self.entries = (self.rows * D)[:, None] + cols  # flat, row by row
            self.ones = np.ones((B, self.ENTRIES), np.float32)
        else:
            self.store = np.zeros((env.num_players * B, D), np.uint8)
            self.out = np.zeros((B, D), np.float32)
            self.want = np.empty(B, np.int64)

    def hand_out(self, state) -> np.ndarray:
        """The ply's hand-out into the stand-in arrays; the array handed out."""
        if self.blocks:
            fresh = np.flatnonzero(self.env.history_len == 0)  # (no chance: restarted)
            if len(fresh):
                self.out[:, fresh] = 0
            out = self.out[self.ply & 1]
            out.reshape(-1)[self.entries[self.ply % self.PLIES]] = self.ones
        else:  # store row p * B + b: seat p's of row b (finished rows: clipped)
            out = self.out
            np.multiply(state.current_player, self.batch_size, out=self.want)
            self.want += self.rows
            np.copyto(out, self.store.take(self.want, axis=0, mode="clip"), casting="unsafe")
        self.ply += 1
        return out


def load_pgx():
    """(jax, pgx) when both import, else None: pgx is an optional peer."""
    try:
        import jax
        import pgx
    except ImportError:
        return None
    return jax, pgx


class PgxPlay:
    """pgx's `env_id` at batch `batch_size` playing uniformly random legal
    actions, restarting finished rows at once, handing the observation to
    numpy at every ply if `tensor`; `rate(seconds)` as BatchPlay's. The
    jitted ply is compiled (and run once) here, so rates leave it out."""

    def __init__(self, env_id: str, size, batch_size: int, tensor: bool, seed: int = 0):
        jax, pgx = load_pgx()
        jnp = jax.numpy
        env = pgx.make(env_id) if size is None else _sized_hex(jax, size)
        B = self.batch_size = batch_size
        init, step = jax.vmap(env.init), jax.vmap(env.step)

        def ply(state, key):
            draw, fresh, key = jax.random.split(key, 3)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            action = jax.random.categorical(draw, logits, axis=1)
            state = step(state, action)
            start = init(jax.random.split(fresh, B))
            done = state.terminated

            def pick(now, new):
                return jnp.where(done.reshape((-1,) + (1,) * (now.ndim - 1)), new, now)

            return jax.tree_util.tree_map(pick, state, start), key

        self.ply = jax.jit(ply)
        self.tensor = tensor
        self.state = jax.jit(init)(jax.random.split(jax.random.PRNGKey(seed), B))
        self.key = jax.random.PRNGKey(seed + 1)
        self.state, self.key = self.ply(self.state, self.key)  # (the compile)
        self.state.terminated.block_until_ready()
        leaves = jax.tree_util.tree_leaves(self.state)
        self.bytes_per_row = -(-sum(leaf.nbytes for leaf in leaves) // B)

    def rate(self, seconds: float) -> float:
        state, key, ply, tensor = self.state, self.key, self.ply, self.tensor
        plies = 0
        cpu = time.process_time()
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            for _ in range(8):
                if tensor:
                    np.asarray(state.observation)
                state, key = ply(state, key)  # (every row plays: finished ones restarted)
                plies += self.batch_size
            state.terminated.block_until_ready()
        self.state, self.key = state, key
        self.cpu_rate = plies / max(time.process_time() - cpu, 1e-9)
        return plies / (time.perf_counter() - start)


def _sized_hex(jax, size: int):
    """pgx's hex on a size x size board: its start of game rebuilt for the size
    (pgx's builds an 11 x 11 board whatever its size; its rules read the size)."""
    from pgx._src.games.hex import GameState
    from pgx.hex import Hex, State

    jnp = jax.numpy

    class SizedHex(Hex):
        def _init(self, key):
            order = jnp.array([[0, 1], [1, 0]])[jax.random.bernoulli(key).astype(jnp.int32)]
            x = GameState(board=jnp.zeros(size * size, jnp.int32))
            return State(
                current_player=order[x.color],
                observation=jnp.zeros((size, size, 2), jnp.bool_),
                legal_action_mask=jnp.ones(size * size + 1, jnp.bool_).at[-1].set(False),
                _player_order=order,
                _x=x,
            )

    return SizedHex(size=size)


def run_batch(
    rounds: int = 3, seconds: float = 0.4, only=None, batch_size: int = DEFAULT_BATCH_SIZE
) -> list[dict]:
    """`bench --batch`: batched plies per second beside the C++ loop, and a table
    (BenchError, before anything runs, for an option it cannot take)."""
    from fogboard_games import batch

    extra = {name: (ours, cpp) for name, ours, cpp in EXTRA_PAIRS}
    names = batch.COVERED_PRESETS + tuple(extra)
    check_options("bench --batch", rounds, seconds, only, names, batch_size)
    print(
        f"batched random play at batch {batch_size} beside the C++ game's Python loop; "
        f"best of {rounds} rounds of {seconds}s, each in {SLICES} slices alternating "
        f"batch and C++; plies/s"
    )
    print(
        f"{'preset':<22}{'C++ game':<40}{'batch':>11}{'C++ loop':>10}{'ratio':>7}"
        f"{'batch tensor':>13}{'C++ loop':>10}{'ratio':>7}{'compact':>11}{'ratio':>7}"
        f"{'floor':>11}{'ratio':>7}{'bytes/row':>10}"
    )
    results = []
    for preset in (p for p in names if only is None or p in only):
        ours, cpp = extra.get(preset, (preset, dict(BENCH_PAIRS).get(preset)))
        row = _batch_row(preset, ours, cpp, rounds, seconds, batch_size)
        results.append(row)
        print(
            f"{preset:<22}{row['cpp'] or '-':<40}{row['plain_batch']:>11.0f}"
            f"{cell(row['plain_cpp'], 10, 0)}{cell(row['plain_ratio'], 7, 1)}"
            f"{row['tensor_batch']:>13.0f}{cell(row['tensor_cpp'], 10, 0)}"
            f"{cell(row['tensor_ratio'], 7, 1)}{row['compact_batch']:>11.0f}"
            f"{cell(row['compact_ratio'], 7, 1)}{cell(row['floor_batch'], 11, 0)}"
            f"{cell(row['floor_ratio'], 7, 1)}{row['bytes_per_row']:>10}",
            flush=True,
        )
    print(BATCH_LEGEND)
    if only is None:
        results += run_pgx(rounds, seconds, batch_size)
    else:
        print("beside pgx: a full bench --batch run only (no --only)")
    return results


def _batch_row(preset, ours, cpp, rounds, seconds, batch_size) -> dict:
    """One preset's line of `bench --batch`: the best of `rounds` rounds of
    each kind of batched play (plain, the tensor in float32 and in the
    compact dtype, the floor) beside the C++ loop's plain and tensor play."""
    from fogboard_games import batch

    game = pyspiel.load_game(cpp) if cpp else None
    if preset in OWN_LOOP:
        game = batch.make(preset, batch_size=1).game  # our pyspiel game
        cpp = f"ours: {preset}"
    # One environment per kind of play: the plain one never builds its tensors.
    plays = {
        kind: BatchPlay(
            batch.make(ours, batch_size=batch_size, seed=0, dtype=dtype), kind != "plain"
        )
        for kind, dtype in (("plain", None), ("tensor", None), ("compact", compact_dtype(ours)))
    }
    # The floor where a target is set beside a C++ twin (its stand-in arrays
    # would double the memory of the games whose tensors are largest).
    if game is not None and preset not in OWN_LOOP:
        floor_env = batch.make(ours, batch_size=batch_size, seed=0)
        plays["floor"] = BatchPlay(floor_env, False, floor=Floor(floor_env))
    for play in plays.values():
        play.rate(seconds / SLICES)  # (warm: the first tensors, the buffers)
    best: dict = {}
    # Each round: plain play beside C++'s plain loop, then the tensor reads
    # (and the floor) beside C++'s tensor loop, slice by slice.
    for r in range(rounds):
        for tensor, kinds in ((False, ("plain",)), (True, ("tensor", "compact", "floor"))):
            who = [k for k in kinds if k in plays]
            measures = [lambda k, p=plays[w]: p.rate(seconds / SLICES) for w in who]
            if game is not None:
                mode = "tensor()" if tensor else "plain"
                who.append("cpp_tensor" if tensor else "cpp_plain")
                measures.append(
                    lambda k, g=game, m=mode, r=r: playout_rate(
                        g, seconds / SLICES, m, r * SLICES + k, decisions_only=True
                    )
                )
            for name, rate in zip(who, interleaved(measures, SLICES)):
                best[name] = max(best.get(name, 0.0), rate)
    row = {
        "preset": preset,
        "cpp": cpp,
        "plain_batch": best["plain"],
        "tensor_batch": best["tensor"],
        "compact_batch": best["compact"],
        "compact_dtype": plays["compact"].env.dtype.name,
        "plain_cpp": best.get("cpp_plain"),
        "tensor_cpp": best.get("cpp_tensor"),
        "floor_batch": best.get("floor"),
        "bytes_per_row": plays["tensor"].env.memory_per_row(),
    }
    for kind, against in (("plain", "plain"), ("tensor", "tensor"), ("compact", "tensor")):
        num, den = row[f"{kind}_batch"], row[f"{against}_cpp"]
        row[f"{kind}_ratio"] = num / den if den else None
    row["floor_ratio"] = row["floor_batch"] / row["tensor_cpp"] if "floor" in plays else None
    return row


def compact_dtype(game) -> str:
    """The smallest dtype that holds a game's information-state tensor: bool
    where every value is 0 or 1, else uint8."""
    from fogboard_games import batch

    env = batch.make(game, batch_size=1)
    return "bool" if env._max_value("information_state") <= 1 else "uint8"


def run_pgx(rounds: int, seconds: float, batch_size: int) -> list[dict]:
    """The pgx table (PGX_PAIRS), or a note when pgx is not installed."""
    if load_pgx() is None:
        print("beside pgx: skipped, pgx is not installed (pip install pgx; CPU jax is enough)")
        return []
    from fogboard_games import batch

    print(
        f"\nbeside pgx on CPU at batch {batch_size}: best of {rounds} rounds of {seconds}s, "
        f"each in {SLICES} slices alternating ours and pgx; plies/s and plies per CPU second"
    )
    head = ""
    for kind in ("", " obs"):
        head += f"{'ours' + kind:>11}{'/cpu':>10}{'pgx' + kind:>11}{'/cpu':>10}{'ratio':>7}"
    print(f"{'game':<21}{'pgx':<13}{head}{'ratio/cpu':>10}{'bytes/row':>10}{'pgx':>6}")
    results = []
    for ours, name, env_id, size in PGX_PAIRS:
        plays = {}
        for tensor in (False, True):
            pgx_play = PgxPlay(env_id, size, batch_size, tensor)
            pgx_play.rate(seconds / SLICES)  # (warm)
            plays["pgx", tensor] = pgx_play
            if ours is not None:
                form = dict(observation="observation", dtype=bool) if tensor else {}
                try:
                    env = batch.make(ours, batch_size=batch_size, seed=0, **form)
                except ValueError:  # (a view with counts: Mind Bluff's debts)
                    form["dtype"] = np.uint8
                    env = batch.make(ours, batch_size=batch_size, seed=0, **form)
                play = plays["ours", tensor] = BatchPlay(env, tensor)
                play.rate(seconds / SLICES)
        best: dict = {}  # (who, tensor): (wall, cpu) rates of the best round
        for _ in range(rounds):
            for tensor in (False, True):
                who = [w for w in ("ours", "pgx") if (w, tensor) in plays]
                sums = {w: [0.0, 0.0] for w in who}
                for _ in range(SLICES):  # ours and pgx alternating, slice by slice
                    for w in who:
                        play = plays[w, tensor]
                        sums[w][0] += play.rate(seconds / SLICES) / SLICES
                        sums[w][1] += play.cpu_rate / SLICES
                for w in who:
                    if sums[w][0] > best.get((w, tensor), (0.0,))[0]:
                        best[w, tensor] = tuple(sums[w])
        row = {"game": name, "pgx": env_id if size is None else f"{env_id}({size}x{size})"}
        line = f"{name:<21}{row['pgx']:<13}"
        for tensor, kind in ((False, "plain"), (True, "obs")):
            ours_rate, pgx_rate = best.get(("ours", tensor)), best["pgx", tensor]
            ratio = ours_rate[0] / pgx_rate[0] if ours_rate else None
            cpu_ratio = ours_rate[1] / pgx_rate[1] if ours_rate else None
            row[kind] = {"ours": ours_rate, "pgx": pgx_rate, "ratio": ratio, "cpu_ratio": cpu_ratio}
            line += cell(ours_rate and ours_rate[0], 11, 0) + cell(
                ours_rate and ours_rate[1], 10, 0
            )
            line += f"{pgx_rate[0]:>11.0f}{pgx_rate[1]:>10.0f}{cell(ratio, 7, 1)}"
        row["bytes_per_row"] = plays["ours", True].env.memory_per_row() if ours else None
        row["pgx_bytes_per_row"] = plays["pgx", True].bytes_per_row
        cpu_ratios = "/".join(
            f"{row[k]['cpu_ratio']:.1f}" for k in ("plain", "obs") if row[k]["cpu_ratio"]
        )
        line += f"{cpu_ratios or '-':>10}{cell(row['bytes_per_row'], 10, 0)}{row['pgx_bytes_per_row']:>6}"
        print(line, flush=True)
        results.append(row)
    print(PGX_LEGEND)
    return results
