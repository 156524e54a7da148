"""The search bots (`mcts`, `ismcts`) and the `cfr` bot (docs/bots.md)."""

from __future__ import annotations

import json

import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy

import fogboard_games
from fogboard_games import bots
from fogboard_games.bots import cfr
from fogboard_games.core.testing import play
from fogboard_games.league import play_game


def dice_twins():
    """Liar's Dice states where seat 1, to move, sees the same but seat 0's die differs."""
    game = fogboard_games.load("liars-dice-1")
    a = play(game, ["roll 4", "roll 5", "bid 1x4"])  # the bid holds
    b = play(game, ["roll 2", "roll 5", "bid 1x4"])  # it does not
    assert str(a) != str(b) and a.current_player() == 1
    assert a.information_state_string(1) == b.information_state_string(1)
    return game, a, b


def bluff_twins():
    """mind-bluff-tiny states where P2, to respond, sees the same but P1's eat differs."""
    game = fogboard_games.load("mind-bluff-tiny")
    a = play(game, ["eat 1", "claim 2"])
    b = play(game, ["eat 2", "claim 2"])
    assert str(a) != str(b) and a.current_player() == 1
    assert a.information_state_string(1) == b.information_state_string(1)
    return game, a, b


def parley_twins():
    """parley-tiny states where C2, to act, sees the same but C0's and C1's cards differ."""
    game = fogboard_games.load("parley-tiny")
    mine, rest = "deal C2: friend C1 enemy C0", ["IT C0", "shoot C2 hip", "miss"]
    a = play(game, ["deal C0: friend C1 enemy C2", "deal C1: friend C2 enemy C0", mine, *rest])
    b = play(game, ["deal C0: friend C2 enemy C1", "deal C1: friend C0 enemy C2", mine, *rest])
    assert str(a) != str(b)
    assert a.current_player() == 2
    assert a.information_state_string(2) == b.information_state_string(2)
    return game, a, b


@pytest.mark.parametrize(
    "kind,twins",
    [
        ("ismcts", dice_twins),
        ("ismcts", parley_twins),
        ("ismcts", bluff_twins),
        ("cfr", parley_twins),
        ("cfr", bluff_twins),
    ],
    ids=["ismcts-dice", "ismcts-parley", "ismcts-bluff", "cfr-parley", "cfr-bluff"],
)
def test_fair_bots_decide_from_the_information_state_alone(kind, twins, tmp_path, monkeypatch):
    monkeypatch.setenv("FOGBOARD_GAMES_CACHE", str(tmp_path))
    game, a, b = twins()
    seat = a.current_player()
    options = {"iterations": 5} if kind == "cfr" else {"simulations": 30}
    for seed in range(4):
        one = bots.make_bot(kind, game, seat, seed=seed, **options)
        two = bots.make_bot(kind, game, seat, seed=seed, **options)
        assert one.step(a) == two.step(b)


@pytest.mark.parametrize("twins", [dice_twins, parley_twins, bluff_twins])
def test_the_twins_tell_a_cheater_apart(twins):
    # The twins are worth the test above only if what the seat cannot see
    # matters: the cheating mcts bot, which searches the true state, moves
    # differently on them for some seed.
    game, a, b = twins()
    seat = a.current_player()
    moves = [
        (bots.make_bot("mcts", game, seat, seed=s).step(a),
         bots.make_bot("mcts", game, seat, seed=s).step(b))
        for s in range(4)
    ]  # fmt: skip
    assert any(x != y for x, y in moves), moves


def test_ismcts_seeded_runs_repeat_and_seeds_vary():
    game = fogboard_games.load("liars-dice-1")
    state = play(game, ["roll 3", "roll 5", "bid 1x4"])
    moves = [bots.make_bot("ismcts", game, 1, seed=s, simulations=20).step(state) for s in range(8)]
    again = [bots.make_bot("ismcts", game, 1, seed=s, simulations=20).step(state) for s in range(8)]
    assert moves == again
    assert len(set(moves)) > 1  # the seed reaches the search: different seeds, other moves


