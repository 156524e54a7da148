"""The docs are true to the code: every Python example runs, what an example
prints is what the page shows beside it, every code fence is closed, and the
tensor layouts and parameter tables are the ones the code has."""

from __future__ import annotations

import pathlib
import re

import pytest

import fogboard_games
from fogboard_games.boards.game import SPECS
from fogboard_games.core.observer import piece_table

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
FENCE = re.compile(r"^(\s*)```(.*)$")


def fenced_blocks(text: str, where: str) -> list[tuple[str, str, int, int]]:
    """(info string, body, line numbers of the opening and closing fences) of
    every fenced block. Fails on a fence never closed, and on backticks glued
    to the end of a line ("distToWin: 4" + three backticks closes nothing, so
    the rest of the page renders as code)."""
    blocks = []
    opened = None  # (info string, first line number) while inside a block
    body: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        fence = FENCE.match(line)
        if opened is None:
            assert fence or "```" not in line, (
                f"{where}:{number}: ``` in the middle of a line opens or closes no block: {line!r}"
            )
            if fence:
                opened, body = (fence.group(2).strip(), number), []
        elif fence and not fence.group(2).strip():
            blocks.append((opened[0], "".join(s + "\n" for s in body), opened[1], number))
            opened = None
        else:
            assert "```" not in line, (
                f"{where}:{number}: ``` inside the block opened at line {opened[1]} "
                f"closes nothing: {line!r}"
            )
            body.append(line)
    assert opened is None, f"{where}:{opened[1]}: code fence never closed"
    return blocks


def test_there_are_pages():
    assert {p.name for p in PAGES} >= {"boards.md", "liars_dice.md", "performance.md"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_fence_is_closed_and_tagged(page):
    for info, _, line, _ in fenced_blocks(page.read_text(), page.name):
        # An untagged block reads as "maybe code"; say what it is
        # (python runs in the tests below, text / console do not).
        assert info, f"{page.name}:{line}: tag the block (python, text, console)"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_python_blocks_run_and_print_what_the_page_shows(page, capsys):
    """A page's ```python blocks run in order in one namespace. When a block
    prints and the very next block is ```text, that block is its output."""
    lines = page.read_text().splitlines()
    blocks = fenced_blocks("\n".join(lines), page.name)
    namespace: dict = {"__name__": f"docs.{page.stem}"}
    capsys.readouterr()
    for i, (info, body, opened, closed) in enumerate(blocks):
        if info != "python":
            continue
        code = compile("\n" * opened + body, str(page), "exec")  # line numbers as on the page
        exec(code, namespace)  # our own docs, not user data
        out = capsys.readouterr().out
        shown = blocks[i + 1] if i + 1 < len(blocks) else None
        # Only blank lines between the two blocks: the second shows the output.
        if (
            out
            and shown
            and shown[0] == "text"
            and not "".join(lines[closed : shown[2] - 1]).strip()
        ):
            assert out == shown[1], (
                f"{page.name}:{shown[2]} shows\n{shown[1]}but the block at line {opened} "
                f"prints\n{out}"
            )


def test_board_tensor_tables_match_the_code():
    text = (DOCS / "boards.md").read_text()
    for name in ("phantom-ttt-3", "dark-hex-4", "dark-hex-5", "recon-hex-5"):
        game = fogboard_games.load(name)
        assert piece_table(game.info_layout) in text, name
        assert piece_table(game.obs_layout) in text, name
        assert f"{name}: information state ({game.information_state_tensor_size()} floats)" in text
        assert f"{name}: observation ({game.observation_tensor_size()} floats)" in text


def test_board_parameter_tables_match_the_code():
    text = (DOCS / "boards.md").read_text()
    for spec in SPECS.values():
        assert spec.table() in text, spec.game


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped,
    spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: pathlib.Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(), flags=re.S | re.M)  # not code
    return {slug(h) for h in re.findall(r"^#+ (.*)$", text, re.M)}


def test_links_between_pages_reach_a_page_and_a_heading():
    """Docstrings and pages cite sections as `docs/boards.md#rules`: keep them stable."""
    for page in [ROOT / "README.md", *PAGES]:
        for target, anchor in re.findall(
            r"\]\(([^)#:\s]*\.md)?(?:#([^)\s]+))?\)", page.read_text()
        ):
            if not target and not anchor:
                continue
            path = page.parent / target if target else page
            assert path.exists(), f"{page.name} links to missing {target}"
            if anchor:
                assert anchor in anchors(path), (
                    f"{page.name} links to {target}#{anchor}: no such heading"
                )


def test_sections_other_files_cite_exist():
    wanted = {
        "boards.md": {"rules", "parameters", "actions", "what-each-seat-knows", "tensor-pieces"},
        "liars_dice.md": {
            "rules",
            "parameters",
            "actions",
            "what-each-seat-knows",
            "tensor-pieces",
        },
    }
    for name, headings in wanted.items():
        assert headings <= anchors(DOCS / name), name
