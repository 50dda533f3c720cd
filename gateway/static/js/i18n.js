// Chinese / English names of cards, characters, skills, identities and game words.
// Ids are the rules digests' (shared/rules/<ruleset>-edition.md) and the proto enums'
// (proto/fengsheng/v1/game.proto: one vocabulary for every ruleset); the Chinese names are
// the printed ones, the English ones are this client's translations.
//
// A ruleset's own names come from the gateway (learnDeck: GET /api/cards gives each card
// function's printed name; learnRuleset: GET /api/rulesets gives its characters and
// skills), so a ruleset the tables below do not know is still named: Chinese from the
// server, English from the tables here or else the id spelled out.

import { MISSIONS_ZH } from "./missions.js";
import { TABLE_WORDS } from "./words.js";
import { GUIDE_WORDS } from "./guidewords.js";

const FUNCTIONS = {
  balance: ["平衡", "Balance"],
  threaten: ["威逼", "Threaten"],
  bribe: ["利诱", "Bribe"],
  clarify: ["澄清", "Clarify"],
  mislead: ["误导", "Mislead"],
  probe: ["试探", "Probe"],
  secret_order: ["秘密下达", "Secret Order"],
  public_text: ["公开文本", "Public Text"],
  intercept: ["截获", "Intercept"],
  danger: ["危险情报", "Danger Intel"],
  lure_away: ["调虎离山", "Lure Away"],
  burn: ["烧毁", "Burn"],
  swap: ["调包", "Swap"],
  sow_discord: ["离间", "Sow Discord"],
  transfer: ["转移", "Transfer"],
  see_through: ["识破", "See Through"],
  reinforce: ["增援", "Reinforce"],
  classified: ["机密文件", "Classified File"],
  decrypt: ["破译", "Decrypt"],
  lock: ["锁定", "Lock"],
  send_back: ["退回", "Send Back"],
  true_or_false: ["真伪莫辨", "True or False"],
};

const CHARACTERS = {
  lao_qiang: ["老枪", "Old Gun"],
  da_mei_nv: ["大美女", "The Beauty"],
  fu_ping: ["浮萍", "Duckweed"],
  fu_she: ["蝮蛇", "Viper"],
  yi_dian_yuan: ["译电员", "Telegraphist"],
  e_mei_feng: ["峨眉峰", "Emei Peak"],
  gang_tie_te_gong: ["钢铁特工", "Steel Agent"],
  qi_bai: ["七百", "007"],
  zhi_ming_xiang_shui: ["致命香水", "Deadly Perfume"],
  lao_gui: ["老鬼", "Old Ghost"],
  xiao_bai: ["小白", "Xiao Bai"],
  hei_mei_gui: ["黑玫瑰", "Black Rose"],
  lao_jin: ["老金", "Old Jin"],
  shan_ling: ["闪灵", "The Shining"],
  huang_que: ["黄雀", "Oriole"],
  dai_li: ["戴笠", "Dai Li"],
  dao_feng: ["刀锋", "Blade"],
  xiao_ma_ge: ["小马哥", "Brother Ma"],
  bei_lei_mao: ["贝雷帽", "Beret"],
  fu_er_mo_si: ["福尔摩斯", "Holmes"],
  guai_dao_jiu_jiu: ["怪盗九九", "Phantom Thief 99"],
  qing_bao_chu_zhang: ["情报处长", "Intelligence Chief"],
  liu_jie: ["六姐", "Sixth Sister"],
  li_fu_meng_mian: ["礼服蒙面", "Masked Tuxedo"],
  zhi_ye_sha_shou: ["职业杀手", "Hitman"],
};

