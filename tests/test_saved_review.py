"""A saved review read back (`python -m fogboard_games review FILE`): fogboard_games/saved_review.py.

The command line's refusals of bad files are in tests/test_cli.py, the
review page it writes in tests/test_pages_review.py.
"""

from __future__ import annotations

import pytest

from fogboard_games import saved_review


def test_truth_replay_refuses_a_bad_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "fogboard_games.review.v1", "game": "fogboard_parley"}')
    with pytest.raises(saved_review.SavedReviewError, match="bad.json"):
        saved_review.truth_replay(str(bad))
    with pytest.raises(saved_review.SavedReviewError, match="cannot read a review"):
        saved_review.truth_replay(str(tmp_path / "missing.json"))
