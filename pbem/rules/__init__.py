"""The games pbem knows: each in its own module, listed in `pbem.rules.base.KNOWN` and imported when a
game of it is first used."""
