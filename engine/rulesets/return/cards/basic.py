"""Basic cards used outside the intel's path: 试探, 秘密下达, 公开文本, 危险情报, 烧毁,
离间, 识破, 增援, 机密文件, 破译, 锁定 (rulebook pp.6–9; digest §8, §11)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, choose_option, play
from engine.state import Frame, Item
from engine.text import ArgValue

from .. import deck, ruledata
from ..cards.base import (
    FUNCTIONS,
    CardFunction,
    Context,
    burnable,
    code_matches,
    no_timing,
    note_skill,
    note_widened,
    others_with_hand,
    own_turn,
    own_turn_or,
    true_on_table,
)
from ..choices import ask_choice
from ..records import match_ext
from ..skills import passive_skills
from ..triggers import open_window

if TYPE_CHECKING:
    from engine.game import Game

#: 试探: the identity each card names (decision §11.1, data/return-rules.json).
PROBE_IDENTITY = ruledata.PROBE_IDENTITY


def ask_discard_of(g: Game, chooser: int, owner: int, key: str, args: dict[str, ArgValue]) -> None:
    """``chooser`` picks one of ``owner``'s hand cards; ``key`` and ``args``: what is asked
    (a prompt row of data/return-text.tsv and its arguments)."""
    cards = sorted(set(g.state.seats[owner].hand))
    ask_choice(g, chooser, key, [choose(c) for c in cards], args=args)


def discard_answer(g: Game, fr: Frame, owner: int) -> None:
    card = fr.given().pick
    fr.answer = None
    g.discard_from_hand(owner, [card])


def shielded(g: Game, seat: int) -> bool:
    """城府 (老鬼, rulebook p.12): 试探 and 秘密下达 (and 拷问, 紧急下达, 真相) cannot target
    this seat."""
    return any(sk.shields(g, seat) for sk in passive_skills(g, seat))


def offer_take(g: Game, item: Item, tgt: Item) -> bool:
    """核燃机体 (钢铁特工, rulebook p.10 ②): the user of this 识破/离间 may take the card it
    affected into hand; asks (``choose take`` / ``choose leave``) and returns True when
    the offer applies."""
    st = g.state
    if not (st.characters and tgt.card and st.seats[item.user].alive):
        return False
    taker = next((sk for sk in passive_skills(g, item.user) if sk.takes_affected_card(g, item.user, tgt)), None)
    if taker is None:
        return False
    note_skill(g, item.user, taker.id)
    ask_choice(g, item.user, "prompt.choose.zh_take_id_card_into",
               [choose_option("take"), choose_option("leave")], args={"zh": "核燃机体", "id": tgt.kind})
    return True


def take_answer(g: Game, item: Item, tgt: Item, fr: Frame) -> None:
    """The answer to :func:`offer_take`: the card leaves the chain for the user's hand; the
    item it belonged to still resolves (except 公开文本, which needs its card)."""
    take, fr.answer = fr.answer is not None and fr.answer.option == "take", None
    if not take or not tgt.card:
        return
    card = tgt.card
    if tgt.kind == "probe":
        tgt.on = card  # the taken 试探 still acts by its printed identity
    tgt.card = 0
    st = g.state
    st.seats[item.user].hand.append(card)
    st.fresh.append(card)
    if tgt.kind == "probe" and not tgt.negated:
        g.log("take.takes_card_into_hand_zh", item.user, {"seat": item.user, "card": card, "zh": "核燃机体"},
              audience=tuple(sorted({item.user, tgt.user, tgt.target} - {-1})), cards=(card,),
              public="take.takes_probe_into_hand")
    else:
        g.log("take.takes_card_into_hand_zh", item.user, {"seat": item.user, "card": card, "zh": "核燃机体"},
              cards=(card,))


class Probe(CardFunction):
    """试探: own turn; a player with hand cards carries out the card's action for their
    identity, truthfully. Only the two see the card; it is then removed from the game face
    down (识破'd or failed: discarded face up) (p.6 试探 ①–④)."""

    id = "probe"
    zh = "试探"
    retargetable = True

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        if not own_turn(g, seat, ctx):
            return []
        return [play(card, s) for s in others_with_hand(g, seat) if not shielded(g, s)]

    def retarget_candidates(self, g: Game, item: Item) -> list[int]:
        return [s for s in others_with_hand(g, item.user) if s != item.target and not shielded(g, s)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        target = st.seats[item.target] if item.target >= 0 else None
        if target is None or not target.alive:
            return True
        if fr.stage == 1:
            discard_answer(g, fr, item.target)
            return True
        item.done = True
        named = PROBE_IDENTITY[item.card or item.on]  # ``on``: taken by 核燃机体
        if target.identity == named:
            g.log("probe_draw.draws_n_zh", item.target, {"seat": item.target, "n": 1, "zh": "试探"})
            g.draw(item.target, 1)
            return True
        if not target.hand:
            g.log("probe_discard.declares_discard_but_has_no", item.target, {"seat": item.target})
            return True
        g.log("probe_discard.must_discard_n_zh", item.target, {"seat": item.target, "n": 1, "zh": "试探"})
        fr.stage = 1
        ask_discard_of(g, item.target, item.target, "prompt.choose.zh_discard_hand_card", args={"zh": "试探"})
        return False

    def dispose(self, g: Game, item: Item) -> None:
        if item.done:
            g.state.removed.append(item.card)
        else:
            g.discard_card(item.card)


class SecretOrder(CardFunction):
    """秘密下达: when another player declares the send; name a code, the declarer must send
    a matching intel or show you their hand. The first to resolve voids the others (p.6)."""

    id = "secret_order"
    zh = "秘密下达"

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        st = g.state
        if ctx != "respond" or st.timing != "declare" or seat == st.turn or not st.seats[st.turn].hand:
            return []
        if shielded(g, st.turn):
            return []
        return [play(card, code=c) for c in ruledata.SECRET_ORDER_CODES]

    def on_use(self, g: Game, item: Item) -> None:
        item.target = g.state.turn

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        target = st.seats[item.target]
        if match_ext(st).send_code or not target.alive or not target.hand:
            return True
        item.done = True
        match_ext(st).send_code = item.code
        match_ext(st).send_code_user = item.user
        if not any(code_matches(item.code, c) for c in target.hand):
            hand = sorted(target.hand)
            g.log("show_hand.shows_hand_cards", item.target, {"seat": item.target, "cards": tuple(hand)},
                  audience=(item.user, item.target), cards=hand, public="show_hand.shows_hand")
        return True

    def dispose(self, g: Game, item: Item) -> None:
        if item.done:
            g.state.removed.append(item.card)
        else:
            g.discard_card(item.card)


class PublicText(CardFunction):
    """公开文本: own turn; draw a random hand card of another player, then give them this
    card; if you drew a 公开文本, discard it (p.6–7 ①)."""

    id = "public_text"
    zh = "公开文本"
    retargetable = True

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        if not own_turn(g, seat, ctx):
            return []
        return [play(card, s) for s in others_with_hand(g, seat)]

    def retarget_candidates(self, g: Game, item: Item) -> list[int]:
        return [s for s in others_with_hand(g, item.user) if s != item.target]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        target = st.seats[item.target]
        user = st.seats[item.user]
        if not target.alive or not target.hand or not user.alive or item.target == item.user:
            return True
        if not item.card:
            return True  # taken away by 核燃机体's 离间: nothing to give (p.10 ②)
        item.done = True
        taken = target.hand.pop(g.random_below(len(target.hand)))
        user.hand.append(taken)
        g.log("take.takes_cards_from_seat", item.user, {"seat": item.user, "cards": (taken,), "seat2": item.target},
              audience=(item.user, item.target), cards=(taken,), public="take.takes_random_card_from_seat")
        if deck.FUNCTION[taken] == "public_text":
            g.discard_from_hand(item.user, [taken])
        return True

    def dispose(self, g: Game, item: Item) -> None:
        if item.done:
            g.state.seats[item.target].hand.append(item.card)
            g.log("give.gets_cards", item.user, {"seat": item.target, "cards": (item.card,)}, cards=(item.card,))
        else:
            g.discard_card(item.card)


class Danger(CardFunction):
    """危险情报 as a function: own turn; look at a player's hand and discard one card of
    it (p.8). A player (玩家, glossary) may be yourself."""

    id = "danger"
    zh = "危险情报"
    retargetable = True

    def on_use(self, g: Game, item: Item) -> None:
        note_ji_min(g, item)

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        return [play(card, s) for s in self.targets(g, seat, ctx)]

    def targets(self, g: Game, seat: int, ctx: Context) -> list[int]:
        """The seats this card may be played on now (核燃机体 names two of them)."""
        if not own_turn_or(g, seat, ctx, self.id):
            return []
        return [s for s, p in enumerate(g.state.seats) if p.alive and (len(p.hand) > 1 if s == seat else p.hand)]

    def retarget_candidates(self, g: Game, item: Item) -> list[int]:
        st = g.state
        return [s for s, p in enumerate(st.seats)
                if p.alive and p.hand and s not in (item.user, item.target, *item.targets)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        # 核燃机体 (钢铁特工, p.10 ①): a second target in ``item.targets``, dealt with after
        # the first, in the order the user named them. Stage 2k looks at target k's hand,
        # stage 2k+1 discards the chosen card.
        st = g.state
        order = [item.target, *item.targets]
        while True:
            k, asked = divmod(fr.stage, 2)
            if k >= len(order):
                return True
            seat = order[k]
            if asked:
                discard_answer(g, fr, seat)
                fr.stage += 1
                if st.stack[-1] is not fr:
                    return False  # a 'discarded' window runs first
                continue
            target = st.seats[seat]
            if not target.alive or not target.hand:
                fr.stage += 2
                continue
            item.done = True
            hand = sorted(target.hand)
            g.log("look_hand.looks_at_seat_hand_cards", item.user,
                  {"seat": item.user, "seat2": seat, "cards": tuple(hand)}, audience=(item.user, seat), cards=hand,
                  public="look_hand.looks_at_seat_hand")
            fr.stage += 1
            ask_discard_of(g, item.user, seat, "prompt.choose.zh_discard_one_seat_cards",
                           args={"zh": "危险情报", "seat": seat})
            return False


def burn_intel(g: Game, owner: int, card: int) -> None:
    """烧毁: a received intel goes to the discard pile (not a discard); the 'burned'
    window follows (搜取)."""
    g.state.seats[owner].intel.remove(card)
    g.discard_card(card)
    g.log("burn.intel_card_burned", owner, {"seat": owner, "card": card}, cards=(card,))
    open_window(g, "burned", owner, card=card)


class Burn(CardFunction):
    """烧毁: put a received fake intel (not encrypted) in the discard pile. It targets the
    intel, so it still resolves if the intel moved (p.7 ①②)."""

    id = "burn"
    zh = "烧毁"

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        if not no_timing(ctx):
            return []
        return [play(card, on=c) for p in g.state.seats if p.alive for c in p.intel if burnable(g, c)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        for s, p in enumerate(g.state.seats):
            if p.alive and item.on in p.intel and burnable(g, item.on):
                burn_intel(g, s, item.on)
                item.done = True
                break
        return True


class SowDiscord(CardFunction):
    """离间: when another player uses 试探/锁定/转移/危险情报/公开文本 with a target, change the
    target at resolution (not to the original user; you may pick yourself). Cannot answer
    离间 (p.8 ①–③)."""

    id = "sow_discord"
    zh = "离间"

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        st = g.state
        if ctx != "respond" or not st.chain:
            return []
        last = st.chain[-1]
        fn = FUNCTIONS.get(last.kind)
        if fn is None or not fn.retargetable or last.alt or last.target < 0 or last.user == seat:
            return []
        return [play(card)] if fn.retarget_candidates(g, last) else []

    def on_use(self, g: Game, item: Item) -> None:
        item.ref = len(g.state.chain) - 1

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        tgt = st.chain[item.ref]
        if fr.stage == 3:
            take_answer(g, item, tgt, fr)
            return True
        if fr.stage == 2:
            # 核燃机体: the 离间 user may take the retargeted card into hand (p.10 ②).
            fr.stage = 3
            return not offer_take(g, item, tgt)
        if fr.stage == 1:
            seat = fr.given().pick
            fr.answer = None
            tgt.target = seat
            item.done = True
            g.log("retarget.changes_target_id_seat", item.user, {"seat": item.user, "id": tgt.kind, "seat2": seat},
                  seats=(seat,))
            # 杀意 (刀锋) reacts to becoming a target by 离间 (digest §11.17).
            fr.stage = 2
            open_window(g, "targeted", seat, card=tgt.card, index=fr.index)
            return False
        candidates = FUNCTIONS[tgt.kind].retarget_candidates(g, tgt)
        if not candidates:
            return True
        fr.stage = 1
        ask_choice(g, item.user, "prompt.choose.zh_new_target_id", [choose(s) for s in candidates],
                   args={"zh": "离间", "id": tgt.kind})
        return False


class SeeThrough(CardFunction):
    """识破: the last function card on the chain has no effect; 识破 can answer 识破
    (p.8 ①–③)."""

    id = "see_through"
    zh = "识破"

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        st = g.state
        if ctx != "respond" or not st.chain:
            return []
        last = st.chain[-1]
        return [play(card)] if last.card and last.user != seat else []

    def on_use(self, g: Game, item: Item) -> None:
        item.ref = len(g.state.chain) - 1

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        tgt = g.state.chain[item.ref]
        if fr.stage == 1:
            take_answer(g, item, tgt, fr)
            return True
        tgt.negated = True
        item.done = True
        g.log("see_through.zh_voids_seat_id", item.user,
              {"seat": item.user, "zh": "识破", "seat2": tgt.user, "id": tgt.kind})
        # 核燃机体: the 识破 user may take the voided card into hand (p.10 ②).
        fr.stage = 1
        return not offer_take(g, item, tgt)


class Reinforce(CardFunction):
    """增援: own turn; draw 1, +1 per fake intel you hold at resolution (p.9 example)."""

    id = "reinforce"
    zh = "增援"

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        return [play(card)] if own_turn(g, seat, ctx) else []

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        user = g.state.seats[item.user]
        if not user.alive:
            return True
        item.done = True
        g.draw(item.user, 1 + sum(1 for c in user.intel if deck.IS_BLACK[c]))
        return True


class Classified(CardFunction):
    """机密文件: own turn; more than 4 true intel on the table: draw 2, more than 7: draw 3,
    counted at resolution (fails at 4 or fewer); otherwise it can only be sent (p.9)."""

    id = "classified"
    zh = "机密文件"

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        return [play(card)] if own_turn(g, seat, ctx) and true_on_table(g) > 4 else []

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        n = true_on_table(g)
        if n <= 4 or not g.state.seats[item.user].alive:
            g.log("fail.zh_fails_n_true_intel", item.user, {"zh": "机密文件", "n": n})
            return True
        item.done = True
        g.draw(item.user, 3 if n > 7 else 2)
        return True


class Decrypt(CardFunction):
    """破译: look at one face-down intel (in transmission); no timing (decision §11.9)."""

    id = "decrypt"
    zh = "破译"

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        t = g.state.transit
        if not no_timing(ctx) or t is None or t.face_up:
            return []
        return [play(card)]

    def on_use(self, g: Game, item: Item) -> None:
        t = g.state.transit
        item.on = t.card if t is not None else 0

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        t = g.state.transit
        if t is None or t.face_up:
            return True
        if item.on and t.card != item.on:
            # 替换 (偷龙转凤) makes it fail; 取代 (帽子戏法) moved ``on`` to the new intel
            # (rulebook p.9 破译 特别; p.10 速译 ②).
            return True
        item.done = True
        if item.user not in t.known_by:
            t.known_by.append(item.user)
        g.log("decrypt.looks_at_intel_card", item.user, {"seat": item.user, "card": t.card}, audience=(item.user,),
              cards=(t.card,), public="decrypt.looks_at_intel")
        return True


def note_ji_min(g: Game, item: Item) -> None:
    """A timing-widening skill (七百's 机敏) took effect: 锁定/危险情报 used outside the
    user's own turn."""
    if item.user != g.state.turn:
        note_widened(g, item.user, item.kind)


class Lock(CardFunction):
    """锁定: own turn, before the intel is received; the named player must receive the
    intel that reaches them this turn (p.9)."""

    id = "lock"
    zh = "锁定"
    retargetable = True

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        st = g.state
        if not own_turn_or(g, seat, ctx, self.id) or st.received:
            return []
        return [play(card, s) for s, p in enumerate(st.seats) if p.alive]

    def retarget_candidates(self, g: Game, item: Item) -> list[int]:
        return [s for s in g.living() if s not in (item.user, item.target)]

    def on_use(self, g: Game, item: Item) -> None:
        note_ji_min(g, item)

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if not st.seats[item.target].alive or st.received:
            return True
        item.done = True
        if item.target not in st.locked:
            st.locked.append(item.target)
        g.log("lock.locked", item.user, {"seat": item.target}, seats=(item.target,))
        return True


BASIC: tuple[CardFunction, ...] = (
    Probe(), SecretOrder(), PublicText(), Danger(), Burn(), SowDiscord(), SeeThrough(),
    Reinforce(), Classified(), Decrypt(), Lock(),
)
