"""风声再临's words as ``Literal`` types (a misspelt one at a call site is a type error):
identities, transmission modes, and the trigger windows the rules open."""

from __future__ import annotations

from typing import Literal, get_args

#: 军情 / 潜伏 / 特工 (digest §1).
Identity = Literal["military", "latent", "agent"]
IDENTITIES: tuple[Identity, ...] = get_args(Identity)

#: 密电 / 直达 / 文本: how an intel travels (p.3).
Mode = Literal["secret", "direct", "text"]
MODES: tuple[Mode, ...] = get_args(Mode)

#: Trigger windows (triggers.py docstring): the moments triggered skills may fire.
Window = Literal["game_start", "turn_start", "card_used", "targeted", "send", "receive_chosen", "pre_received",
                 "received", "burned", "discarded", "turn_end", "dying"]
WINDOWS: tuple[Window, ...] = get_args(Window)
