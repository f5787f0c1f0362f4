"""The built-in games' test samples, one module per game (``tests/game_samples.py``)."""
