"""Every Python example in README.md runs as written (they share one namespace, in order)."""

import pathlib
import re

from test_docs import fenced_blocks  # the same fence reader as the docs pages

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def test_readme_fences_are_closed_and_quickstart_is_the_ci_command():
    text = README.read_text()
    blocks = fenced_blocks(text, "README.md")  # fails on a fence left open
    quickstart = text.split("## Quickstart", 1)[1]
    first = fenced_blocks(quickstart, "README.md Quickstart")[0][1]
    # .ci/run runs the second line verbatim.
    assert first.splitlines() == [
        "pip install . && python -m fogboard_games league",
        'pip install ".[test]" && python -m pytest',
    ]
    assert sum(info == "python" for info, *_ in blocks) >= 5
    # .ci/run proves both, each in a fresh virtual environment of its own.
    ci = (README.parent / ".ci" / "run").read_text()
    assert all(command in ci for command in first.splitlines())
    assert ci.count("\nfresh ") == 2 and "python3 -m venv" in ci


def test_readme_names_every_command():
    from fogboard_games.__main__ import build_parser

    parser = build_parser()
    (commands,) = [a for a in parser._actions if a.dest == "command"]
    text = README.read_text().split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    missing = [name for name in commands.choices if f"`{name}`" not in text]
    assert not missing, f"README.md's Quickstart does not name {missing}"


def test_readme_python_blocks_run(capsys):
    blocks = [
        body
        for (info, body, *_) in fenced_blocks(README.read_text(), "README.md")
        if info == "python"
    ]
    assert len(blocks) >= 5
    namespace: dict = {}
    outputs = []
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)  # our own README, not user data
        outputs.append(capsys.readouterr().out)
    # X's stone at c3 is invisible to O.
    assert "O (seat 1) view" in outputs[0] and "x" not in outputs[0].split("log:")[0]
    # CFR+ on 2x2 dark hex gets close to equilibrium in 200 iterations.
    nash_conv = float(outputs[2].split()[-1])
    assert 0 <= nash_conv < 0.01
    # The IS-MCTS bot answers with a cell of the board.
    assert re.fullmatch(r"[abc][123]", outputs[3].strip())


def test_every_install_hint_works_from_the_checkout():
    # The package is on no index: `pip install "fogboard_games[gym]"` finds
    # nothing, `pip install ".[gym]"` in the checkout installs the extra.
    root = README.parent
    files = [README, *(root / "docs").glob("*.md"), *(root / "examples").rglob("*.py")]
    files += list((root / "fogboard_games").rglob("*.py"))
    wrong = [str(f.relative_to(root)) for f in files if "fogboard_games[" in f.read_text()]
    assert not wrong, f"install hints naming the package on an index: {wrong}"
