"""The installed package holds every module: `pip install .` must not drop a
subpackage (core/ once had no __init__.py, so an installed copy could not be
imported, while tests run from the checkout still passed)."""

from __future__ import annotations

import pathlib

from setuptools import find_packages

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_every_module_directory_is_a_package_setup_py_finds():
    # The same call as setup.py's `packages=`.
    found = set(find_packages(where=str(ROOT), include=["fogboard_games", "fogboard_games.*"]))
    source = ROOT / "fogboard_games"
    wanted = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in source.rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert wanted, "no modules found: the test is looking in the wrong place"
    missing = sorted(wanted - found)
    assert not missing, f"directories setup.py would not install (no __init__.py?): {missing}"
