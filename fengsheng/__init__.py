"""fengsheng: a hosted platform for 风声 (The Message).

The command line lives in :mod:`fengsheng.cli`; the generated protobuf modules in
:mod:`fengsheng.v1`; the subcommands in :mod:`fengsheng.commands`.
"""

__version__ = "0.1.0"
