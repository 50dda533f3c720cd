// The player profile: this browser's guest account and its matches. Ratings and ranked
// history arrive with ranked play (not built yet).
import { history, savedGuest } from "./api.js";
import { t } from "./i18n.js";
import { fill, h } from "./render.js";

export async function mountProfile(root) {
  const me = savedGuest();
  const games = history();
  fill(root, h(
      "section",
      { class: "panel profile", id: "profile" },
      h("h2", {}, t("profile")),
      me
        ? h("p", {}, h("strong", {}, me.name), " ", h("code", {}, me.id))
        : h("p", { class: "muted" }, t("no_guest")),
      h(
        "p",
        { class: "muted" },
        t("profile_soon"),
      ),
      h(
        "ul",
        { class: "matches" },
        games.map((g) =>
          h(
            "li",
            {},
            h("code", {}, g.match_id),
            ` ${t("seat")} ${g.seat} · ${new Date(g.at).toLocaleString()} `,
            h("a", { href: `#/table/${g.match_id}`, class: "button small" }, t("seat")),
            " ",
            h("a", { href: `#/replay/${g.match_id}`, class: "button small" }, t("view_replay")),
          ),
        ),
      ),
    ),
  );
  return () => {};
}
