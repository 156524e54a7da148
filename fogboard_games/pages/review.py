"""The review page of a finished game: one self-contained HTML file (docs/pages.md).

Named as pages/league.py is for the league page; the review format itself
is core/review.py, the `review` command that writes this page saved_review.py.

The review is rebuilt through the rules (`load_review`, which refuses a
malformed one), then its actions are replayed through the pyspiel game it
names; at every turn the page keeps the true state (`str(state)`) and its
drawing, each seat's information-state string and the spectator's string,
verbatim, with the move and a text seat's words; and who sat in each seat
when the review names them. The strings of one view
grow turn by turn, so each turn stores only how much of the last turn's
string it keeps and what follows (a game of 759 decisions stays a few MB).
All of it is one JSON blob in a `<script type="application/json">`, every
`<` written `\\u003c` so no text can close the script; the page's script
puts it on screen with textContent and createElementNS only, never markup.
"""

from __future__ import annotations

import html
import json

import pyspiel
from open_spiel.python.observation import make_observation

from fogboard_games.core import files
from fogboard_games.core.review import SEAT_KINDS, TEXT_SEATS, load_review
from fogboard_games.pages import assets
from fogboard_games.pages.drawers import drawer_for

# The spectator's observer where the ruleset declares no spectator view.
PUBLIC = pyspiel.IIGObservationType(
    perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
)


def spectator_view(game):
    """state -> the spectator's string: the ruleset's own spectator view
    (`Ruleset.spectator`, given the true match) when it declares one,
    otherwise the public observation string."""
    spectator = getattr(game.ruleset, "spectator", None)
    if spectator is not None:
        return lambda state: spectator(state.truth)
    observer = make_observation(game, PUBLIC)
    return lambda state: observer.string_from(state, 0)


def _delta(before: str, now: str) -> list:
    """[kept, tail]: `now` is before[:kept] + tail, `kept` as long as can be."""
    if now.startswith(before):  # the common case: the string grew
        kept = len(before)
    else:  # the longest common prefix, by halving (slices compare in C, not char by char)
        kept, most = 0, min(len(before), len(now))
        while kept < most:
            mid = (kept + most + 1) // 2
            if before[:mid] == now[:mid]:
                kept = mid
            else:
                most = mid - 1
    return [kept, now[kept:]]


def page_data(review: dict) -> dict:
    """Everything the page shows, turn by turn (ReviewError for a malformed review)."""
    final = load_review(review)
    game = final.get_game()
    ruleset = game.ruleset
    n = game.num_players()
    label = ruleset.seat_label or (lambda p: f"seat {p}")
    spectator = spectator_view(game)
    drawer = drawer_for(game)
    words = review.get(TEXT_SEATS)
    views = ["truth"] + [label(p) for p in range(n)] + ["spectator"]
    last = [""] * len(views)
    turns = []
    state = game.new_initial_state()
    decision = 0

    def frame(move, mover, talk):
        strings = [str(state)]
        strings += [state.information_state_string(p) for p in range(n)]
        strings.append(spectator(state))
        deltas = [_delta(a, b) for a, b in zip(last, strings)]
        last[:] = strings
        return {"move": move, "mover": mover, "talk": talk, "s": deltas, "d": drawer.draw(state)}

    turns.append(frame(None, None, None))
    for action in final.history():
        if state.is_chance_node():
            mover, talk = "chance", None
            move = state.action_to_string(pyspiel.PlayerId.CHANCE, action)
        else:
            seat = state.current_player()
            mover = label(seat)
            move = state.action_to_string(seat, action)
            talk = words[decision] if words is not None else None
            decision += 1
        state.apply_action(action)
        turns.append(frame(move, mover, talk))
    # The winners as the rules' own review states them (the loader has
    # compared the stated review with it), never as the file spells them.
    derived = final.review()

    def seats(value) -> list[str]:
        return [label(p) for p in value if type(p) is int and 0 <= p < n]

    outcome = [f"returns {' '.join(f'{r:g}' for r in final.returns())}"]
    if type(derived.get("winner")) is int and 0 <= derived["winner"] < n:
        outcome.append(f"winner {label(derived['winner'])}")
    if isinstance(derived.get("round_winners"), list):  # Parley (docs/parley.md)
        rounds = [
            f"R{k + 1}: " + (" and ".join(seats(won)) or "none")
            for k, won in enumerate(derived["round_winners"])
            if isinstance(won, list)
        ]
        outcome.append("round winners " + "; ".join(rounds))
    if isinstance(derived.get("match_winners"), list):
        won = seats(derived["match_winners"])
        outcome.append(("a tie: " if len(won) > 1 else "match winner ") + " and ".join(won))
    # Who sat in each seat, by the seat's label, when the review names them
    # (the loader has checked the field: one name per seat).
    kinds = review.get(SEAT_KINDS)
    seated = [f"{label(p)}: {kind}" for p, kind in enumerate(kinds)] if kinds is not None else []
    return {
        "title": str(game),
        "seats": seated,
        "views": views,
        "size": list(drawer.size),
        "base": drawer.base(),
        "turns": turns,
        "outcome": outcome,
        "docs": ruleset.docs,
    }


def script_json(value) -> str:
    """`value` as JSON that is safe inside a <script> element: every `<`
    (and `>` and `&`) escaped, so `</script>` or `<!--` in any string
    cannot end or change the element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def review_page(review: dict) -> str:
    """The review page of `review`, as HTML text (ReviewError if the review is malformed)."""
    data = page_data(review)
    return assets.PAGE.format(
        title=html.escape(f"review: {data['title']}"),
        css=assets.CSS,
        data=script_json(data),
        js=assets.JS,
    )


def write_review_page(review: dict, path: str) -> None:
    """Write the review page of `review` to `path`, whole or not at all; a path
    that cannot be written is refused (ValueError) before the work."""
    files.check_writable(path, "review page")
    files.write_atomically(path, review_page(review))


def page_beside(review_path: str) -> str:
    """The review page kept beside a saved review file: `X.json` -> `X.html`."""
    return review_path.removesuffix(".json") + ".html"
