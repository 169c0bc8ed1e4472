"""Florenz (Dean Morris), with its solo game against Strozzi.

The package is being built step by step (FLORENZ-PLAN.md, section 21). So far: `data` (the data file,
checked, and the tables derived from it) and `board` (queues, control, boasting, plan cards and crests
as pure functions on plain data). The ruleset is not registered yet: there is no `Florenz` class, and
`pbem.rules` does not import this package.
"""
