"""What core checks once for every ruleset (issue 18, item 4): a count's or a
seat's type by `core.params.is_int`."""

import numpy as np

from fogboard_games.core.params import is_int

# ---- is_int --------------------------------------------------------------------------


def test_is_int_means_an_int_that_is_not_a_bool():
    assert all(is_int(x) for x in (0, -3, 2**70))
    # numpy ints were refused as seats, seeds and counts before: still so.
    for x in (True, False, 1.0, "1", None, np.int64(1), [1]):
        assert not is_int(x), x