const SKILLS = {
  // classic (engine/rulesets/classic/characters): the skills no other ruleset shares
  yi_zhi: ["遗志", "Last Wish"], dong_xi: ["洞悉", "Insight"], he_mou: ["合谋", "Collusion"],
  xue_ran_mei_gui: ["血染玫瑰", "Bloodied Rose"], qi_zu_bao_shuai: ["弃卒保帅", "Sacrifice the Pawn"],
  fu_di_chou_xin: ["釜底抽薪", "Cut Off the Fuel"], xian_ji: ["先机", "First Move"], hou_zhao: ["后着", "Follow-up"],
  jing_jue: ["警觉", "Vigilance"], yan_hu: ["掩护", "Cover"], ge_qiang_you_er: ["隔墙有耳", "Walls Have Ears"],
  lian_ji: ["连击", "Combo"], yu_mou: ["预谋", "Premeditation"], ying_xiong: ["英雄", "Hero"],
  jiu_mei: ["救美", "Rescue the Lady"], min_rui: ["敏锐", "Keen"], feng_du: ["风度", "Grace"],
  shi_xue: ["嗜血", "Bloodlust"], ai_qing: ["爱情", "Love"], yin_mou: ["阴谋", "Plot"], yang_mou: ["阳谋", "Open Scheme"],
  bai_lu: ["败露", "Exposed"], dan_yao_wu_xian: ["弹药无限", "Unlimited Ammo"], jie_lu: ["揭露", "Reveal"],
  gong_shou_jian_bei: ["攻守兼备", "Attack and Defence"], lin_wei_shou_ming: ["临危受命", "Called in a Crisis"],
  // 谍战篇 (engine/rulesets/spy/data/spy-texts.tsv)
  qiang_ling: ["强令", "Command"],
  dui_zheng_xia_yao: ["对症下药", "Right Remedy"],
  jiao_ji: ["交际", "Socialise"],
  miao_shou: ["妙手", "Deft Hands"],
  sou_ji: ["搜缉", "Search"],
  guang_fa_bao: ["广发报", "Broadcast"],
  jie_dao_sha_ren: ["借刀杀人", "Borrowed Knife"],
  mian_li_cang_zhen: ["绵里藏针", "Needle in Silk"],
  gui_zha: ["诡诈", "Cunning"],
  yi_xin: ["遗信", "Last Letter"],
  bo_ai: ["博爱", "Philanthropy"],
  miao_bi_qiao_bian: ["妙笔巧辩", "Eloquent Pen"],
  yi_hua_jie_mu: ["移花接木", "Graft"],
  ji_ban: ["羁绊", "Bond"],
  xin_si_chao: ["新思潮", "New Thinking"],
  ying_bian: ["应变", "Adapt"],
  you_dao: ["诱导", "Induce"],
  jiang_hu_ling: ["江湖令", "Gang Order"],
  tou_tian: ["偷天", "Steal the Sky"],
  huan_ri: ["换日", "Change the Sun"],
  zhi_yin: ["知音", "Kindred Spirit"],
  jing_meng: ["惊梦", "Startled Dream"],
  ji_zhi: ["急智", "Quick Wit"],
  cheng_zhi: ["承志", "Inherit"],
  wei_sheng: ["尾声", "Epilogue"],
  ji_song: ["急送", "Express"],
  lian_luo: ["联络", "Liaison"],
  ming_er: ["明饵", "Open Bait"],
  zhuan_jiao: ["转交", "Hand Over"],
  shi_si: ["视死", "Face Death"],
  ru_gui: ["如归", "As if Home"],
  yi_ya_huan_ya: ["以牙还牙", "Tooth for Tooth"],
  lian_min: ["怜悯", "Pity"],
  fu_hei: ["腹黑", "Black Heart"],
  du_ji: ["毒计", "Poison Plot"],
  jian_ren: ["坚韧", "Tenacity"],
  jin_shen: ["谨慎", "Caution"],
  jin_kou_yi_kai: ["金口一开", "Golden Words"],
  qi_huo_ke_ju: ["奇货可居", "Rare Goods"],
  jin_bi: ["禁闭", "Confinement"],
  zhao_bai_he: ["朝百合", "Morning Lily"],
  mu_qiang_wei: ["暮蔷薇", "Evening Rose"],
  sheng_dong_ji_xi: ["声东击西", "Feint East, Strike West"],
  he_die: ["合谍", "Joint Spying"],
  jing_ming: ["精明", "Shrewd"],
  suan_ji: ["算计", "Scheming"],
  xian_ji_hou_zhi: ["先机后置", "First Move, Last Word"],
  xi_sheng: ["牺牲", "Sacrifice"],
  wu_xian_dan_yao: ["无限弹药", "Unlimited Ammo"],
  zhan_shu_da_shi: ["战术大师", "Tactician"],
  fan_zhen: ["反侦", "Counter-surveillance"],
  su_yi: ["速译", "Quick Decode"],
  ji_zhong_ji: ["计中计", "Trap in a Trap"],
  jie_shang_jie: ["截上截", "Intercept the Interceptor"],
  he_ran_ji_ti: ["核燃机体", "Nuclear Body"],
  he_neng_xin_pian: ["核能芯片", "Nuclear Chip"],
  ji_min: ["机敏", "Quick Wits"],
  lian_dong: ["联动", "Linkage"],
  zhi_ming_yi_ji: ["致命一击", "Fatal Blow"],
  jue_mi_ren_wu: ["绝密任务", "Top-secret Mission"],
  jiu_ji: ["就计", "Play Along"],
  cheng_fu: ["城府", "Inscrutable"],
  qiao_zhuang: ["乔装", "Disguise"],
  shou_mai: ["收买", "Bribe"],
  xue_ran: ["血染", "Bloodstain"],
  diao_ling: ["凋零", "Wither"],
  qi_che_bao_shuai: ["弃车保帅", "Sacrifice the Rook"],
  po_fu_chen_zhou: ["破釜沉舟", "Burn the Boats"],
  zhuang_tian: ["装填", "Reload"],
  ju_ji: ["狙击", "Snipe"],
  qian_cang_fu_ji: ["潜藏伏击", "Ambush"],
  huang_que_zai_hou: ["黄雀在后", "The Oriole Behind"],
  yun_chou_wei_wo: ["运筹帷幄", "Mastermind"],
  xiao_li_cang_dao: ["笑里藏刀", "Dagger in a Smile"],
  sha_yi: ["杀意", "Killing Intent"],
  liang_jian: ["亮剑", "Draw the Sword"],
  ying_xiong_ben_se: ["英雄本色", "A Better Tomorrow"],
  cheng_ren_qu_yi: ["成仁取义", "Die for the Cause"],
  xian_jing_huan_sheng: ["险境还生", "Narrow Escape"],
  dan_qiang_pi_ma: ["单枪匹马", "Lone Rider"],
  xian_suo: ["线索", "Clue"],
  zhen_xiang: ["真相", "The Truth"],
  qie_yu_wu_xing: ["窃于无形", "Invisible Theft"],
  mao_zi_xi_fa: ["帽子戏法", "Hat Trick"],
  tou_long_zhuan_feng: ["偷龙转凤", "Switcheroo"],
  jin_ji_xia_da: ["紧急下达", "Urgent Order"],
  sou_qu: ["搜取", "Scavenge"],
  kao_wen: ["拷问", "Interrogate"],
  wei_ji_guan_xi: ["危机关系", "Dangerous Liaison"],
  yi_ai_xuan_ming: ["以爱宣名", "In the Name of Love"],
  gu_yong_guan_xi: ["雇佣关系", "Contract"],
  an_sha: ["暗杀", "Assassinate"],
};

