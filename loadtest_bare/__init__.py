"""A test-only app for ``make loadtest``: ``POST /bare/`` inserts one row.

It gives the load test a floor to compare the product's endpoints with: the same server,
middleware, token authentication and role check, one insert, and nothing else. Only
``casino.settings_loadtest`` installs it; the product's settings and URLs never do.
"""
