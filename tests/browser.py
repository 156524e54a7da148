"""A real browser for the page tests: Debian's Chromium driven by Playwright.

Playwright's own browser download is not used (nor reachable where CI
runs): the tests drive the system's `chromium`. Without it, or without the
playwright package, a browser test skips with a message naming what to
install, unless FOGBOARD_BROWSER_REQUIRED is set (CI sets it in .ci/run),
which turns the skip into a failure so that the browser tests always run
there. Every page a test opens fails the test on a console error or an
uncaught script error.
"""

from __future__ import annotations

import os
import shutil

import pytest

REQUIRED = os.environ.get("FOGBOARD_BROWSER_REQUIRED", "") not in ("", "0")
INSTALL = (
    "the browser tests need Debian's Chromium (as root: apt-get install chromium) "
    "and the playwright package (pip install playwright; its own browser download "
    "is not needed)"
)


def chromium_path() -> str | None:
    """The system Chromium: $FOGBOARD_CHROMIUM, else chromium on the PATH."""
    given = os.environ.get("FOGBOARD_CHROMIUM")
    if given:
        return given if os.access(given, os.X_OK) else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def missing() -> str | None:
    """Why no browser test can run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return f"playwright is not installed: {INSTALL}"
    if chromium_path() is None:
        return f"no chromium on this machine: {INSTALL}"
    return None


def skip_or_fail() -> None:
    """Skip (or, where FOGBOARD_BROWSER_REQUIRED is set, fail) when no browser can run."""
    why = missing()
    if why is None:
        return
    if REQUIRED:
        pytest.fail(f"FOGBOARD_BROWSER_REQUIRED is set but {why}")
    pytest.skip(why)


class Watched:
    """A page whose console errors and uncaught script errors are collected."""

    def __init__(self, page):
        self.page = page
        self.errors: list[str] = []
        page.on(
            "console",
            lambda msg: (
                self.errors.append(f"console.{msg.type}: {msg.text}")
                if msg.type == "error"
                else None
            ),
        )
        page.on("pageerror", lambda exc: self.errors.append(f"uncaught: {exc}"))

    def check(self) -> None:
        assert not self.errors, "the page reported errors:\n" + "\n".join(self.errors)
