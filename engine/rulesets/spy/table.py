"""The character table of 谍战篇 (spy digest §9, ``data/spy-characters.tsv``)."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

TABLE = Path(__file__).parent / "data" / "spy-characters.tsv"


@dataclass(frozen=True, slots=True)
class Row:
    """One character card: id, Chinese name (title), sex (``M``/``F``, counts only face
    up), hidden (隐藏角色: starts face down), skill ids, the digest's summary text."""

    id: str
    zh: str
    sex: str
    hidden: bool
    skills: tuple[str, ...]
    text: str

    @property
    def en(self) -> str:
        return self.id.replace("_", " ").title()


def _load() -> dict[str, Row]:
    with TABLE.open(encoding="utf-8") as fh:
        rows = [Row(r["id"], r["zh"], r["sex"], r["hidden"] == "yes", tuple(r["skills"].split(",")), r["text"])
                for r in csv.DictReader(fh, delimiter="\t")]
    if len(rows) != 33:
        raise ValueError(f"{TABLE}: expected the 33 base characters, got {len(rows)}")
    return {r.id: r for r in rows}


ROWS: dict[str, Row] = _load()