const IDENTITIES = {
  MILITARY: ["军情", "Military"],
  LATENT: ["潜伏", "Latent"],
  AGENT: ["特工", "Agent"],
  BYSTANDER: ["打酱油", "Bystander"],
  SPECIAL_SERVICE: ["特工机关", "Special Service"],
  MYSTERY: ["神秘人", "Mystery"],
  IDENTITY_UNSPECIFIED: ["身份未知", "Unknown"],
  military: ["军情", "Military"],
  latent: ["潜伏", "Latent"],
  agent: ["特工", "Agent"],
  bystander: ["打酱油", "Bystander"],
  special_service: ["特工机关", "Special Service"],
  mystery: ["神秘人", "Mystery"],
};

const WORDS = {
  // modes, colours, codes
  SECRET: ["密电", "Secret"], secret: ["密电", "secret"],
  DIRECT: ["直达", "Direct"], direct: ["直达", "direct"],
  TEXT: ["文本", "Text"], text: ["文本", "text"],
  ANY: ["任意", "Any"], any: ["任意", "any"],
  red: ["红", "red"], blue: ["蓝", "blue"], black: ["黑", "black"], red_blue: ["红蓝", "red/blue"], "red+blue": ["红蓝", "red/blue"],
  up: ["向上", "up"], "red+black": ["红黑", "red/black"], "blue+black": ["蓝黑", "blue/black"],
  RED: ["红", "red"], BLUE: ["蓝", "blue"], BLACK: ["黑", "black"], RED_BLUE: ["红蓝", "red/blue"],
  听风: ["听风(红)", "听风 (red)"], 看雨: ["看雨(蓝)", "看雨 (blue)"], 日落: ["日落(黑)", "日落 (black)"],
  left: ["向左", "left"], right: ["向右", "right"],
  exposed: ["暴露(正面)", "exposed (face up)"], hidden: ["隐藏(背面)", "hidden (face down)"],
  // action verbs
  pass: ["过", "Pass"], accept: ["接收", "Accept"], decline: ["不接收", "Decline"],
  declare: ["宣言传递情报", "Declare the send"], play: ["使用", "Play"], send: ["传出", "Send"],
  choose: ["选择", "Choose"], skill: ["发动", "Skill"], to: ["→", "→"], on: ["对", "on"],
  code: ["暗号", "code"], as: ["当作", "as"], cards: ["牌", "cards"], pile: ["牌堆顶", "pile top"],
  receive: ["接收", "receive"],
  // UI
  seat: ["座位", "Seat"], you: ["你", "you"], hand: ["手牌", "Hand"], intel: ["情报", "Intel"],
  alive: ["存活", "alive"], dead: ["死亡", "dead"], locked: ["锁定", "locked"],
  face_down: ["角色背面", "face down"], no_character: ["无角色", "no character"],
  identity: ["身份", "Identity"], character: ["角色", "Character"], turn: ["回合", "Turn"],
  transit: ["传递中的情报", "Intel in transit"], none_in_transit: ["无情报在传递", "No intel in transit"],
  chain: ["响应链", "Response chain"], empty_chain: ["(空)", "(empty)"], log: ["公开记录", "Public log"],
  notices: ["私密信息", "Private notices"], prompt: ["当前决策", "Your decision"],
  waiting: ["等待其他玩家…", "Waiting for other players…"], pile_count: ["牌堆", "Pile"],
  discard: ["弃牌堆", "Discard"], removed: ["移出", "Removed"], timer: ["倒计时", "Timer"],
  autopass: ["只有一种选择时自动应答（如只能“过”）", "Answer for me when I have only one option (e.g. only pass)"],
  auto_passing: ["只有一种选择：自动应答…", "Only one option: answering for you…"],
  game_over: ["游戏结束", "Game over"], winners: ["胜者", "Winners"], reason: ["原因", "Reason"],
  nobody: ["无人", "nobody"], face_down_intel: ["背面", "face down"], sender: ["传出者", "sender"],
  holder: ["当前位置", "at"], target: ["目标", "target"], mode: ["方式", "mode"],
  direction: ["方向", "direction"], receiver: ["接收者", "receiver"], negated: ["已识破", "negated"],
  lobby: ["大厅", "Lobby"], replay: ["回放", "Replay"], profile: ["个人资料", "Profile"],
  spectate: ["观战", "Spectate"], play_now: ["立即开始(对战机器人)", "Play now against bots"],
  players: ["人数", "Players"], bot_kind: ["机器人", "Bot kind"], characters: ["使用角色", "Characters"],
  start: ["开始", "Start"], live_matches: ["进行中的对局", "Live matches"],
  recent_matches: ["最近结束的对局", "Recently finished"], leaderboards: ["排行榜", "Leaderboards"],
  ranked_queue: ["排位匹配", "Ranked queue"],
  watch: ["观战", "Watch"], view_replay: ["回放", "Replay"], your_name: ["昵称", "Your name"],
  step: ["步", "Step"], view_as: ["视角", "View as"], spectator: ["观众", "Spectator"],
  everything: ["全部公开", "Everything"], private: ["私密", "private"], heuristic: ["启发式", "heuristic"],
  level_easy: ["简单（随机）", "easy (random)"], level_normal: ["普通（启发式第二版）", "normal (heuristic v2)"],
  level_hard: ["困难（搜索；未上线时同普通）", "hard (search; as normal until it lands)"],
  easy: ["简单", "easy"], normal: ["普通", "normal"], hard: ["困难", "hard"], v2: ["启发式第二版", "heuristic v2"],
  search: ["搜索", "search"],
  random: ["随机", "random"], human: ["玩家", "human"], external: ["外部机器人", "external bot"],
  turn_timer: ["回合计时(秒, 0=无)", "Turn timer (s, 0 = none)"], bot_delay: ["机器人延迟(秒)", "Bot delay (s)"],
  selected_hint: ["点选手牌可高亮使用它的操作", "Select hand cards to highlight the actions that use them"],
  back_lobby: ["返回大厅", "Back to the lobby"], identities_revealed: ["身份揭晓", "Identities revealed"],
  you_won: ["你赢了!", "You won!"], you_lost: ["你输了", "You lost"], killed_by: ["击杀者", "killed by"],
  respond_delay: ["答复最短用时(秒, 防读秒)", "Answer hold (s, hides timing)"], connected: ["已连接", "connected"],
  disconnected: ["连接断开, 重连中…", "disconnected, reconnecting…"], players_here: ["座位", "Seats"],
  no_live: ["当前没有进行中的对局", "No match is being played right now"], turn_number: ["回合数", "turn"],
  spectating: ["观战中(仅公开信息)", "Spectating (public information only)"],
  first: ["首步", "first"], prev: ["上一步", "previous"], next: ["下一步", "next"], last: ["末步", "last"],
  loading_replay: ["正在计算回放…", "Computing the replay…"], your_identity: ["你的身份", "Your identity"],
  match: ["对局", "Match"],
  kind_main: ["出牌阶段", "play phase"], kind_send: ["传出情报", "send the intel"], kind_arrive: ["情报到达", "intel arrives"],
  kind_returned: ["情报退回", "intel returned"], kind_respond: ["响应", "respond"], kind_choose: ["选择", "choose"],
  kind_discard: ["弃牌", "discard"], kind_character: ["选择角色", "choose a character"], kind_trigger: ["触发", "trigger"],
  kind_turn_start: ["回合开始", "turn start"], kind_priority: ["优先权", "priority"], kind_receive: ["是否接收情报", "receive the intel?"], kind_contest: ["争夺阶段", "contest phase"], kind_rescue: ["濒死结算", "rescue round"], kind_handoff: ["死亡交牌", "hand over cards"], join_queue: ["加入排位队列", "Join the ranked queue"], leave_queue: ["离开队列", "Leave the queue"],
  ticket: ["排队号", "Ticket"], ticket_queued: ["排队中", "queued"], ticket_claimed: ["正在开局", "match being created"],
  ticket_matched: ["已匹配", "matched"], ticket_left: ["已离开", "left"],
  ranked_about: [
    "按等级分匹配; 等待较久后由机器人补位。排位对局有回合计时。",
    "Matched by rating; after a while house bots fill the empty seats. Ranked matches have a turn timer.",
  ],
  players_range: ["人数范围", "Player count"], ladder_human: ["玩家天梯", "People"], ladder_bot: ["机器人天梯", "Bots"],
  all_time: ["总榜", "All time"], this_season: ["本赛季", "This season"], name: ["名字", "Name"],
  score: ["分数(μ−3σ)", "Score (μ−3σ)"], wins_games: ["胜/局", "Wins/games"], provisional: ["定级中", "provisional"],
  board_empty: ["还没有已计分的排位对局。", "No rated ranked match yet."], rating: ["等级分", "Rating"],
  ranked_history: ["排位记录", "Ranked history"], won: ["胜", "won"], lost: ["负", "lost"],
  no_ranked: ["还没有排位记录。", "No ranked match yet."], casual_history: ["本浏览器的对局", "This browser's matches"],
  no_guest: ["本浏览器还没有游客账号: 去大厅开一局吧。", "No guest account in this browser yet: play a match from the lobby."],
  no_seat_token: ["本浏览器没有这局的座位凭证。", "This browser holds no seat token for this match."],
  stream_ended: ["直播结束", "stream ended"], state: ["状态", "State"], facedown_short: ["背面", "face down"], bot: ["机器人", "bot"], deciding: ["决策中", "deciding"], watch_bots: ["观看机器人对局", "Watch a bots-only match"],
  legend: ["图例: ✉密电 ➜直达 ☰文本 ✱任意 ⇄可转向 ◆加密", "Legend: ✉ secret ➜ direct ☰ text ✱ any ⇄ direction-any ◆ encrypted"],
  mission_cards: ["张", "cards"], hand_count: ["手牌数", "hand"], state_face_up: ["正面", "face up"],
  ruleset: ["规则", "Ruleset"], identities: ["身份", "Identities"], players_unit: ["人", "players"],
  no_characters: ["(此规则无角色)", "(no characters in this ruleset)"],
  mission: ["机密任务", "Secret mission"], skills: ["技能", "Skills"],
  // challenges (challenges.js): invitations in the lobby, the challenge button of a profile
  invitations: ["挑战邀请", "Invitations"], no_invitations: ["暂时没有人向你发起挑战", "No challenge for you right now"],
  challenges_you: ["向你发起挑战", "challenges you"], seats_n: ["{n}人桌", "{n} seats"],
  expires_in: ["剩余{s}秒", "{s} s left"], accept_challenge: ["接受", "Accept"], decline_challenge: ["拒绝", "Decline"],
  invite_accepted: ["已接受, 等待其他人答复…", "Accepted, waiting for the others…"],
  invite_declined: ["挑战已取消(有人拒绝)", "challenge off (declined)"],
  invite_expired: ["挑战已过期", "challenge expired"],
  challenge: ["发起挑战", "Challenge"],
  challenge_about: ["休闲对局, 不计分; 人数不足时由机器人补位。", "A casual table, never rated; house bots fill the seats left."],
  your_challenge: ["你的挑战", "Your challenge"], challenge_pending: ["等待对方答复", "waiting for an answer"],
  challenge_declined: ["对方拒绝了挑战", "the challenge was declined"],
  challenge_expired: ["对方未及时答复, 挑战已过期", "no answer in time: the challenge expired"],
  share_profile: ["你的个人资料(把链接发给别人, 他们就能向你发起挑战)", "Your profile (share its link: others challenge you from it)"],
  no_guest_invites: ["开一局后就有游客账号, 别人才能向你发起挑战。", "Play a match first: with a guest account, others can challenge you."],
  // chat (gateway/chat.py; quick phrases are shown in the reader's language)
  chat_table: ["牌桌聊天", "Table chat"], chat_spectators: ["观众聊天", "Spectator chat"],
  chat_send: ["发送", "Send"], chat_placeholder: ["说点什么…(最多200字)", "Say something… (200 characters at most)"],
  chat_mute: ["屏蔽", "mute"], chat_unmute_all: ["取消全部屏蔽", "unmute all"], chat_muted: ["已屏蔽", "muted"],
  chat_empty: ["还没有消息", "No message yet"], chat_spectator_name: ["观众", "spectator"],
  chat_hidden_live: ["对局结束后显示观众聊天", "The spectators' chat shows once the match is over"],
  "chat.phrase.hello": ["大家好!", "Hello!"], "chat.phrase.gl": ["祝好运!", "Good luck!"],
  "chat.phrase.gg": ["打得好!(GG)", "Good game!"], "chat.phrase.nice": ["漂亮!", "Nice one!"],
  "chat.phrase.thinking": ["让我想想…", "Let me think…"], "chat.phrase.hurry": ["快点吧~", "Hurry up~"],
  "chat.phrase.sorry": ["抱歉!", "Sorry!"], "chat.phrase.thanks": ["谢谢!", "Thanks!"],
  "chat.phrase.wow": ["哇!", "Wow!"],
  // structured text (text.js): markers, face-down cards, colours and timings named by the engine
  marker_direction: ["可转向", "direction-any"], marker_lock: ["加密", "encrypted"],
  // 谍战篇 (shared/rules/spy-edition.md §4, §6; source: 濒死状态, 濒死结算)
  marker_lock_icon: ["锁定标记", "lock icon"], arrow: ["箭头", "arrow"], locked_to: ["锁定", "locked"],
  legend_spy: ["图例: ←向左 →向右 ↑指定 🔒锁定标记", "Legend: ← left → right ↑ to a named seat 🔒 lock icon"],
  phase: ["阶段", "Phase"], phase_contest: ["争夺阶段", "Contest phase"], phase_rescue: ["濒死结算", "Rescue round"],
  phase_handoff: ["死亡交牌", "Hand-over at death"], dying_now: ["濒死", "dying"], seat_dying: ["{seat}濒死", "{seat} is dying"],
  seat_died: ["{seat}死亡", "{seat} died"],
  face_down_card: ["一张背面的牌", "a face-down card"], dual: ["双色", "dual"],
  burned: ["情报被烧毁时", "burned"], discarded: ["弃牌时", "discarded"], dying: ["濒死时", "dying"],
  received: ["接收情报时", "received"], targeted: ["成为目标时", "targeted"], seen_through: ["被识破时", "seen through"],
  card_text: ["牌面效果", "What it does"], rules: ["规则", "Rules"], victory: ["胜利条件", "Victory"],
  cards_heading: ["游戏牌", "Cards"], characters_heading: ["角色", "Characters"], rules_page: ["规则说明", "Rules"],
  seat_lost: ["服务器已重置, 你的座位凭证失效: 现以观众身份观看", "The server was reset and your seat token no longer works: watching instead"],
};

