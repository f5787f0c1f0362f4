"""Rules engines: pure Python, no Django import anywhere below this package."""
