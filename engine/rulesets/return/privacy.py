"""What the log may show: actions that name a hidden card are logged in full only to the
seats that see the card; everyone else gets a redacted line (design.md: only per-seat
views leave the engine)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, Hidden, hide, hide_cards

from . import deck

if TYPE_CHECKING:
    from engine.game import Game


#: Chain items (skill or card-function ids) whose resolving ``choose`` names a hidden
#: card, so only the chooser sees it in the log; character modules add theirs (紧急下达,
#: 帽子戏法 …). Read from the resolving item, never from the prompt's words.
PRIVATE_CHOICES: set[str] = set()


def resolving(g: Game) -> str:
    """The id of the chain item whose effect is resolving at the top of the stack (its
    ``resolve`` frame, engine/chain.py ``resolve_item``), '' when none is."""
    st = g.state
    fr = st.stack[-1] if st.stack else None
    if fr is None or fr.kind != "resolve" or not 0 <= fr.index < len(st.chain):
        return ""
    return st.chain[fr.index].kind


def card_is_public(g: Game, card: int) -> bool:
    """The card lies face up where everyone sees it: the discard pile, an intel area, the
    intel in transit when face up, or a face-up card used on the chain."""
    st = g.state
    if card in st.discard or any(card in p.intel for p in st.seats):
        return True
    t = st.transit
    if t is not None and t.card == card:
        return t.face_up
    return any(item.card == card and item.kind not in ("probe", "secret_order") for item in st.chain)


def hidden_card_choice(g: Game, seat: int, picks: tuple[int, ...]) -> tuple[int, ...] | None:
    """A ``choose`` answer naming a card that lies hidden right now (in a hand, the pile,
    face down in transit, on the chain as a face-down card) is shown to the chooser and the
    card's holder only; what happens to the card next is logged on its own (a discard shows
    it then). Returns that audience, or None when the choice shows nothing hidden."""
    st = g.state
    audience = {seat}
    hidden = False
    for card in picks:
        if card < 1 or card > deck.N_CARDS or card_is_public(g, card):
            continue
        hidden = True
        for i, p in enumerate(st.seats):
            if card in p.hand:
                audience.add(i)
    # Choices between seats and words ("choose 3" for 离间) name no card: a seat number is
    # at most 6 and such a prompt lists no card of that number in a hidden zone anyway.
    return tuple(sorted(audience)) if hidden else None


def hidden_action(g: Game, seat: int, action: Action) -> Hidden | None:
    """For an action that shows a hidden card: who sees it, and its public form for
    everyone else (a value: :class:`engine.action.Hidden`)."""
    kind = action.kind
    prompt = g.state.prompt
    if prompt is not None and prompt.kind == "character":
        # Choices stay secret until all characters are placed at once (p.4 游戏准备 ③).
        return hide((seat,), "action.hidden_chooses_character")
    if kind == "choose" and prompt is not None and resolving(g) in PRIVATE_CHOICES:
        return hide((seat,), "action.hidden_chooses_hidden_card")
    if kind == "choose" and prompt is not None and prompt.kind in ("choose", "discard"):
        hidden = hidden_card_choice(g, seat, action.picks)
        if hidden is not None:
            return hide(hidden, "action.hidden_chooses_hidden_card")
    if kind == "play":
        card = action.card
        fn = deck.FUNCTION[card]
        if fn in ("probe", "secret_order") and not action.alt:  # ``as``: used face up as another function
            st = g.state
            target = action.target if action.to else st.turn
            audience = (seat,) if target == seat else (seat, target)
            return hide(audience, "action.hidden_plays_zh_face_down_seat", zh=deck.CARDS[card - 1].function_zh,
                        seat2=target)
        return None
    if kind == "skill":
        return hidden_skill_cards(g, seat, action)
    if kind == "send" and not action.pile:
        if action.mode != "text":  # the mode sent, not the card's (单枪匹马 sends any card face down)
            return hide_cards((seat,), action)
        return None
    return None


def hidden_skill_cards(g: Game, seat: int, action: Action) -> Hidden | None:
    """A skill naming hidden cards (``cards A,B`` / ``on F``) that stay hidden until the
    skill resolves (凋零's 2 hand cards, 暗杀's fake from the hand, 黄雀在后's hand card …):
    the user and the cards' holders see the line; everyone else sees the action with those
    cards face down, as they would see nothing of them at the table until the effect shows them
    (a discard, a receipt). Seats (``to S``) and words (``choose X``) are never cards."""
    audience = {seat}
    hidden: set[int] = set()
    for card in (*action.cards, *((action.on,) if action.on else ())):
        if 1 <= card <= deck.N_CARDS and not card_is_public(g, card):
            hidden.add(card)
            audience.update(j for j, p in enumerate(g.state.seats) if card in p.hand)
    if not hidden:
        return None
    return hide_cards(tuple(sorted(audience)), action, hidden)