// words of the action notation (docs/notation.md), for the labels of the action buttons
const ACTION_WORDS = {
  pass: ["过", "pass"], accept: ["接收", "accept"], decline: ["不接收", "decline"],
  declare: ["宣言传递情报", "declare the send"], play: ["使用", "play"], send: ["传出", "send"],
  choose: ["选择", "choose"], skill: ["发动", "skill"], to: ["→", "→"], on: ["对", "on"],
  code: ["暗号", "code"], as: ["当作", "as"], cards: ["牌", "cards"], pile: ["牌堆顶", "pile top"],
  secret: ["密电", "secret"], direct: ["直达", "direct"], text: ["文本", "text"],
  left: ["向左", "left"], right: ["向右", "right"], exposed: ["正面(暴露)", "exposed"], hidden: ["背面(隐藏)", "hidden"],
  听风: ["听风(红)", "听风 (red)"], 看雨: ["看雨(蓝)", "看雨 (blue)"], 日落: ["日落(黑)", "日落 (black)"],
  military: ["军情", "military"], latent: ["潜伏", "latent"], agent: ["特工", "agent"],
  bystander: ["打酱油", "bystander"],
  // the options of choose decisions (engine/rulesets/*: choose <word>)
  none: ["都不", "none"], done: ["完成", "done"], keep: ["保留", "keep"], swap: ["交换", "swap"],
  take: ["拿取", "take"], leave: ["不发动", "leave"], flip: ["翻面", "flip"], draw: ["摸牌", "draw"],
  four: ["摸四张", "draw four"], discard: ["弃牌", "discard"], burn: ["烧毁", "burn"], identity: ["查看身份", "identity"],
  special_service: ["特工机关", "special service"], mystery: ["神秘人", "mystery"],
  up: ["向上(指定)", "up"], lock: ["锁定", "lock"],
  // colours named by a choice (谍战篇 江湖令 and others: skill <id> choose <colour>)
  red: ["红", "red"], blue: ["蓝", "blue"], black: ["黑", "black"],
};

