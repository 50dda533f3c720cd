// Sounds of the table (issue 28 §4): short WebAudio beeps, no audio files. Off on a first
// visit; one toggle turns them on or off and is remembered (localStorage `fs.sound`).
import { t } from "./i18n.js";
import { h } from "./render.js";

/** Whether the reader asked for less motion (animations and smooth scrolling are skipped). */
export const reducedMotion = () => Boolean(window.matchMedia?.("(prefers-reduced-motion: reduce)").matches);

export const soundOn = () => localStorage.getItem("fs.sound") === "1";

// each cue: notes as [frequency Hz, start s, length s]
const CUES = {
  your_turn: [[660, 0, 0.09], [880, 0.1, 0.12]],
  intel: [[520, 0, 0.07]],
  death: [[330, 0, 0.18], [220, 0.2, 0.3]],
  win: [[523, 0, 0.12], [659, 0.13, 0.12], [784, 0.26, 0.22]],
  lose: [[392, 0, 0.15], [330, 0.17, 0.15], [262, 0.34, 0.3]],
};

let ctx = null;

/** Play cue `name` if sounds are on (quietly: a game's beeps, not music). */
export function cue(name) {
  const notes = CUES[name];
  if (!notes || !soundOn()) return;
  try {
    ctx ??= new (window.AudioContext || window.webkitAudioContext)();
    const now = ctx.currentTime;
    for (const [freq, start, length] of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.08, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  } catch {
    /* no audio on this device: the game goes on silently */
  }
}

/** The one mute toggle: a button that says whether sounds are on. */
export function soundToggle() {
  const btn = h("button", { type: "button", class: "sound-toggle", id: "sound-toggle" });
  const show = () => {
    // plain text (no emoji: a phone may have no emoji font)
    btn.textContent = `♪ ${soundOn() ? t("sound_on") : t("sound_off")}`;
  };
  btn.addEventListener("click", () => {
    localStorage.setItem("fs.sound", soundOn() ? "0" : "1");
    show();
    if (soundOn()) cue("intel"); // a sample, and the browser's audio is unlocked by this tap
  });
  show();
  return btn;
}
