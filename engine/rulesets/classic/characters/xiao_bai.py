"""小白 (xiao_bai): not implemented yet; PENDING keeps it out of the pool (docs/classic-characters.md).

Replace this file with the character: its skill classes in SKILLS and its MISSION."""

PENDING = True
