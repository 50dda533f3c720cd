// The router of the single-page client: #/lobby, #/table/ID, #/spectate/ID, #/replay/ID, #/profile,
// #/rules/RULESET.
import { getLang, setLang, t } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountProfile } from "./profile.js";
import { mountReplay } from "./replay.js";
import { mountRules } from "./rules.js";
import { mountTable } from "./table.js";

const root = document.getElementById("app");
let cleanup = () => {};
let generation = 0;

function nav() {
  const lang = document.getElementById("lang");
  lang.textContent = getLang() === "zh" ? "English" : "中文";
  document.getElementById("nav-lobby").textContent = t("lobby");
  document.getElementById("nav-profile").textContent = t("profile");
}

async function route() {
  const mine = ++generation;
  cleanup();
  cleanup = () => {};
  nav();
  const [path, search = ""] = (location.hash || "#/lobby").split("?");
  const [, page = "lobby", rawId = ""] = path.split("/");
  const id = decodeURIComponent(rawId);
  const query = new URLSearchParams(search);
  document.body.dataset.page = page;
  let stop;
  try {
    if (page === "table") stop = await mountTable(root, { matchId: id });
    else if (page === "spectate") stop = await mountTable(root, { matchId: id, spectator: true });
    else if (page === "replay") stop = await mountReplay(root, { matchId: id });
    else if (page === "rules") stop = await mountRules(root, { rulesetId: id });
    else if (page === "profile") stop = await mountProfile(root, { playerId: id, query });
    else stop = await mountLobby(root);
  } catch (err) {
    root.textContent = `error: ${err.message || err}`;
  }
  if (mine !== generation) {
    stop?.();
    return;
  }
  cleanup = stop || (() => {});
}

document.getElementById("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  route();
});
window.addEventListener("hashchange", route);
setLang(getLang());
route();