let lang = localStorage.getItem("fs.lang") || "zh";

export function getLang() {
  return lang;
}

export function setLang(value) {
  lang = value === "en" ? "en" : "zh";
  localStorage.setItem("fs.lang", lang);
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
}

Object.assign(WORDS, TABLE_WORDS); // the table's own words (words.js)
Object.assign(WORDS, GUIDE_WORDS); // the first-game guide's (guidewords.js)

function pick(entry, id) {
  if (!entry) return id;
  return lang === "zh" ? entry[0] : entry[1];
}

/** `send_back` -> `Send back`: the English of an id no table here names. */
const spelled = (id) => (id ? id.charAt(0).toUpperCase() + id.slice(1).replace(/_/g, " ") : id);

// names the gateway gave (id -> [zh, en]); Chinese from the server first, English from the
// tables above first (the server's English column may hold pinyin placeholders)
const LEARNED = { functions: {}, characters: {}, skills: {} };

function learned(table, extra, id) {
  const known = table[id];
  const got = extra[id];
  if (!known && !got) return undefined;
  return [got?.[0] || known?.[0] || id, known?.[1] || got?.[1] || spelled(id)];
}

/** Learn the printed names of a deck's card functions (GET /api/cards). */
export function learnDeck(deck) {
  for (const card of Object.values(deck || {})) {
    if (card.function && card.function_zh) LEARNED.functions[card.function] = [card.function_zh, ""];
  }
}

