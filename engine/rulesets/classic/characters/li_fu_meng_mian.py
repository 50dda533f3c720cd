"""礼服蒙面人 (li_fu_meng_mian): not implemented yet; PENDING keeps it out of the pool (docs/classic-characters.md).

Replace this file with the character: its skill classes in SKILLS and its MISSION."""

PENDING = True
