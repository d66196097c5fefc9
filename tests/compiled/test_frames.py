"""A core's integer arrays as run-format columns (`sanssim.compiled.frames`)."""

from __future__ import annotations

import numpy as np
import polars as pl

from sanssim.compiled.frames import NONE, coded, coded_lists, lists


def test_codes_become_their_names_and_none_or_out_of_range_null() -> None:
    names = ["garden", "noble", "pagoda"]
    codes = np.array([2, 0, NONE, 1, 3, 2], dtype=np.int16)
    got = coded(codes, names)
    assert got.dtype == pl.String
    assert got.to_list() == ["pagoda", "garden", None, "noble", None, "pagoda"]
    assert coded([], names).to_list() == []


def test_rows_of_codes_become_lists_of_names() -> None:
    got = coded_lists(np.array([0, 1, NONE, 1]), 2, ["koi", "reserve"])
    assert got.to_list() == [["koi", "reserve"], [None, "reserve"]]


def test_rows_of_values_become_narrow_lists() -> None:
    got = lists(np.array([[1, 2], [3, -1]], dtype=np.int64), pl.Int8())
    assert got.dtype == pl.List(pl.Int8)
    assert got.to_list() == [[1, 2], [3, -1]]
