"""The character table of 谍战篇 (spy digest §9, ``data/spy-characters.tsv``)."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

TABLE = Path(__file__).parent / "data" / "spy-characters.tsv"


@dataclass(frozen=True, slots=True)
class Row:
    """One character card: id, Chinese name (title), sex (``M``/``F``, counts only face
    up), hidden (隐藏角色: starts face down), skill ids, the digest's summary text, and
    the expansion it comes from (``""``: the base box; ``一扩`` / ``二扩``, digest §1.4)."""

    id: str
    zh: str
    sex: str
    hidden: bool
    skills: tuple[str, ...]
    text: str
    expansion: str = ""

    @property
    def en(self) -> str:
        return self.id.replace("_", " ").title()


def _load() -> dict[str, Row]:
    with TABLE.open(encoding="utf-8") as fh:
        rows = [Row(r["id"], r["zh"], r["sex"], r["hidden"] == "yes", tuple(r["skills"].split(",")), r["text"],
                    r["expansion"]) for r in csv.DictReader(fh, delimiter="\t")]
    base = sum(1 for r in rows if not r.expansion)
    if base != 33 or len({r.id for r in rows}) != len(rows):
        raise ValueError(f"{TABLE}: expected the 33 base characters and unique ids, got {base} of {len(rows)}")
    return {r.id: r for r in rows}


ROWS: dict[str, Row] = _load()

