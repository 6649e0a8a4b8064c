"""Subcommands of the ``rose-king`` command line, one module each."""