def score_against_random(game, kind, games, **options):
    n = game.num_players()
    total = 0.0
    for i in range(games):
        seat = i % n
        seats = [
            bots.make_bot(kind, game, p, seed=i, **options)
            if p == seat
            else bots.make_bot("random", game, p, seed=1000 + i + p)
            for p in range(n)
        ]
        total += play_game(game, seats, seed=i).returns[seat]
    return total / games


def test_ismcts_beats_random_on_liars_dice_1():
    # Measured: +0.50 over 40 games with 100 simulations (random scores 0).
    mean = score_against_random(fogboard_games.load("liars-dice-1"), "ismcts", 60, simulations=100)
    assert mean > 0.2, mean


def test_ismcts_beats_random_on_dark_hex_4():
    # Measured: +0.70 over 20 games with 100 simulations.
    mean = score_against_random(fogboard_games.load("dark-hex-4"), "ismcts", 12, simulations=50)
    assert mean > 0.2, mean


def test_mcts_plays_parley_despite_its_rewards_and_cheats_well():
    """OpenSpiel's MCTSBot refuses intermediate rewards; the bot's view of the
    game reports terminal ones (the returns at the end are the totals)."""
    from open_spiel.python.algorithms import mcts

    game = fogboard_games.load("parley-tiny")
    with pytest.raises(ValueError, match="terminal rewards"):
        mcts.MCTSBot(game, 2.0, 10, mcts.RandomRolloutEvaluator())
    # Random cogs average about 1.5 points on parley-tiny; measured 2.67 for mcts.
    assert score_against_random(game, "mcts", 12, simulations=50) > 1.8


@pytest.mark.parametrize(
    "kind,options,named",
    [
        ("mcts", {"simulations": 0}, "simulations must be a positive int, got 0"),
        ("ismcts", {"rollouts": True}, "rollouts must be a positive int, got True"),
        ("ismcts", {"uct_c": -1}, "uct_c must be a positive number, got -1"),
        ("cfr", {"iterations": 0}, "iterations must be a positive int, got 0"),
    ],
)
def test_bad_options_are_refused(kind, options, named, tmp_path, monkeypatch):
    monkeypatch.setenv("FOGBOARD_GAMES_CACHE", str(tmp_path))
    with pytest.raises(ValueError, match=named):
        bots.make_bot(kind, fogboard_games.load("mind-bluff-tiny"), 0, **options)


def test_cfr_plays_only_the_small_presets():
    with pytest.raises(ValueError, match="the cfr bot plays the small presets mind-bluff-tiny"):
        bots.make_bot("cfr", fogboard_games.load("mind-bluff"), 0)
    assert "cfr" not in bots.kinds_for(fogboard_games.load("parley"))
    assert "cfr" in bots.kinds_for(fogboard_games.load("parley-tiny"))


def test_cfr_policy_is_as_close_to_equilibrium_as_openspiels_cfr_plus():
    """The bot's solve (fogboard_games.solve's CFR+, OpenSpiel's schedule)
    reaches what OpenSpiel's C++ CFRPlusSolver on cached_tree reaches in as
    many iterations, measured by pyspiel.exploitability on both policies. (Not
    equal entry by entry: where a regret ties at zero the two roads' rounding
    parts, and regret matching+ amplifies it; docs/solving.md#algorithms.)"""
    game = fogboard_games.load("mind-bluff-tiny")
    table = cfr.solve(game, 30)
    solver = pyspiel.CFRPlusSolver(pyspiel.load_game(f"cached_tree(game={game})"))
    for _ in range(30):
        solver.evaluate_and_update_policy()
    ours = openspiel_policy.TabularPolicy(game)
    for key, row in ours.state_lookup.items():
        ours.action_probability_array[row] = 0.0
        for a, p in table[key]:  # every information state of the game has its entry
            ours.action_probability_array[row, a] = p
    mine = pyspiel.exploitability(game, openspiel_policy.python_policy_to_pyspiel_policy(ours))
    theirs = pyspiel.exploitability(game, solver.average_policy())
    assert set(table) == set(ours.state_lookup)
    assert mine < 0.1 and abs(mine - theirs) < 0.01 * theirs, (mine, theirs)


