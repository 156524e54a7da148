"""Piece-based observers over one flat float32 buffer (docs/adding_a_game.md).

An observer is a list of named pieces chosen from the IIGObservationType.
Each ruleset supplies one encoder (core.contract.Encoder) that writes 1.0s
(or small counts) at `layout.offset[piece] + index`; the same encoder fills
the numpy buffer behind `make_py_observer` (the C++ route) and the plain
Python list that the State's fast `information_state_tensor` returns (the
Python route), so the two routes cannot drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pyspiel

PieceList = Sequence[tuple[str, tuple[int, ...]]]
# (perfect_recall, public_info, private_info "none" / "single" / "all")
ObsKey = tuple[bool, bool, str]


def obs_type_key(iig_obs_type) -> ObsKey:
    """(perfect_recall, public_info, private_info) as a hashable key."""
    if iig_obs_type is None:
        iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
    private = {
        pyspiel.PrivateInfoType.NONE: "none",
        pyspiel.PrivateInfoType.SINGLE_PLAYER: "single",
        pyspiel.PrivateInfoType.ALL_PLAYERS: "all",
    }[iig_obs_type.private_info]
    return (bool(iig_obs_type.perfect_recall), bool(iig_obs_type.public_info), private)


INFO_STATE = (True, True, "single")
OBSERVATION = (False, True, "single")


class Layout:
    """Offsets, shapes and total size of a piece list (of observation `key`)."""

    def __init__(self, pieces: PieceList, key: ObsKey | None = None):
        self.key = key
        self.pieces = [(name, tuple(shape)) for name, shape in pieces]
        self.offset: dict[str, int] = {}
        self.shape: dict[str, tuple[int, ...]] = {}
        size = 0
        for name, shape in self.pieces:
            self.offset[name] = size
            self.shape[name] = shape
            size += math.prod(shape)
        self.size = size


def seats_for(private: str, player: int, players: int) -> tuple[int, ...]:
    """Seats whose private information an observer of this kind shows."""
    if private == "single":  # the default observers: first, it is the hot case
        return (player,)
    return tuple(range(players)) if private == "all" else ()


def piece_table(layout: Layout) -> str:
    """A layout as a Markdown table (the docs' tables are checked against it)."""
    rows = ["| piece | shape | offset |", "|---|---|---|"]
    for name, shape in layout.pieces:
        rows.append(f"| {name} | {shape} | {layout.offset[name]} |")
    return "\n".join(rows)


class PieceObserver:
    """A PyObserver (see open_spiel/python/observation.py) built from pieces.

    It asks the game's encoder to encode and describe the state's match, so
    the observer route and the state's own Python methods share one encoder.
    `observed(state, player)` gives the state's match and the player as a
    seat, refusing a player that is not one (core.glue supplies it).
    """

    def __init__(self, key: ObsKey, layout: Layout, encoder, observed):
        self.key = key
        self.layout = layout
        self._encoder = encoder
        self._observed = observed
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {}
        for name, shape in layout.pieces:
            start = layout.offset[name]
            self.dict[name] = self.tensor[start : start + math.prod(shape)].reshape(shape)

    def set_from(self, state, player: int) -> None:
        match, seat = self._observed(state, player)
        self.tensor.fill(0.0)
        self._encoder.encode(self.tensor, self.layout, match, seat, self.key[2])

    def string_from(self, state, player: int) -> str:
        match, seat = self._observed(state, player)
        return self._encoder.describe(match, seat, self.key)


def all_obs_types() -> list:
    """Every IIGObservationType combination (2 x 2 x 3 = 12)."""
    out = []
    for recall in (False, True):
        for public in (False, True):
            for private in (
                pyspiel.PrivateInfoType.NONE,
                pyspiel.PrivateInfoType.SINGLE_PLAYER,
                pyspiel.PrivateInfoType.ALL_PLAYERS,
            ):
                out.append(
                    pyspiel.IIGObservationType(
                        perfect_recall=recall, public_info=public, private_info=private
                    )
                )
    return out
