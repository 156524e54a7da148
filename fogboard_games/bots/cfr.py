"""The `cfr` bot: a CFR+ policy of a small preset, solved once, kept on disk (docs/bots.md#cfr).

The first bot of a game runs CFR+ for `iterations` iterations on the
game's tree as arrays (fogboard_games.solve, docs/solving.md: OpenSpiel's
CFRPlusSolver schedule, as close to equilibrium in as many iterations, in a
second or two where the C++ solver on `cached_tree` took up to minutes),
reads the average policy at every information state off the tree, and
writes it as JSON to the cache
directory (`$FOGBOARD_GAMES_CACHE`, else `~/.cache/fogboard_games`); later
bots, in this process or another, read the file. The file is plain JSON
with a sha256 of its body, written whole (core/files.py: processes that
solve at once each rename a whole file over it) and checked before use,
never unpickled: a damaged file (cut short, not JSON, a sha256 that does
not match) is reported once and solved again; a whole file that is not
this game's policy (format, game, solver settings, every entry a
distribution; at each move, over that state's legal actions) is refused
with the reason, naming the file.

The bot samples its move from the policy at its seat's information state
(an RNG seeded by its seed, the games it has started and that string), so
it decides from what its seat knows alone. Games: the small presets in
CFR_PRESETS, each with the iterations its first solve runs by default.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import pathlib
import warnings

from fogboard_games.bots.base import SeatBot
from fogboard_games.core import files, registry
from fogboard_games.core.params import is_int

# v2: a sha256 of the body; v3: solved by fogboard_games.solve (the C++ solver
# it replaced rounds ties otherwise, so a v2 file holds other numbers)
FORMAT = "fogboard_games.cfr_policy.v3"
SOLVER = "cfr+"
# Presets small enough to solve, and the CFR+ iterations of a first solve
# (a second or two each here, the tree's build included).
CFR_PRESETS = {
    "mind-bluff-tiny": 200,
    "parley-tiny": 100,
    "liars-dice-classic-1": 50,
    "liars-dice-1": 50,
}

_SOLVED: dict[str, dict] = {}  # path -> policy, per process
_WARNED: set[tuple[str, str]] = set()  # (what, path) warned of, per process


def cache_dir() -> pathlib.Path:
    return pathlib.Path(
        os.environ.get("FOGBOARD_GAMES_CACHE") or pathlib.Path.home() / ".cache" / "fogboard_games"
    )


_PRESET_TEXTS: dict[str, str] = {}  # str(game) of each CFR preset -> its name


def _preset_of(game) -> str | None:
    """The CFR_PRESETS name of `game`'s configuration (every parameter), or None."""
    if not _PRESET_TEXTS:
        _PRESET_TEXTS.update({str(registry.load(n)): n for n in CFR_PRESETS})
    return _PRESET_TEXTS.get(str(game))


def policy_path(game, iterations: int) -> pathlib.Path:
    # The format is in the name: another version's files sit beside, not in the way.
    key = f"{game}|{SOLVER}|{iterations}|{FORMAT}".encode()
    return cache_dir() / f"cfr-{hashlib.sha256(key).hexdigest()[:20]}.json"


def solve(game, iterations: int) -> dict[str, list[tuple[int, float]]]:
    """CFR+'s average policy after `iterations`, per information-state string."""
    from fogboard_games import solve as solver

    tree = solver.Tree(game)
    probs = solver.CFRPlus(tree).run(iterations).average_policy().probs
    start, action = tree.seq_start, tree.seq_action
    return {
        key: [(int(a), float(p)) for a, p in zip(action[lo:hi], probs[lo:hi])]
        for key, lo, hi in zip(tree.infoset_string, start[:-1], start[1:])
    }


class CorruptCache(ValueError):
    """A cache file damaged or cut short: solved again and rewritten (docs/bots.md#cfr)."""


def _digest(body: dict) -> str:
    """The sha256 of `body` as canonical JSON: floats and ints read back write the same."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()


def encode_policy(game, iterations: int, policy: dict) -> str:
    """The cache file's text of `policy`: its header, entries and their sha256."""
    body = {
        "format": FORMAT,
        "game": str(game),
        "solver": SOLVER,
        "iterations": iterations,
        "policy": {k: [list(x) for x in v] for k, v in policy.items()},
    }
    return json.dumps({**body, "sha256": _digest(body)})


