"""The ``arena`` command line (typer): one thin module per command."""
