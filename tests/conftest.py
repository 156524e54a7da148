"""What every test shares: the bot kinds table is put back after each test.

Examples and tests register kinds of their own (examples/small_league.py
registers an `ismcts-N` kind); left in the table, one would be played by
every later test that loops over `kinds_for`, and the suite would pass or
fail by the order it runs in.
"""

from __future__ import annotations

import pytest

from fogboard_games import bots


@pytest.fixture(autouse=True)
def _bot_kinds_put_back():
    saved = dict(bots.BOT_KINDS)
    yield
    if bots.BOT_KINDS != saved:
        bots.BOT_KINDS.clear()
        bots.BOT_KINDS.update(saved)