def load_policy(path: pathlib.Path, game, iterations: int) -> dict:
    """The policy a cache file holds, after checking it.

    CorruptCache if the file cannot be read whole (not JSON, cut short, not
    the file's shape, a sha256 that does not match: damage a crash or a disk
    leaves, re-solved); ValueError if a whole file is not what its name
    promises (another game or solver, an entry not a distribution: made by
    something other than this module, refused). FileNotFoundError if absent.
    """
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (FileNotFoundError, NotADirectoryError):
        raise FileNotFoundError(path) from None  # absent, or a file where a folder is
    except (OSError, ValueError, RecursionError) as e:
        # (json and UTF-8 decoding errors are ValueErrors.)
        raise CorruptCache(f"{path}: not a readable JSON policy ({e})") from None
    if not isinstance(data, dict) or not isinstance(data.get("sha256"), str):
        raise CorruptCache(f"{path}: not a cfr policy file (no sha256 of its body)")
    body = {k: v for k, v in data.items() if k != "sha256"}
    try:
        digest = _digest(body)
    except (TypeError, ValueError, RecursionError):
        digest = None
    if digest != data["sha256"]:
        raise CorruptCache(f"{path}: its body does not match its sha256 (cut short or changed)")
    want = {"format": FORMAT, "game": str(game), "solver": SOLVER, "iterations": iterations}
    if any(body.get(k) != v for k, v in want.items()):
        raise ValueError(
            f"{path}: not the {SOLVER} policy of {game} after {iterations} iterations; "
            "delete it to re-solve"
        )
    table = body.get("policy")
    if not isinstance(table, dict):
        raise ValueError(f"{path}: 'policy' must map information states to distributions")
    out = {}
    for key, entry in table.items():
        ok = (
            isinstance(entry, list)
            and entry
            and all(
                isinstance(x, list)
                and len(x) == 2
                and type(x[0]) is int
                and isinstance(x[1], (int, float))
                and not isinstance(x[1], bool)
                and 0 <= x[1] <= 1
                for x in entry
            )
        )
        if not ok or not math.isclose(sum(p for _, p in entry), 1.0, abs_tol=1e-6):
            raise ValueError(f"{path}: the entry of {key[:60]!r} is not a distribution")
        out[key] = [(a, float(p)) for a, p in entry]
    return out


def _warn_once(what: str, path: pathlib.Path, message: str) -> None:
    """Warn of `what` at `path` once per process: a league's every bot would say it again."""
    if (what, str(path)) not in _WARNED:
        _WARNED.add((what, str(path)))
        warnings.warn(message, RuntimeWarning, stacklevel=4)


def policy_for(game, iterations: int) -> dict:
    """The policy of `game`: from this process, the cache file, or a new solve."""
    path = policy_path(game, iterations)
    policy = _SOLVED.get(str(path))
    if policy is not None:
        return policy
    try:
        policy = load_policy(path, game, iterations)
    except FileNotFoundError:
        pass
    except CorruptCache as e:
        _warn_once("damaged", path, f"{e}; solving it again")
    if policy is None:
        policy = solve(game, iterations)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Written whole, then renamed: league workers may solve at once, and
            # a reader sees the old file or the new one, never half of one.
            files.write_atomically(str(path), encode_policy(game, iterations, policy))
        except OSError as e:
            _warn_once(
                "unwritable",
                path,
                f"{path}: cannot write the cfr cache ({e}); kept in this process",
            )
    _SOLVED[str(path)] = policy
    return policy


class CFRBot(SeatBot):
    """Plays CFR+'s average policy of a small preset (see the module)."""

    kind = "cfr"

    @staticmethod
    def plays(game) -> bool:
        return _preset_of(game) is not None

    def __init__(self, game, player, seed=0, iterations=None):
        super().__init__(game, player, seed)
        preset = _preset_of(game)
        if preset is None:
            raise ValueError(
                f"the cfr bot plays the small presets {', '.join(CFR_PRESETS)}, not {game}"
            )
        if iterations is None:
            iterations = CFR_PRESETS[preset]
        if not is_int(iterations) or iterations < 1:
            raise ValueError(f"iterations must be a positive int, got {iterations!r}")
        self.iterations = iterations
        self.policy = policy_for(game, iterations)

    def decide(self, state) -> int:
        key = state.information_state_string(self.player)
        entry = self.policy.get(key)
        legal = state.legal_actions()
        if entry is None or sorted(a for a, _ in entry) != legal:
            # A file from another version of the game, or edited: its entries
            # are distributions (load_policy), but not over this state's moves.
            what = "no entry" if entry is None else "an entry not over the legal actions"
            raise ValueError(
                f"{policy_path(self.game, self.iterations)}: the cfr policy has {what} for "
                f"{key[:60]!r} (legal: {legal}); delete the file to re-solve"
            )
        actions, probs = zip(*entry)
        return self.rng(key).choices(actions, probs)[0]
