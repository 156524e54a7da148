from setuptools import find_packages, setup

GYM = ["gymnasium>=1.1,<2"]  # fogboard_games.gym (its vector API: AutoresetMode, 1.1)
PETTINGZOO = ["pettingzoo>=1.24,<2", *GYM]
RAY = ["ray>=2.9"]  # the league's --backend ray
PLOT = ["matplotlib>=3.5"]  # the examples' PNG curves
# The language-model seats' client (bots/llm_client.py): the API it uses
# (OpenAI(base_url=...), chat.completions, the error classes) is 1.0's; 3.x tested.
LLM = ["openai>=1.0,<4"]

setup(
    name="fogboard_games",
    version="0.1.0",
    description="Imperfect-information games for OpenSpiel: Fog-of-War boards (phantom "
    "tic-tac-toe, dark hex, abrupt dark hex, recon hex), Mind Bluff, Parley and Liar's Dice, "
    "with exact information boundaries.",
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    license="Apache-2.0",  # OpenSpiel's license; the text is LICENSE
    license_files=["LICENSE"],
    packages=find_packages(include=["fogboard_games", "fogboard_games.*"]),
    python_requires=">=3.10",
    install_requires=[
        "open_spiel>=2.0.2,<3",
        "numpy>=2.0,<3",  # (np.bitwise_count: the batched draw)
        "numba>=0.60",  # the compiled kernels (fogboard_games.jit): Mind Bluff's batched engine
        "absl-py>=1.0,<3",
        "tqdm>=4.60",  # the league's and solve.Treeplex's progress bars
        "numba>=0.60",  # fogboard_games.jit: solve.Treeplex's compiled walk
    ],
    extras_require={
        "gym": GYM,
        "pettingzoo": PETTINGZOO,
        "ray": RAY,
        "plot": PLOT,
        "llm": LLM,
        # The tests cover what every extra provides, so they install them all
        # (shimmy only to test the pitfall docs/pettingzoo.md warns of; networkx, with
        # matplotlib, only to check our alpha-rank against OpenSpiel's, which imports both).
        # pytest-xdist: the suite runs on every core (pyproject.toml's addopts).
        "test": ["pytest>=7", "pytest-xdist>=3.2", "hypothesis>=6.80", "ruff>=0.5", "setuptools"]
        + ["shimmy>=2.0"]
        + ["networkx>=2.6"]
        # The page tests drive the system Chromium through playwright (tests/browser.py).
        + ["playwright>=1.40"]
        + PETTINGZOO
        + RAY
        + PLOT
        + LLM,
    },
    entry_points={"console_scripts": ["fogboard=fogboard_games.__main__:main"]},
)
