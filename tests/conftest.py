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


@pytest.fixture(scope="session")
def _chromium():
    """One headless system Chromium for the session (tests/browser.py)."""
    import browser

    browser.skip_or_fail()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        chromium = driver.chromium.launch(
            executable_path=browser.chromium_path(), headless=True, args=["--no-sandbox"]
        )
        yield chromium
        chromium.close()


@pytest.fixture
def watched_page(_chromium):
    """A fresh browser page (tests/browser.py Watched): the test fails if the
    page logged a console error or raised an uncaught script error."""
    import browser

    context = _chromium.new_context()
    watched = browser.Watched(context.new_page())
    yield watched
    context.close()
    watched.check()
