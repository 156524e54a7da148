"""Piece-based observers over one flat float32 buffer (SPEC.md section 0).

An observer is a list of named pieces chosen from the IIGObservationType.
Each ruleset supplies one encoder, `encode(buf, layout, state, player)`,
that writes 1.0s (or small counts) at `layout[piece] + index`; the same
encoder fills the numpy buffer behind `make_py_observer` (the C++ route) and
the plain Python list that our State's fast `information_state_tensor`
returns (the Python route), so the two routes cannot drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pyspiel

PieceList = Sequence[tuple[str, tuple[int, ...]]]


def obs_type_key(iig_obs_type) -> tuple[bool, bool, str]:
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
    """Offsets, shapes and total size of a piece list."""

    def __init__(self, pieces: PieceList):
        self.pieces = [(name, tuple(shape)) for name, shape in pieces]
        self.offset: dict[str, int] = {}
        self.shape: dict[str, tuple[int, ...]] = {}
        size = 0
        for name, shape in self.pieces:
            self.offset[name] = size
            self.shape[name] = shape
            size += math.prod(shape)
        self.size = size

    def __contains__(self, name: str) -> bool:
        return name in self.offset

    def get(self, name: str, default=None):
        return self.offset.get(name, default)


class PieceObserver:
    """A PyObserver (see open_spiel/python/observation.py) built from pieces.

    `encode(buf, layout, state, player)` writes into a zeroed buffer;
    `describe(state, player, key)` returns the string form.
    """

    def __init__(
        self,
        key: tuple[bool, bool, str],
        layout: Layout,
        encode: Callable,
        describe: Callable,
    ):
        self.key = key
        self.layout = layout
        self._encode = encode
        self._describe = describe
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {}
        for name, shape in layout.pieces:
            start = layout.offset[name]
            self.dict[name] = self.tensor[start : start + math.prod(shape)].reshape(shape)

    def set_from(self, state, player: int) -> None:
        self.tensor.fill(0.0)
        self._encode(self.tensor, self.layout, state, player)

    def string_from(self, state, player: int) -> str:
        return self._describe(state, player, self.key)


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
