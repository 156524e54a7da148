from setuptools import find_packages, setup

setup(
    name="fogboard_games",
    version="0.1.0",
    description="Imperfect-information games for OpenSpiel: Fog-of-War boards (phantom "
    "tic-tac-toe, dark hex, abrupt dark hex, recon hex) and Liar's Dice, with exact "
    "information boundaries.",
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    packages=find_packages(include=["fogboard_games", "fogboard_games.*"]),
    python_requires=">=3.10",
    install_requires=[
        "open_spiel>=2.0.2,<3",
        "numpy>=1.24,<3",
        "absl-py>=1.0,<3",
    ],
    extras_require={
        "test": ["pytest>=7", "hypothesis>=6.80", "ruff>=0.5", "setuptools"],
    },
    entry_points={"console_scripts": ["fogboard=fogboard_games.__main__:main"]},
)
