"""fengsheng: a hosted platform for 风声 (The Message).

The command line lives in :mod:`fengsheng.cli`; the subcommands in :mod:`fengsheng.commands`.
The generated protobuf modules, :mod:`fengsheng.v1`, ship with the bot SDK (``sdk/python``,
installed beside the platform: ``./dev install``, the image) and nowhere else: this package
extends its path with every other ``fengsheng`` directory on ``sys.path`` (the SDK's
``sdk/python/src/fengsheng`` in a checkout, the same ``site-packages/fengsheng`` in an
image), so ``fengsheng.v1`` is the SDK's copy (docs/decisions.md, "The bot SDK is its own
distribution").
"""

from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)

__version__ = "0.1.0"
