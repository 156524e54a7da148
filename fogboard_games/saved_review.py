"""A saved review, as `review FILE` shows it (docs/reviews.md#the-review-command).

    python -m fogboard_games review game.json
    python -m fogboard_games review game.json --html game.html

A review saved to a file (by `play --save`, `league --save-games`, or any
`json.dump(state.review())`) is read here as plain JSON (never unpickled),
bounded in size, nesting and int length, and rebuilt through the rules by
`fogboard_games.load_review`; then either its Truth Replay is printed, one
line or block per turn with every hidden fact shown, or its review page is
written (docs/pages.md). Named for the file it reads: core/review.py is the
review format itself (building, checking and loading a review object) and
each game's review.py its own fields and Truth Replay; this module is only
the file and the command.
"""

from __future__ import annotations

import codecs

import fogboard_games
from fogboard_games.core import files
from fogboard_games.core.guards import JSONTextError, parse_json, shortened
from fogboard_games.core.review import SEAT_KINDS


class SavedReviewError(ValueError):
    """A saved review that cannot be read or shown, or an --html that cannot
    be written: the one line `review` prints before exiting with status 2."""


# A review is a few kB (a random liars-dice-table game about 30): anything
# far larger is not one, and is refused before it is read whole (/dev/zero).
MAX_REVIEW_BYTES = 16 * 2**20


def read_review(path: str):
    """The finished state a saved review rebuilds (SavedReviewError, one line, if it cannot be read).

    The text is read as bytes up to a bound and parsed by the loaders'
    shared `parse_json` (nesting bounded, a key given twice refused, as the
    boards' engine log reader refuses it), ints longer than any 64-bit one
    refused as they are parsed (Python refuses to convert 4,300 digits), so
    a hostile file meets a message, never a traceback.
    """
    where = f"cannot read a review from {path}"
    try:
        data = files.read_regular(path, MAX_REVIEW_BYTES)  # (never a pipe: it would block)
    except OSError as e:
        raise SavedReviewError(
            f"{where}: {e.strerror or e}; a review is a file as play --save writes it"
        ) from None
    if len(data) > MAX_REVIEW_BYTES:
        raise SavedReviewError(
            f"{where}: larger than {MAX_REVIEW_BYTES} bytes; a review is a few kB"
        )
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0  # (as editors write)
    try:
        text = data[bom:].decode("utf-8")
    except UnicodeDecodeError as e:
        at = bom + e.start  # (the file's own offset)
        raise SavedReviewError(
            f"{where}: byte {at} (0x{data[at]:02x}) is not UTF-8; a review is UTF-8 JSON"
        ) from None

    def parse_int(digits: str) -> int:
        if len(digits.lstrip("-")) > 20:  # (ints up to 20 digits reach the field checks)
            raise SavedReviewError(
                f"{where}: an int of {len(digits.lstrip('-'))} digits; a review's ints have "
                "at most 64 bits"
            )
        return int(digits)

    try:
        review = parse_json(text, "a review", parse_int=parse_int)
    except JSONTextError as e:
        raise SavedReviewError(f"{where}: {e}") from None
    try:
        return review, fogboard_games.load_review(review)
    except ValueError as e:
        raise SavedReviewError(f"{path}: {shortened(e)}") from None


def truth_replay(path: str) -> str:
    """The Truth Replay of a saved review: checked through the rules first."""
    review, state = read_review(path)
    ruleset = state.get_game().ruleset
    if ruleset.truth_replay is None:
        raise SavedReviewError(f"{ruleset.short_name} has no Truth Replay")
    header = f"{state.get_game()}: returns {state.returns()}"
    if SEAT_KINDS in review:  # (checked by the loader: one name per seat)
        label = ruleset.seat_label or (lambda p: f"seat {p}")
        header += "\nseats: " + "; ".join(
            f"{label(p)}: {kind}" for p, kind in enumerate(review[SEAT_KINDS])
        )
    return header + "\n" + ruleset.truth_replay(review)


def write_page(path: str, out: str) -> str:
    """Write the review page of a saved review to `out` (docs/pages.md): the
    review is checked through the rules first, as `review FILE` checks it,
    and `out` is refused before any work if it cannot be written or is the
    review itself."""
    from fogboard_games import pages

    try:
        files.check_writable(out, "--html")
        files.check_distinct({"the review": path, "--html": out})
    except ValueError as e:
        raise SavedReviewError(str(e)) from None
    review, _ = read_review(path)
    try:
        pages.write_review_page(review, out)
    except OSError as e:
        raise SavedReviewError(f"--html {out!r}: {e.strerror or e}") from None
    return f"review page written to {out}"
