// A seat's token checked against the gateway (renewed when it went stale), and the seats of a
// ranked match (not in the gateway's seat table).
import { api, forgetSeatToken, guest, saveSeatToken } from "./api.js";

/** The seat token if the gateway still takes it; else a new one for the same seat from
 * POST /join with this browser's guest (renewed first if it is stale too), when the seat is
 * still this guest's; else null (the token is forgotten and the page falls back to watching,
 * saying why). A match that is gone (404) keeps the token: the page says so itself. */
export async function checkedSeat(matchId, grant) {
  try {
    await api(`/api/matches/${matchId}/observation`, { token: grant.token });
    return grant;
  } catch (err) {
    if (err.status !== 401 && err.status !== 403) return grant;
  }
  forgetSeatToken(matchId);
  try {
    const g = await guest();
    const joined = await api(`/api/matches/${matchId}/join`, { method: "POST", token: g.token, body: { seat: grant.seat } });
    saveSeatToken(matchId, joined.seat, joined.seat_token);
    return { seat: joined.seat, token: joined.seat_token };
  } catch {
    sessionStorage.setItem(`fs.seat_lost.${matchId}`, "1");
    return null;
  }
}

/** A ranked match is not in the gateway's seat table: its seats come from the ranked record. */
export async function rankedSeats(info, matchId) {
  try {
    const ranked = await api(`/api/ranked/matches/${matchId}`);
    info.seats = (ranked.seats || []).map((s) => ({ seat: s.seat, kind: s.kind, player: s.name, bot: s.bot }));
    info.settings = { ...(info.settings || {}), turn_timeout_ms: ranked.turn_timeout_ms || 0, ranked: true };
  } catch {
    /* not a ranked match either: seats stay numbered */
  }
}