def test_cfr_policy_is_solved_once_written_as_json_and_checked_on_load(tmp_path, monkeypatch):
    monkeypatch.setenv("FOGBOARD_GAMES_CACHE", str(tmp_path))
    cfr._SOLVED.clear()
    game = fogboard_games.load("mind-bluff-tiny")
    bot = bots.make_bot("cfr", game, 0, iterations=3)
    (path,) = tmp_path.glob("cfr-*.json")
    data = json.loads(path.read_text())
    assert data["format"] == cfr.FORMAT and data["game"] == str(game)
    assert data["iterations"] == 3 and len(data["policy"]) == 8143
    # Read back from disk by a new process's bot: the same policy.
    cfr._SOLVED.clear()
    assert bots.make_bot("cfr", game, 1, iterations=3).policy == bot.policy

    # A whole file (its sha256 matches) that is not a policy of this game is
    # refused, naming it, never trusted; a damaged one is solved again
    # (tests/test_files.py).
    def signed(data):
        body = {k: v for k, v in data.items() if k != "sha256"}
        return json.dumps({**body, "sha256": cfr._digest(body)})

    key = next(iter(data["policy"]))
    data["policy"][key] = [[0, 0.7], [1, 0.7]]
    path.write_text(signed(data))
    cfr._SOLVED.clear()
    with pytest.raises(ValueError, match=f"{path}.*is not a distribution"):
        bots.make_bot("cfr", game, 0, iterations=3)
    data["game"] = "fogboard_mind_bluff(start=7)"
    path.write_text(signed(data))
    with pytest.raises(ValueError, match="not the cfr\\+ policy of.*delete it to re-solve"):
        bots.make_bot("cfr", game, 0, iterations=3)
    # A distribution over other actions than the state's is refused at the
    # move, naming the file too.
    state = game.new_initial_state()
    while state.current_player() != 0:
        state.apply_action(state.legal_actions()[0])
    data["game"] = str(game)
    data["policy"][key] = [[0, 1.0]]
    data["policy"][state.information_state_string(0)] = [[99, 1.0]]
    path.write_text(signed(data))
    cfr._SOLVED.clear()
    bot = bots.make_bot("cfr", game, 0, iterations=3)
    with pytest.raises(ValueError, match=f"{path}.*an entry not over the legal actions"):
        bot.step(state)


def test_cfr_beats_random_on_mind_bluff_tiny(tmp_path, monkeypatch):
    monkeypatch.setenv("FOGBOARD_GAMES_CACHE", str(tmp_path))
    cfr._SOLVED.clear()
    game = fogboard_games.load("mind-bluff-tiny")
    assert score_against_random(game, "cfr", 100, iterations=50) > 0.2


def test_search_bots_are_pyspiel_bots_for_evaluate_bots():
    game = fogboard_games.load("liars-dice-1")
    seats = [bots.make_bot("ismcts", game, 0, simulations=10), bots.make_bot("mcts", game, 1)]
    assert all(isinstance(b, pyspiel.Bot) for b in seats)
    returns = bots.evaluate_bots(game.new_initial_state(), seats, 0)
    assert sorted(returns) == [-1.0, 1.0]


@pytest.mark.parametrize("kind", ["mcts", "ismcts", "random"])
def test_kinds_listed_for_another_pyspiel_game_play_it(kind):
    # kinds_for lists mcts for any game; it must then play one that is not ours.
    game = pyspiel.load_game("kuhn_poker")
    assert kind in bots.kinds_for(game)
    seats = [bots.make_bot(kind, game, p, seed=3, simulations=10) if kind != "random"
             else bots.make_bot(kind, game, p, seed=3) for p in (0, 1)]  # fmt: skip
    returns = bots.evaluate_bots(game.new_initial_state(), seats, 0)
    assert sorted(returns) in ([-1.0, 1.0], [-2.0, 2.0])
