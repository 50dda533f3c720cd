"""Subcommands of the ``fengsheng`` CLI: one module each, with ``add_arguments`` and ``run``."""
