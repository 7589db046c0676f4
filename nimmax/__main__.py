"""`python -m nimmax`: the same CLI as the `nimmax` command."""

from nimmax.cli import run

run()
