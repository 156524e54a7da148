"""PNG screenshots of each ruleset's review page and of the league page,
for docs/pages.md and docs/league.md.

    python examples/screenshots.py [OUT_DIR]   # default docs/img

Plays one seeded random game of each preset below, writes its review page
and photographs it at a middle turn in headless Chromium (Debian's
`chromium`, driven by playwright; see tests/browser.py); then runs a small
league of the baselines and photographs its page. `shoot(html_path,
png_path)` photographs any self-contained page.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

import fogboard_games
from fogboard_games import league, pages
from fogboard_games.core.testing import finished_game
from fogboard_games.pages.league import league_page

PRESETS = {
    "phantom-ttt-3": 1,
    "dark-hex-5": 1,
    "recon-hex-5": 1,
    "liars-dice": 1,
    "mind-bluff": 2,
    "mind-bluff-series": 1,
    "parley": 1,
}


def random_review(preset: str, seed: int) -> dict:
    """The review of one seeded random game of `preset`."""
    return finished_game(fogboard_games.load(preset), seed).review()


def chromium() -> str:
    path = os.environ.get("FOGBOARD_CHROMIUM") or shutil.which("chromium")
    if not path:
        sys.exit("screenshots need Debian's Chromium (as root: apt-get install chromium)")
    return path


def shoot(html_path: str, png_path: str, fragment: str = "", size=(1000, 700)) -> None:
    """Photograph the page at `html_path` (opened as file://, plus `fragment`)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=chromium(), headless=True, args=["--no-sandbox"]
        )
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        page.goto("file://" + os.path.abspath(html_path) + fragment)
        page.screenshot(path=png_path)
        browser.close()
    small(png_path)


def small(png_path: str, colors: int = 64) -> None:
    """Rewrite the PNG with a palette of `colors` (a page's few flat colours
    survive; the file shrinks to a few tens of kB), when Pillow, which
    matplotlib brings, is installed."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(png_path) as image:
        reduced = image.convert("RGB").quantize(colors)
    reduced.save(png_path, optimize=True)


def main(out: str = "docs/img") -> None:
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        for preset, seed in PRESETS.items():
            review = random_review(preset, seed)
            page = os.path.join(work, f"{preset}.html")
            pages.write_review_page(review, page)
            turn = len(review["actions"]) * 2 // 3  # far enough in to show the game
            png = os.path.join(out, f"replay-{preset}.png")
            shoot(page, png, f"#turn={turn}")
            print(f"{png}: {os.path.getsize(png)} bytes")
        # The league page of the baselines on two boards (ratings need two kinds).
        report = league.run(
            ["phantom-ttt-3", "dark-hex-4"], ["random", "heuristic"], 20, seed=0, progress=False
        )
        page = os.path.join(work, "league.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write(league_page(report))
        png = os.path.join(out, "league.png")
        shoot(page, png, size=(1000, 1100))
        print(f"{png}: {os.path.getsize(png)} bytes")


if __name__ == "__main__":
    main(*sys.argv[1:2])
