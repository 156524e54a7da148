"""The command line's bench and tour run and report every preset they are asked for.

These check what the commands print and return, never how fast anything
is: speed is measured by `python -m fogboard_games bench`, not by tests.
"""

import fogboard_games
from fogboard_games.__main__ import main
from fogboard_games.bench import run


def test_bench_measures_ours_beside_cpp(capsys):
    results = run(rounds=1, seconds=0.02, only=["phantom-ttt-3", "recon-hex-5"])
    by_preset = {r["preset"]: r for r in results}
    assert set(by_preset) == {"phantom-ttt-3", "recon-hex-5"}
    ttt = by_preset["phantom-ttt-3"]
    assert ttt["cpp"] == "phantom_ttt"
    assert ttt["plain_ours"] > 0 and ttt["plain_cpp"] > 0 and ttt["clone_ours_us"] > 0
    assert by_preset["recon-hex-5"]["cpp"] is None  # an original variant: no C++ twin
    out = capsys.readouterr().out
    assert "worst plain ratio" in out and "recon-hex-5" in out


def test_tour_plays_every_preset(capsys):
    assert main(["tour"]) == 0
    out = capsys.readouterr().out
    for name in fogboard_games.PRESETS:
        assert name in out


def test_bench_workloads_flag_measures_the_string_workload(capsys):
    assert main(["bench", "--workloads", "--rounds", "1", "--seconds", "0.01"]) == 0
    out = capsys.readouterr().out
    for preset in ("dark-hex-5", "phantom-ttt-3", "liars-dice-classic-1"):
        assert preset in out
    assert "worst string-workload ratio" in out
    # parley has no C++ counterpart: measured alone, - for C++ and the ratio.
    [row] = [line.split() for line in out.splitlines() if line.startswith("parley ")]
    assert row[1] == "-" and float(row[2]) > 0 and row[3:] == ["-", "-"], out
    # Then MCCFR and IS-MCTS, ours beside C++.
    for workload in ("mccfr liars-dice-classic-1", "ismcts dark-hex-5", "ismcts phantom-ttt-3"):
        [line] = [line for line in out.splitlines() if line.startswith(workload)]
        assert float(line.split()[-1]) > 0, line
    assert "worst search ratio" in out


def test_workload_slices_alternate_ours_and_cpp():
    from fogboard_games.bench import interleaved

    calls = []

    def measure(label, rates):
        def rate(k):
            calls.append((label, k))
            return rates[k]

        return rate

    means = interleaved([measure("ours", [1.0, 3.0, 5.0]), measure("cpp", [2.0, 2.0, 8.0])], 3)
    assert means == [3.0, 4.0]
    # Slice by slice, so both meet the machine in the same state.
    assert calls == [("ours", 0), ("cpp", 0), ("ours", 1), ("cpp", 1), ("ours", 2), ("cpp", 2)]
