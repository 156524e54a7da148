"""A text seat, the seat a language model can fill, played here by a stand-in.

`make_bot("text", game, seat, seed, ask=ask)` sends each decision's prompt
(the rules in brief, the seat's name, its information state verbatim, its
legal moves, the reply format) to `ask(prompt) -> str` and reads the move
out of the reply. The stand-in below reads the legal moves out of the
prompt and answers; now and then it answers badly, to show the one retry
and, when the retry fails too, the fallback bot. The other seats are
uniform random bots.

    python examples/text_seat.py --preset parley --games 2
    python examples/text_seat.py --preset mind-bluff --show-prompt

Plugging in a real model: wrap the client in a function of the prompt.
Any client will do (an SDK, an HTTP call, a local process); for example,
with a chat-completions server and only the standard library:

    # import json, urllib.request
    #
    # def ask(prompt: str) -> str:
    #     body = {"model": "my-model", "messages": [{"role": "user", "content": prompt}]}
    #     request = urllib.request.Request(
    #         "http://localhost:8000/v1/chat/completions",
    #         data=json.dumps(body).encode(),
    #         headers={"Content-Type": "application/json"},
    #     )
    #     with urllib.request.urlopen(request) as response:
    #         return json.load(response)["choices"][0]["message"]["content"]
    #
    # seat = bots.make_bot("text", game, 0, seed=0, ask=ask, timeout_s=60)

A reply that names no legal move, an exception or a timeout gets one retry,
then the fallback bot (`fallback=`, `heuristic` by default) decides;
`seat.transcript` keeps every prompt, reply and move.
"""

import argparse
import json
import zlib

import fogboard_games
from fogboard_games import bots
from fogboard_games.bots import text

LEGAL_HEADER = text.MOVES_HEADER + "\n"


def stand_in(prompt: str) -> str:
    """A scripted stand-in for a model: a function of the decision's first prompt."""
    first = prompt.split("\n" + text.RETRY_HEADER)[0]  # the retry adds to the first prompt
    retry = first != prompt
    legal = first.split(LEGAL_HEADER, 1)[1].split("\n\n", 1)[0].splitlines()
    h = zlib.crc32(first.encode())
    move = legal[h // 7 % len(legal)]
    kind = h % 7
    if kind == 0:  # hopeless: both tries fail, the fallback decides
        return "I would rather not say."
    if kind == 1 and not retry:  # a move that is not legal: the retry fixes it
        return "say: watch this\nmove: the best move"
    if kind == 2:  # JSON instead of a move line
        return json.dumps({"move": move, "say": "as planned", "notes": f"{len(legal)} choices"})
    return f"Thinking it over.\nsay: {move}, then.\nmove: {move}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--preset", default="parley")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seat", type=int, default=0, help="the text seat")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--fallback", default=None, help="default: heuristic where the game has one, else random"
    )
    parser.add_argument("--show-prompt", action="store_true", help="print the first prompt")
    args = parser.parse_args()
    game = fogboard_games.load(args.preset)
    fallback = args.fallback
    if fallback is None:
        fallback = "heuristic" if "heuristic" in bots.kinds_for(game) else "random"
    seat = bots.make_bot("text", game, args.seat, args.seed, ask=stand_in, fallback=fallback)
    players = [
        seat if p == args.seat else bots.make_bot("random", game, p, args.seed + p)
        for p in range(game.num_players())
    ]
    name = text.seat_label(game, args.seat)
    for g in range(args.games):
        returns = bots.evaluate_bots(game.new_initial_state(), players, args.seed + g)
        t = seat.transcript
        retried = sum(bool(e["problems"]) and not e["fell_back"] for e in t)
        fell_back = sum(e["fell_back"] for e in t)
        print(
            f"game {g + 1}: text seat {name} scored {returns[args.seat]:g}; "
            f"{len(t)} decisions, {retried} mended by the retry, {fell_back} fell back to {fallback}"
        )
        for e in t[:6]:
            how = "fell back" if e["fell_back"] else ("retried" if e["problems"] else "first try")
            said = f" | say: {e['say']}" if e["say"] else ""
            print(f"  move: {e['move']} ({how}){said}")
            for problem in e["problems"]:
                print(f"    problem: {problem}")
        if len(t) > 6:
            print(f"  ... {len(t) - 6} more decisions")
    if args.show_prompt and seat.transcript:
        print("\nthe first prompt of the last game:\n")
        print(seat.transcript[0]["prompt"])


if __name__ == "__main__":
    main()
