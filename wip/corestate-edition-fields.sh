#!/bin/sh
# Ruleset-owned state (issue 31 §2): the edition-only fields of Seat/State now live in each
# ruleset's record (engine/rulesets/<r>/records.py), read through seat_ext()/match_ext().
# Mechanical rewrite of the code that reads them; re-run after merging (idempotent).
set -e
# run from the repository root
R=engine/rulesets
# 风声再临: Seat.relation / Seat.secret_character -> seat_ext(seat).…; State.send_code(_user) -> match_ext(st).…
for f in $(grep -rlE '\.(relation|secret_character)\b' $R/return --include=*.py | grep -v 'records.py\|setup.py'); do
  perl -pi -e 's/(?<![\w.(])((?:g\.state|st)\.seats\[[^\]]+\]|\b(?:p|me|seat|dead|s))\.(relation|secret_character)\b/seat_ext($1).$2/g' "$f"
done
for f in $(grep -rlE '\bst\.send_code' $R/return --include=*.py | grep -v records.py); do
  perl -pi -e 's/\bst\.(send_code_user|send_code)\b/match_ext(st).$1/g' "$f"
done
# 谍战篇: Seat.secret_task -> seat_ext(seat).secret_task
for f in $(grep -rlE '\.secret_task\b' $R/spy --include=*.py | grep -v 'records.py\|setup.py'); do
  perl -pi -e 's/(?<![\w.(])\b(p|me|dead|seat|s)\.secret_task\b/seat_ext($1).secret_task/g' "$f"
done
# imports: each rewritten module imports the accessors it uses from its ruleset's records.py
for f in $(grep -rlE '\b(seat_ext|match_ext)\(' $R/return $R/spy $R/classic --include=*.py | grep -v 'records.py'); do
  names=$(grep -oE '\b(seat_ext|match_ext)\(' "$f" | tr -d '(' | sort -u | paste -sd, - | sed 's/,/, /g')
  case "$f" in */characters/*|*/cards/*) rel='..records' ;; *) rel='.records' ;; esac
  grep -qE "^from $rel import" "$f" && continue
  # after the last top-level "from ." import, else after the last "from engine" import
  line=$(grep -nE '^from \.' "$f" | tail -1 | cut -d: -f1)
  [ -n "$line" ] || line=$(grep -nE '^from engine|^import ' "$f" | tail -1 | cut -d: -f1)
  sed -i "${line}a from $rel import $names" "$f"
done
sed -i 's/``Seat\.secret_character``/``ReturnSeat.secret_character``/g' $R/return/characters/zhi_ming_xiang_shui.py
.venv/bin/ruff check --select I001 --fix -q $(git diff --name-only -- $R | grep "\.py$") || true