// the secret missions in the server's English, by "ruleset:character"
const MISSIONS_EN = {};
let currentRuleset = "";

/** The ruleset whose character missions missionText() reads by default (the table's). */
export function useRuleset(id) {
  currentRuleset = id || "";
}

/** The ruleset of the page (useRuleset), "" when none was set. */
export const currentRulesetId = () => currentRuleset;

const CHARACTER_SKILLS = {};
const SKILL_TEXT = {}; // "ruleset:skill" -> [zh, en]: what the skill does (GET /api/rulesets)

/** What a skill does, in the current language ("" when unknown). */
export function skillText(id, ruleset = currentRuleset) {
  const entry = SKILL_TEXT[`${ruleset}:${id}`];
  if (!entry) return "";
  return (lang === "zh" ? entry[0] || entry[1] : entry[1] || entry[0]) || "";
}
/** A character's skill ids (in the current ruleset). */
export const characterSkills = (id, ruleset = currentRuleset) => CHARACTER_SKILLS[`${ruleset}:${id}`] || [];

/** A character's secret mission (机密任务) in the current language ("" when it has none);
 * the printed names the engine's English quotes are given in English. */
export function missionText(id, ruleset = currentRuleset) {
  const en = MISSIONS_EN[`${ruleset}:${id}`] || "";
  if (lang === "zh") return MISSIONS_ZH[ruleset]?.[id] || en;
  return en.replace(/[\u4e00-\u9fff]+/g, englishName);
}

