from pbem.cli import run

run()
