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


def test_the_license_is_apache_2_and_pip_says_so():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text  # the whole text, not a stub
    import importlib.metadata
    import subprocess
    import sys

    meta = importlib.metadata.metadata("fogboard_games")
    assert (meta.get("License-Expression") or meta.get("License")) == "Apache-2.0"
    shown = subprocess.run(
        [sys.executable, "-m", "pip", "show", "fogboard_games"],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert any(
        line in ("License: Apache-2.0", "License-Expression: Apache-2.0")
        for line in shown.splitlines()
    ), shown


def test_the_citation_file_names_this_version_and_license():
    import re

    import fogboard_games

    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    fields = dict(re.findall(r"^([a-z-]+): *(.*)$", cff, re.M))
    assert fields["cff-version"] == "1.2.0"
    assert fields["version"].strip('"') == fogboard_games.__version__
    assert fields["license"] == "Apache-2.0"
    assert fields["title"] and re.search(r"^authors:\n  - name: \S", cff, re.M)
    setup_py = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert f'version="{fogboard_games.__version__}"' in setup_py