/** Learn a ruleset's characters and skills (one entry of GET /api/rulesets). */
export function learnRuleset(info) {
  for (const c of info?.character_table || []) {
    if (c.mission) MISSIONS_EN[`${info.id}:${c.id}`] = c.mission;
    CHARACTER_SKILLS[`${info.id}:${c.id}`] = (c.skills || []).map((s) => s.id);
    LEARNED.characters[c.id] = [c.zh, c.en];
    for (const s of c.skills || []) {
      if (s.zh) LEARNED.skills[s.id] = [s.zh, ""];
      if (s.text_zh || s.text_en) SKILL_TEXT[`${info.id}:${s.id}`] = [s.text_zh || "", s.text_en || ""];
    }
  }
}

const fnEntry = (id) => learned(FUNCTIONS, LEARNED.functions, id);
const charEntry = (id) => learned(CHARACTERS, LEARNED.characters, id);
const skillEntry = (id) => learned(SKILLS, LEARNED.skills, id);

export const t = (word) => pick(WORDS[word], word);
/** A decision kind (main, send, arrive, returned, respond, choose, discard...). */
export const kind = (k) => (WORDS[`kind_${k}`] ? pick(WORDS[`kind_${k}`], k) : k);
export const fn = (id) => pick(fnEntry(id), id);
export const character = (id) => pick(charEntry(id), id);
export const skill = (id) => pick(skillEntry(id), id);
export const identity = (id) => pick(IDENTITIES[id], id);

// 谍战篇 神秘人 cards (secret_task: shared/rules/spy-edition.md §7.2), name and victory condition
const SECRET_TASKS = {
  zhen_ya_zhe: ["镇压者", "Suppressor", "在你的回合，有玩家死亡时拥有2张或更多红色或蓝色情报", "during your own turn, a player dies holding 2 or more red-or-blue intel"],
  cuan_duo_zhe: ["篡夺者", "Usurper", "在你的回合，有人宣告胜利时，你代替其获胜", "during your own turn, when anyone declares victory, you win in their place"],
  shuang_mian_jian_die: ["双面间谍", "Double Agent", "你拥有3张红色或3张蓝色情报", "you hold 3 red or 3 blue intel"],
  you_bian_zhe: ["诱变者", "Instigator", "有玩家拥有3张红色或3张蓝色情报但未因此宣告胜利", "some player holds 3 red or 3 blue intel without declaring victory for it"],
  xian_xing_zhe: ["先行者", "Vanguard", "你死亡时拥有至少1张红色或蓝色情报", "when you die, you hold at least 1 red-or-blue intel"],
  jiao_ju_zhe: ["搅局者", "Spoiler", "你的回合结束时，其他每名存活玩家都拥有至少2张红色或蓝色情报", "at the end of your own turn, every other living player holds at least 2 red-or-blue intel"],
  qing_dao_fu: ["清道夫", "Sweeper", "有玩家死亡时拥有至多1张红色和至多1张蓝色情报", "a player dies holding at most 1 red intel and at most 1 blue intel"],
};

/** A 神秘人 card's name in the current language (the id when unknown). */
export function secretTask(id) {
  const row = SECRET_TASKS[id];
  return row ? (lang === "zh" ? row[0] : row[1]) : id;
}

/** A 神秘人 card's victory condition in the current language ("" when unknown). */
export function secretTaskText(id) {
  const row = SECRET_TASKS[id];
  return row ? (lang === "zh" ? row[2] : row[3]) : "";
}

/** A ruleset's name: its Chinese name from the server, with its id in English. */
export const rulesetName = (info) => (info ? (lang === "zh" ? info.zh || info.id : `${info.id} (${info.zh})`) : "");

/** Any id: a card function, a character, a skill, an identity or a word. */
export function name(id) {
  for (const entry of [fnEntry(id), charEntry(id), skillEntry(id)]) if (entry) return pick(entry, id);
  for (const table of [IDENTITIES, WORDS]) {
    if (id in table) return pick(table[id], id);
  }
  return id;
}

