"""The docs show the tensor layouts and parameters the code really has."""

import pathlib

import fogboard_games
from fogboard_games.boards.game import SPECS
from fogboard_games.core.observer import piece_table

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"


def test_board_tensor_tables_match_the_code():
    text = (DOCS / "boards.md").read_text()
    for name in ("phantom-ttt-3", "dark-hex-4", "dark-hex-5", "recon-hex-5"):
        game = fogboard_games.load(name)
        assert piece_table(game.info_layout) in text, name
        assert piece_table(game.obs_layout) in text, name
        assert f"{name}: information state ({game.information_state_tensor_size()} floats)" in text


def test_board_parameter_tables_match_the_code():
    text = (DOCS / "boards.md").read_text()
    for spec in SPECS.values():
        assert spec.table() in text, spec.game
