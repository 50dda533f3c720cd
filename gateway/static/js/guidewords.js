// The first-game guide's words (guide.js): [中文, English], merged into i18n.js's WORDS so
// `t(key)` names them. {name} marks a card function, filled in with its printed name
// (i18n.js fn): the Chinese text has no English word (tests/e2e/test_web_language.py).
//
// What each bubble says follows the ruleset's rules digest (shared/rules/<id>-edition.md);
// the section each text rests on is cited beside it.

export const GUIDE_WORDS = {
  guide: ["新手引导", "First-game guide"],
  guide_got_it: ["知道了", "Got it"],
  guide_skip: ["跳过引导", "Skip guide"],
  guide_again: ["重看新手引导", "Show the guide again"],
  guide_step: ["第{n}步，共3步", "step {n} of 3"],

  // (1) the first send
  // 再临 §4 "Intel steps" 1 (mode as printed; 直达 names its target; direction-any cards: the
  // direction); classic §5 "Modes" (密电 / 直达 / 文本; the first hop declares the mode)
  guide_send: [
    "轮到你传出情报：先点一张手牌，再选传递方式，需要时再选方向或目标。密电：背面朝下依次传递；文本：正面朝上依次传递；直达：背面朝下直接交给你指定的一名玩家。作为情报传出的牌只看颜色和传递方式。",
    "Time to send your intel: tap a hand card, then its mode, then the direction or target if asked. Secret: face down, seat by seat. Text: face up, seat by seat. Direct: face down, straight to the one seat you name. A card sent as intel counts only by its colour and mode.",
  ],
  // 谍战篇 §4 phase 3 (one hand card face down, following its arrow; the lock icon lets the
  // sender lock one player, who must accept it)
  guide_send_spy: [
    "轮到你传出情报：先点一张手牌，它会背面朝下按牌上的箭头传递（←向左，→向右，↑交给你指定的一名玩家）。牌上有锁定标记时，你可以锁定一名玩家：情报到他面前时他必须接收。",
    "Time to send your intel: tap a hand card; it travels face down along its printed arrow (← left, → right, ↑ to the seat you name). If it shows the lock icon you may lock one player: they must accept it when it reaches them.",
  ],

  // (2) the first arrival
  // 再临 §4 "Intel steps" 2–3 (accept → face up in front of you; decline → onward, a declined
  // 直达 back to its sender; the sender and a locked player must accept) and §6 (3+ black
  // intel: the player dies)
  guide_arrive: [
    "情报传到了你面前。接收：它正面朝上放进你的情报区；不接收：它继续传递（被拒绝的直达情报退回传出者）。被锁定的玩家和传出者必须接收。小心：情报区里有3张或以上黑色情报的玩家立即死亡。",
    "The intel has reached you. Accept: it goes face up into your intel area. Decline: it travels on (a declined direct intel goes back to its sender). A locked player and the sender must accept. Careful: a player with 3 or more black intel dies at once.",
  ],
  // classic §5 step 2–3 (arrival window: {decrypt}, {return_card}; the take decision; 锁定
  // forces it) and §7 (3 or more black, fake, intel: dies at once)
  guide_arrive_classic: [
    "情报传到了你面前。拿下：它正面朝上放在你面前；不拿：它继续传到下一名玩家（直达被拒绝则退回传出者）。被锁定时必须拿下。小心：面前有3张或以上黑色（假）情报的玩家立即死亡。",
    "The intel has reached you. Take it: it lies face up in front of you. Leave it: it moves on to the next player (a declined direct intel goes back to its sender). Under a lock you must take it. Careful: a player with 3 or more black (fake) intel dies at once.",
  ],
  // 谍战篇 §4 phase 3 (first {decrypt} if you like, then accept or decline; accepted: the
  // pending intel, then the contest phase) and §6.1–6.2 (a third black intel: dying, the
  // rescue round with {clarify}; nobody helps: death)
  guide_arrive_spy: [
    "情报传到了你面前。你可以先使用{decrypt}，再选择接收或不接收。接收后它成为待收情报，进入争夺阶段；不接收则按箭头继续传递。小心：第三张黑色情报进入情报区时你会濒死，其他玩家可以用{clarify}救你，没人救你就会死亡。",
    "The intel has reached you. You may first use {decrypt}, then accept or decline. Accepted, it becomes the pending intel and the contest phase begins; declined, it moves on along its arrow. Careful: when a third black intel enters your intel area you are dying; others may save you with {clarify}, otherwise you die.",
  ],

  // (3) the first response
  // 再临 §5.2–5.3 (respond only to the last item of the chain; nobody responds: it resolves
  // last-in-first-out, 后发先至)
  guide_respond: [
    "你可以响应：对链上最后一项使用牌或技能（例如{see_through}、{intercept}、{swap}），也可以过。没有人再响应时，链按“后发先至”结算：最后加入的一项最先生效。",
    "You may respond: use a card or skill on the last item of the chain (such as {see_through}, {intercept}, {swap}), or pass. When nobody responds any more, the chain resolves last in, first out: the last item added takes effect first.",
  ],
  // classic §6.3 (priority goes round; every living player passes in succession: the chain
  // resolves last-in-first-out) and §6.4 ({see_through} cancels a card being used)
  guide_respond_classic: [
    "你有优先权：可以使用牌或技能加入链（例如用{see_through}让一张牌无效，或用{intercept}抢下情报），也可以过。所有人依次都过之后，链按“后发先至”结算：最后使用的最先生效。",
    "You hold priority: add a card or skill to the chain (such as {see_through} to cancel a card, or {intercept} to grab the intel), or pass. Once everyone has passed in turn, the chain resolves last in, first out: the last one used takes effect first.",
  ],
  // 谍战篇 §4 phase 4 (each asked player may use one contest card or skill, or pass; asking
  // starts again after any use) and §5.1 (no response chain: each card resolves at once)
  guide_respond_spy: [
    "争夺阶段：轮到你时可以使用一张争夺牌（{intercept}、{mislead}、{swap}）或技能，也可以过。这里没有响应链：每张牌使用后立即完整结算；有人使用后，从待收情报面前的玩家重新开始询问。",
    "Contest phase: when asked you may use one contest card ({intercept}, {mislead}, {swap}) or skill, or pass. There is no response chain here: each card resolves completely at once; after any use, asking starts again from the player the pending intel stands before.",
  ],
};