/** One word of an action in notation: verbs, modes and ids get names, other words stay. */
export function actionWord(word) {
  if (word in ACTION_WORDS) return pick(ACTION_WORDS[word], word);
  if (word.includes(",") && !/^[\d,]+$/.test(word)) {
    // a list of names in one word (谍战篇 强令: choose intercept,swap)
    return word.split(",").map(actionWord).join(lang === "zh" ? "、" : ", ");
  }
  for (const entry of [charEntry(word), skillEntry(word), fnEntry(word)]) if (entry) return pick(entry, word);
  return word;
}

/** Ids in a free text (log lines, prompts) replaced by their names in the current language. */
export function translateText(text) {
  return String(text).replace(/[a-z][a-z_]+[a-z]/g, (word) => {
    const c = charEntry(word) || skillEntry(word);
    if (c) return pick(c, word);
    const f = fnEntry(word);
    if (f && lang === "zh") return f[0];
    return word;
  });
}

// the engine's game-over reasons (engine/rulesets/*/rules.py, victory.py), one pattern each
const REASONS = [
  // 谍战篇 (engine/rulesets/spy/flow.py)
  [/^intel collected$/, () => ["集齐情报", "intel collected"]],
  [/^a death$/, () => ["玩家死亡", "a death"]],
  [/^last player standing$/, () => ["最后存活的玩家", "last player standing"]],
  [/^(\w+) at the turn end$/, (m) => [`${secretTask(m[1])}于回合结束时获胜`, `${secretTask(m[1])} at the turn end`]],
  [/^(?:the )?last player alive$/, () => ["最后存活的玩家", "the last player alive"]],
  [/^nobody is left$/, () => ["无人存活", "nobody is left"]],
  [/^agent completes a victory condition$/, () => ["特工完成胜利条件", "an agent completes a victory condition"]],
  [/^agent mission on another's declaration$/, () => ["他人宣胜时特工完成任务", "an agent's mission met on another's declaration"]],
  [/^secret mission completed$/, () => ["完成机密任务", "secret mission completed"]],
  [/^secret mission completed at death$/, () => ["死亡时完成机密任务", "secret mission completed at death"]],
  [/^(military|latent) holds 3 (red|blue) intel$/, (m) => [
    `${pick(IDENTITIES[m[1].toUpperCase()], m[1])}集齐3张${m[2] === "red" ? "红色" : "蓝色"}情报`,
    `${m[1]} holds 3 ${m[2]} intel`]],
  [/^(\w+) faction: three intel of its colour$/, (m) => [
    `${pick(IDENTITIES[m[1].toUpperCase()], m[1])}阵营集齐3张本色情报`, `${m[1]} faction: three intel of its colour`]],
  [/^mission of (\w+): the declaration of seat (\d+) fails$/, (m) => [
    `${character(m[1])}完成机密任务: 座位 ${m[2]} 的宣胜失败`, `mission of ${character(m[1])}: seat ${m[2]}'s declaration fails`]],
  [/^mission of (\w+)$/, (m) => [`${character(m[1])}完成机密任务`, `mission of ${character(m[1])}`]],
];

/** A game-over reason in the current language (several are joined by "; "). */
export function reasonText(reason) {
  return String(reason || "")
    .split("; ")
    .map((part) => {
      for (const [re, make] of REASONS) {
        const m = re.exec(part);
        if (m) return make(m)[lang === "zh" ? 0 : 1];
      }
      return translateText(part);
    })
    .join(lang === "zh" ? "; " : "; ");
}

/** A prompt's English line, its ids named, for a prompt that came without its template
 * (none does: every prompt is a value, rendered by text.js from its template and args). */
export function promptText(text) {
  return translateText(String(text || ""));
}

/** A date and time in the reader's locale: Chinese, or the browser's English locale. */
export const dateText = (ms) =>
  new Date(ms).toLocaleString(
    lang === "zh" ? "zh-CN" : /^en\b/.test(navigator.language || "") ? navigator.language : "en-GB",
  );

// Chinese printed name -> English, from every name table the client knows (the name itself
// when none does)
export function englishName(zh) {
  for (const table of [FUNCTIONS, SKILLS, CHARACTERS]) {
    for (const entry of Object.values(table)) if (entry[0] === zh) return entry[1];
  }
  for (const [kind, table] of Object.entries(LEARNED)) {
    for (const [id, entry] of Object.entries(table)) {
      if (entry[0] !== zh) continue;
      const known = kind === "functions" ? FUNCTIONS[id] : kind === "skills" ? SKILLS[id] : CHARACTERS[id];
      return known?.[1] || entry[1] || id.charAt(0).toUpperCase() + id.slice(1).replace(/_/g, " ");
    }
  }
  const word = {
    绝密任务: "Top-secret Mission", 危险情报: "Danger Intel", 密电: "Secret", 试探: "Probe", 文本: "Text",
    直达: "Direct", 任意: "Any", 情报传递: "Intel passing", 情报到达: "Intel arrival", 情报接收: "Intel receiving", 其实我是卧底: "Actually, I am a mole", 我是一个好人: "I am a good person",
  }[zh];
  return word || zh;
}

export const DICTIONARIES = { FUNCTIONS, CHARACTERS, SKILLS, IDENTITIES, WORDS, LEARNED };
