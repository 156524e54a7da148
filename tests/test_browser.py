"""The browser the page tests drive (tests/browser.py) really runs pages and
really catches their errors: a page that throws fails the test."""

from __future__ import annotations

import browser
import pytest


def test_a_page_runs_its_script_and_a_click_reaches_it(watched_page):
    page = watched_page.page
    page.set_content(
        "<button id=b onclick=\"document.getElementById('out').textContent='clicked'\">go</button>"
        "<p id=out></p>"
    )
    page.click("#b")
    assert page.text_content("#out") == "clicked"


def test_a_script_error_and_a_console_error_are_both_caught(_chromium):
    context = _chromium.new_context()
    watched = browser.Watched(context.new_page())
    watched.page.set_content("<script>console.error('bad'); undefinedFunction();</script>")
    context.close()
    with pytest.raises(AssertionError, match="console.error: bad") as caught:
        watched.check()
    assert "undefinedFunction" in str(caught.value)


def test_without_a_browser_the_skip_names_what_to_install(monkeypatch):
    monkeypatch.setattr(browser, "chromium_path", lambda: None)
    monkeypatch.setattr(browser, "REQUIRED", False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        browser.skip_or_fail()
    monkeypatch.setattr(browser, "REQUIRED", True)
    with pytest.raises(pytest.fail.Exception, match="FOGBOARD_BROWSER_REQUIRED"):
        browser.skip_or_fail()
