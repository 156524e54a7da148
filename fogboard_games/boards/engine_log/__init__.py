"""The original engine's event log, fogboards.replay.v1 (docs/boards_bots_and_engine_logs.md).

`to_engine_log` / `dumps` write a finished board game as one; `from_engine_log`,
`read_engine_log` and `loads` read one back by re-deriving every ply through
the rules, refusing with an `EngineLogError` (a ValueError) anything else. The
package is split by job: `shape` (the format's names and field checks),
`config` (config <-> our game), `derive` (what the rules derive), `read`,
`write` and `json_text` (strict JSON text).

The engine's protocol calls these replays; here they are engine logs, as
"replay" already names the Truth Replay (the text review) and a review's
page is its review page.
"""

from __future__ import annotations

from fogboard_games.boards.engine_log.config import CONFIG_FIELD, config_of, game_for_config
from fogboard_games.boards.engine_log.derive import (
    derive_results,
    end_round,
    path_problem,
    reason_of,
    scores_of,
    stop_at_deadline,
    win_path,
)
from fogboard_games.boards.engine_log.json_text import dumps, loads, parse
from fogboard_games.boards.engine_log.read import EngineLog, from_engine_log, read_engine_log
from fogboard_games.boards.engine_log.shape import (
    ATTEMPT_EXTRAS,
    CONFIG_KEYS,
    CONFIG_OPTIONAL,
    DEADLINE_ENDING,
    DEFAULT_NAMES,
    EVENT_KEYS,
    KIND_TEXT,
    KINDS,
    MODES,
    PROTOCOL,
    REASONS,
    RESULT_KEYS,
    TOP_KEYS,
    WIN_ENDINGS,
    EngineLogError,
)
from fogboard_games.boards.engine_log.write import TRANSCRIPT_KEYS, to_engine_log
from fogboard_games.core.guards import MAX_DEPTH
from fogboard_games.core.guards import MAX_INT as INT_MAX
from fogboard_games.core.guards import MIN_INT as INT_MIN

__all__ = [
    # What a user calls.
    "PROTOCOL",
    "EngineLog",
    "EngineLogError",
    "dumps",
    "from_engine_log",
    "game_for_config",
    "loads",
    "parse",
    "read_engine_log",
    "stop_at_deadline",
    "to_engine_log",
    # The format's names and the rules' derivations, importable from here
    # as they were when the format was one module.
    "ATTEMPT_EXTRAS",
    "CONFIG_FIELD",
    "CONFIG_KEYS",
    "CONFIG_OPTIONAL",
    "DEADLINE_ENDING",
    "DEFAULT_NAMES",
    "EVENT_KEYS",
    "INT_MAX",
    "INT_MIN",
    "KINDS",
    "KIND_TEXT",
    "MAX_DEPTH",
    "MODES",
    "REASONS",
    "RESULT_KEYS",
    "TOP_KEYS",
    "TRANSCRIPT_KEYS",
    "WIN_ENDINGS",
    "config_of",
    "derive_results",
    "end_round",
    "path_problem",
    "reason_of",
    "scores_of",
    "win_path",
]
