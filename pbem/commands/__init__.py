"""The commands of `pbem`, one module each (pbem.cli names them all and imports the one a command line
asks for); pbem.commands.common holds what they share: the games dir, the options' values, JSON."""
