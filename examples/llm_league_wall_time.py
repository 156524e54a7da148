"""A league's wall time against a language model that takes a second a reply, by --workers.

Language-model seats spend their time waiting on the endpoint, so the
league plays their games on threads (`--workers`), one game a job
(docs/league.md#language-model-seats). This runs the same league against
an OpenAI-compatible stand-in (tests/llm_server.py, on 127.0.0.1) that
answers each prompt with a legal move after `--delay` seconds, once per
worker count, and prints each run's wall time, the requests it made and
whether the tables agree (the stand-in's replies are a function of the
prompt, so they must).

    python examples/llm_league_wall_time.py                  # 1 s a reply, 1 and 8 workers
    python examples/llm_league_wall_time.py --delay 0.2 --workers 1,2,4,8
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import llm_server  # noqa: E402  (the stand-in the tests use)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delay", type=float, default=1.0, help="seconds the model takes a reply")
    parser.add_argument("--workers", default="1,8", help="comma-separated worker counts")
    parser.add_argument("--games", default="liars-dice-1,phantom-ttt-3")
    parser.add_argument("--bots", default="heuristic,llm:steady")
    parser.add_argument("--episodes", type=int, default=4)
    args = parser.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    with (
        tempfile.TemporaryDirectory() as folder,
        llm_server.StandIn(delay=args.delay, seconds=3600) as server,
    ):
        folder = pathlib.Path(folder)
        (folder / "steady.md").write_text("You play steadily: no wild bids, no wild guesses.\n")
        seat = {
            "base_url": server.url,
            "model": "stand-in",
            "api_key_env": None,
            "persona": "steady.md",
            "timeout_s": args.delay + 30,
        }
        (folder / "seats.json").write_text(json.dumps({"steady": seat}))
        tables = []
        print(
            f"league {args.games} with {args.bots}, {args.episodes} episodes per seat "
            f"assignment; the model replies after {args.delay:g} s"
        )
        for workers in counts:
            out = folder / f"league-{workers}.json"
            asked = len(server.requests)
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "fogboard_games", "league", "--games", args.games]
                + ["--bots", args.bots, "--episodes", str(args.episodes)]
                + ["--workers", str(workers), "--llm-config", str(folder / "seats.json")]
                + ["--out", str(out)],
                capture_output=True,
                text=True,
                env=dict(os.environ, PYTHONPATH=str(ROOT)),
            )
            wall = time.perf_counter() - start
            if done.returncode != 0:
                sys.exit(f"the league failed: {done.stderr.strip()}")
            tables.append(json.loads(out.read_text())["table"])
            requests = len(server.requests) - asked
            print(f"--workers {workers}: {wall:6.1f} s wall, {requests} requests to the model")
        print("the tables agree" if all(t == tables[0] for t in tables) else "the tables differ!")


if __name__ == "__main__":
    main()
