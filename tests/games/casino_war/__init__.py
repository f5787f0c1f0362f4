"""Casino War, a house-banked game that exists only in the test suite.

It proves the one game contract: this package is the whole game (rules, hand, table hooks,
schemas, its rules document ``RULES.md``), it registers itself with
``casino.rules.contract.register`` from a test fixture, and the platform plays it end to end
(tables, hands, settlement with the house's side, void, audit check) without a line outside
this package knowing it.
"""
