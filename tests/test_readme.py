"""Every Python example in README.md runs as written (they share one namespace, in order)."""

import pathlib
import re

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_blocks_run(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
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
