"""The desk's words in English and Thai. A page's language: `?lang=th|en` (kept in a cookie), else the
cookie, else the event's language, else English. A text missing in Thai shows in English."""
from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

LANGUAGES = ("en", "th")

TH: dict[str, str] = {
    "Events": "รายการแข่งขัน",
    "Event": "รายการ",
    "Standings": "ตารางคะแนน",
    "Pairings": "การจับคู่",
    "Players": "ผู้เข้าแข่งขัน",
    "Player": "ผู้เล่น",
    "Projector": "จอฉาย",
    "Round": "รอบ",
    "Table": "โต๊ะ",
    "Place": "อันดับ",
    "Team": "ทีม",
    "Latest results": "ผลล่าสุด",
    "Log in": "เข้าสู่ระบบ",
    "Log out": "ออกจากระบบ",
    "Password": "รหัสผ่าน",
    "Password again": "รหัสผ่านอีกครั้ง",
    "Set the organiser's password": "ตั้งรหัสผ่านของผู้จัดการแข่งขัน",
    "First start: set the organiser's password.": "เริ่มใช้งานครั้งแรก: ตั้งรหัสผ่านของผู้จัดการแข่งขัน",
    "Wrong password.": "รหัสผ่านไม่ถูกต้อง",
    "The two passwords differ.": "รหัสผ่านทั้งสองไม่ตรงกัน",
    "Too many tries: wait a minute.": "ลองผิดหลายครั้งเกินไป กรุณารอหนึ่งนาที",
    "Too many wrong passwords from browsers this desk does not know: wait a minute, or log in from the "
    "browser that set the password or last logged in.":
        "มีการใส่รหัสผ่านผิดจากเบราว์เซอร์ที่ระบบไม่รู้จักหลายครั้งเกินไป กรุณารอหนึ่งนาที "
        "หรือเข้าสู่ระบบจากเบราว์เซอร์ที่ใช้ตั้งรหัสผ่านหรือเข้าสู่ระบบครั้งล่าสุด",
    "Clocks": "นาฬิกา",
    "Results": "ผลการแข่งขัน",
    "Result": "ผล",
    "Set-up": "การตั้งค่า",
    "Organiser": "ผู้จัดการแข่งขัน",
    "Pair the next round (draft)": "จับคู่รอบถัดไป (ฉบับร่าง)",
    "Publish the draft": "ประกาศการจับคู่",
    "Draft": "ฉบับร่าง",
    "published": "ประกาศแล้ว",
    "draft": "ฉบับร่าง",
    "waiting": "รอเริ่ม",
    "playing": "กำลังแข่ง",
    "confirmed": "ยืนยันผลที่โต๊ะแล้ว",
    "uploaded": "ส่งผลแล้ว",
    "Missing boards": "โต๊ะที่ยังไม่มีผล",
    "Progress": "ความคืบหน้า",
    "State": "สถานะ",
    "Exports": "ส่งออกข้อมูล",
    "Amend": "แก้ไขผล",
    "Amend this result": "แก้ไขผลนี้",
    "Reason": "เหตุผล",
    "An amendment needs a reason.": "การแก้ไขผลต้องระบุเหตุผล",
    "Amendments": "ประวัติการแก้ไขผล",
    "No amendments.": "ยังไม่มีการแก้ไข",
    "The signed record is kept as the clock sent it; amendments are kept beside it.":
        "ผลที่นาฬิกาลงนามถูกเก็บไว้ตามเดิม การแก้ไขเก็บแยกไว้ข้างกัน",
    # issue 26, the results side (desk/results.py: hand entry, wrong uploads, the results to look at)
    "Back to the round": "กลับไปที่รอบ",
    "Game": "เกม",
    "Clock": "นาฬิกา",
    "Stage": "ช่วงการแข่งขัน",
    "last": "เกมสุดท้ายของรอบคัดเลือก",
    "no": "ไม่",
    "To look at": "ต้องตรวจสอบ",
    "entered by hand": "กรอกด้วยมือ",
    "Entered by hand": "กรอกด้วยมือ",
    "Enter by hand": "กรอกผลด้วยมือ",
    "Enter the result by hand": "กรอกผลด้วยมือ",
    "Correct the hand entry": "แก้ไขผลที่กรอกด้วยมือ",
    "This game has the clock's result: amend it on its page instead.":
        "เกมนี้มีผลจากนาฬิกาแล้ว ให้แก้ไขผลในหน้าของผลนั้นแทน",
    "For a game whose clock could not send its result (a dead clock): the result from the score slip, scored by "
    "the rules as the clock scores it. It is kept as the organiser's record, entered by hand, never as a clock's.":
        "สำหรับเกมที่นาฬิกาส่งผลไม่ได้ (นาฬิกาเสีย): กรอกผลจากใบบันทึกคะแนน ระบบคิดคะแนนตามกติกาเหมือนที่นาฬิกาคิด "
        "และเก็บไว้เป็นบันทึกของผู้จัดการแข่งขันที่กรอกด้วยมือ ไม่ใช่ผลที่นาฬิกาลงนาม",
    "The table's preset is not on this PC, or it has none: give the id of the preset its game was played by.":
        "ไม่พบชุดกติกาของโต๊ะนี้ในเครื่องนี้ หรือโต๊ะนี้ไม่ได้กำหนดไว้ กรุณาระบุรหัสชุดกติกาที่ใช้แข่งเกมนี้",
    "Forfeit": "ปรับแพ้ (ไม่มาแข่ง)",
    "Played": "แข่งจริง",
    "did not come: forfeit": "ไม่มาแข่ง: ปรับแพ้",
    "A forfeit is scored as a bye for the player who came (XW-9) and its negative for the one who did not.":
        "การปรับแพ้คิดคะแนนให้ผู้ที่มาแข่งเหมือนชนะบาย (XW-9) และผู้ที่ไม่มาได้ผลต่างติดลบเท่ากัน",
    "Score on the board": "คะแนนบนกระดาน",
    "Puzzle points": "คะแนนโจทย์",
    "Overtime (m:ss)": "เวลาเกิน (นาที:วินาที)",
    "All puzzles correct": "ถูกทุกข้อ",
    "Time left at the finish (m:ss)": "เวลาที่เหลือเมื่อทำเสร็จ (นาที:วินาที)",
    "Pieces left (R N S M P)": "หมากที่เหลือ (R เรือ N ม้า S โคน M เม็ด P เบี้ย)",
    "How": "จบเกมโดย",
    "A draw counts as a loss for (MH-8, who gave the draw)": "ผลเสมอนับเป็นแพ้ของ (MH-8 ผู้ให้เสมอ)",
    "nobody": "ไม่มี",
    "Level (XW-8)": "ระดับชั้น (XW-8)",
    "Save the hand entry": "บันทึกผลที่กรอก",
    "Hand entries of this table": "ผลที่กรอกด้วยมือของโต๊ะนี้",
    "Hand entries of this game": "ผลที่กรอกด้วยมือของเกมนี้",
    "Entry": "รายการ",
    "Withdraws": "ยกเลิก",
    "the clock died; score slip signed by both players": "นาฬิกาเสีย ใบบันทึกคะแนนลงชื่อทั้งสองฝ่าย",
    "An organiser's record of a game whose clock could not send its result: entered at the desk, not signed by a "
    "clock.": "บันทึกของผู้จัดการแข่งขันสำหรับเกมที่นาฬิกาส่งผลไม่ได้: กรอกที่โต๊ะผู้จัด ไม่ได้ลงนามโดยนาฬิกา",
    "Entered by": "กรอกโดย",
    "In effect: it counts for this game.": "มีผล: ใช้นับสำหรับเกมนี้",
    "No longer in effect (corrected or withdrawn).": "ไม่มีผลแล้ว (แก้ไขหรือยกเลิกแล้ว)",
    "Withdraw this hand entry": "ยกเลิกผลที่กรอกนี้",
    "Results to look at": "ผลที่ต้องตรวจสอบ",
    "What the clocks sent that does not count as it came: decide, move it to its table or set it aside on its page. "
    "The signed records are kept as the clocks sent them.":
        "ผลที่นาฬิกาส่งมาแต่ยังนับตามที่ส่งมาไม่ได้: ตัดสิน ย้ายไปโต๊ะที่ถูกต้อง หรือพักไว้ในหน้าของผลนั้น "
        "ผลที่นาฬิกาลงนามถูกเก็บไว้ตามที่ส่งมา",
    "A clock's result for a game entered by hand": "ผลจากนาฬิกาของเกมที่กรอกด้วยมือแล้ว",
    "The clock's result": "ผลจากนาฬิกา",
    "Decide": "ตัดสิน",
    "Keep the hand entry": "ใช้ผลที่กรอกด้วยมือ",
    "Take the clock's": "ใช้ผลจากนาฬิกา",
    "None.": "ไม่มี",
    "Held: not counted until the organiser acts": "ระงับไว้: ยังไม่นับจนกว่าผู้จัดการแข่งขันจะดำเนินการ",
    "Where it says it was played": "ตำแหน่งที่ผลระบุว่าแข่ง",
    "Why": "สาเหตุ",
    "Results of an event this PC does not know": "ผลของรายการที่เครื่องนี้ไม่รู้จัก",
    "A clock's event setting that matches no event here makes an event of its own: move its results to their real "
    "event.": "นาฬิกาที่ตั้งรายการไม่ตรงกับรายการใดในเครื่องนี้จะทำให้เกิดรายการขึ้นมาเอง: ย้ายผลไปยังรายการที่ถูกต้อง",
    "Set aside": "พักไว้ (ไม่นับ)",
    "Conflicts: the same result id with other content": "ผลขัดแย้ง: รหัสผลเดียวกันแต่เนื้อหาต่างกัน",
    "Refused": "ถูกปฏิเสธ",
    "From": "จาก",
    "older refusals are in the database (gameclock.db, table refusals).":
        "รายการที่ถูกปฏิเสธที่เก่ากว่านี้อยู่ในฐานข้อมูล (gameclock.db ตาราง refusals)",
    "Events deleted": "รายการที่ลบแล้ว",
    "Where it counts": "นับผลที่ไหน",
    "Set aside: it counts nowhere.": "พักไว้: ไม่นับที่ใดเลย",
    "Not counted": "ไม่นับ",
    "The clock sent it as": "นาฬิกาส่งมาเป็น",
    "A result sent with the wrong event or table: move it to where it was played. It takes that table's players as "
    "published.": "ผลที่ส่งมาผิดรายการหรือผิดโต๊ะ: ย้ายไปยังที่ที่แข่งจริง ผลจะใช้ชื่อผู้เล่นของโต๊ะนั้นตามที่ประกาศไว้",
    "The players sat the other way round (the clock's left was the table's right)":
        "ผู้เล่นนั่งสลับข้าง (ด้านซ้ายของนาฬิกาคือด้านขวาของโต๊ะ)",
    "Move the result": "ย้ายผล",
    "move it to where it was played.": "ย้ายไปยังที่ที่แข่งจริง",
    "Set aside: it counts nowhere (a test game, a result of no game of this event). Put it back by withdrawing that "
    "amendment above.": "พักไว้: ไม่นับที่ใดเลย (เกมทดสอบ หรือผลที่ไม่ใช่เกมของรายการนี้) "
                        "นำกลับมาได้โดยยกเลิกการแก้ไขนั้นด้านบน",
    "Set the result aside": "พักผลนี้ไว้",
    "look": "ต้องตรวจสอบ",
    "a result is there that does not count until the organiser looks at it.":
        "มีผลที่ยังไม่นับจนกว่าผู้จัดการแข่งขันจะตรวจสอบ",
    "hand": "กรอกด้วยมือ",
    "entered by hand at the desk.": "ผู้จัดการแข่งขันกรอกผลเองที่โต๊ะผู้จัด",
    "Delete this event": "ลบรายการนี้",
    "Only an event without real games (made by mistake, or a wrong upload's once its results are moved): everything "
    "the PC keeps of it is kept in the database's deleted events, with the reason.":
        "ลบได้เฉพาะรายการที่ไม่มีเกมจริง (สร้างผิด หรือรายการที่เกิดจากผลที่ส่งผิดเมื่อย้ายผลออกไปแล้ว): "
        "ข้อมูลทั้งหมดของรายการจะเก็บไว้ในรายการที่ลบแล้วของฐานข้อมูล พร้อมเหตุผล",
    "a hand entry counts for this game: keep it, or take the clock's":
        "เกมนี้ใช้ผลที่กรอกด้วยมือ: เลือกใช้ผลที่กรอก หรือใช้ผลจากนาฬิกา",
    "not the table's players": "ไม่ใช่ผู้เล่นของโต๊ะนี้",
    "no such table in the round as published": "ไม่มีโต๊ะนี้ในรอบที่ประกาศ",
    "two results for one game": "มีสองผลสำหรับเกมเดียว",
    "Left player": "ผู้เล่นซ้าย",
    "Right player": "ผู้เล่นขวา",
    "A hand entry needs a reason.": "การกรอกผลด้วยมือต้องระบุเหตุผล",
    "A move needs a reason.": "การย้ายผลต้องระบุเหตุผล",
    "Setting a result aside needs a reason.": "การพักผลต้องระบุเหตุผล",
    "A decision needs a reason.": "การตัดสินต้องระบุเหตุผล",
    "Deleting an event needs a reason.": "การลบรายการต้องระบุเหตุผล",
    "A withdrawal needs a reason.": "การยกเลิกต้องระบุเหตุผล",
    "The result counts there already.": "ผลนี้นับอยู่ที่นั่นแล้ว",
    "The result is set aside already.": "ผลนี้ถูกพักไว้แล้ว",
    "No hand entry counts for this result's game: nothing to decide.":
        "เกมของผลนี้ไม่มีผลที่กรอกด้วยมือ: ไม่มีอะไรต้องตัดสิน",
    # how a game ended (core.result.REASONS), on the hand entry form
    "score": "คะแนน",
    "forfeit": "ปรับแพ้",
    "agreement": "ตกลงกัน",
    "mate": "รุกจน",
    "resignation": "ยอมแพ้",
    "flag": "หมดเวลา",
    "count": "นับครบ",
    "stalemate": "อับ",
    "repetition": "เดินซ้ำ",
    "material": "หมากไม่พอ",
    "arbiter": "กรรมการตัดสิน",
    "late": "มาสาย",
    "no-pieces": "หมากหมด",
    "no-move": "ไม่มีทางเดิน",
    "time": "หมดเวลา",
    "penalty": "ถูกลงโทษ",
    "other": "อื่น ๆ",
    "Move times": "เวลาที่ใช้ต่อตา",
    "Time used per round": "เวลาที่ใช้ในแต่ละรอบ",
    "Crosstable": "ตารางไขว้",
    "Notes": "หมายเหตุ",
    "bye": "บาย",
    "win": "ชนะ",
    "loss": "แพ้",
    "draw": "เสมอ",
    "Opponent": "คู่แข่ง",
    "Score": "คะแนน",
    "Spread": "ผลต่าง",
    # the standings' columns (standings/*.py COLUMNS) and medals (XW-11)
    "W": "ชนะ",
    "D": "เสมอ",
    "L": "แพ้",
    "Byes": "บาย",
    "GP": "แต้ม",
    "Medal score": "คะแนนเหรียญ",
    "Medal": "เหรียญ",
    "certificate": "เกียรติบัตร",
    "gold": "ทอง",
    "silver": "เงิน",
    "bronze": "ทองแดง",
    "Matches": "แมตช์",
    "MP": "คะแนนแมตช์",
    "Diff": "ผลต่าง",
    "TB": "ไทเบรก",
    "TB time": "เวลาไทเบรก",
    "H2H": "พบกันเอง",
    "Pieces": "หมากที่เหลือ",
    "Bonus": "โบนัส",
    "Total": "รวม",
    "Final": "เข้ารอบชิง",   # the Sudoku standings' column: in the final (SU-4), "yes"
    "Serial": "หมายเลขเครื่อง",
    "Last contact": "ติดต่อล่าสุด",
    "Pending": "ผลที่ยังไม่ส่ง",
    "Enrolled": "ลงทะเบียนแล้ว",
    "not enrolled": "ยังไม่ลงทะเบียน",
    "Firmware": "เฟิร์มแวร์",
    "Stored": "เก็บแล้ว",
    "Overtime": "เวลาเกิน",
    "Penalty": "คะแนนที่ถูกหัก",
    "Moves": "จำนวนตา",
    "Time used": "เวลาที่ใช้",
    "Corrections": "การแก้ไขที่โต๊ะ",
    "Count": "การนับ",
    "Outcome": "ผลการแข่ง",
    "Winner": "ผู้ชนะ",
    "Final score left": "คะแนนสุดท้ายฝั่งซ้าย",
    "Final score right": "คะแนนสุดท้ายฝั่งขวา",
    "unchanged": "ไม่เปลี่ยน",
    "left": "ซ้าย",
    "right": "ขวา",
    "Save the amendment": "บันทึกการแก้ไข",
    "No results yet.": "ยังไม่มีผลการแข่งขัน",
    "No events yet.": "ยังไม่มีรายการแข่งขัน",
    "Scan for your page": "สแกนเพื่อดูหน้าของคุณ",
    "Games": "เกม",
    "Received": "ได้รับเมื่อ",
    "Download": "ดาวน์โหลด",
    "Rules": "กติกา",
    "Entries": "การบันทึกผลที่โต๊ะ",
    "Signed by": "ลงนามโดย",
    "Name": "ชื่อ",
    "School": "โรงเรียน",
    "Level": "ระดับ",
    "Rating": "เรตติ้ง",
    "withdrawn": "ถอนตัว",
    "System": "ระบบจับคู่",
    "Seed": "เลขสุ่ม",
    "Live": "สด",
    "Open to the hall": "เปิดให้ทั้งห้องแข่ง",
    "Only the organiser's PC can open these pages.": "เปิดหน้าเหล่านี้ได้จากเครื่องของผู้จัดการแข่งขันเท่านั้น",
    "Not found.": "ไม่พบหน้าที่ต้องการ",
    "The organiser's pages open only on the organiser's PC (start the desk with --admin-from-network to allow them from the hall's network).":
        "หน้าของผู้จัดการแข่งขันเปิดได้จากเครื่องของผู้จัดการแข่งขันเท่านั้น "
        "(เริ่มโปรแกรมด้วย --admin-from-network เพื่อเปิดจากเครือข่ายในห้องแข่ง)",
    "Refused: the form's token is missing or wrong (reload the page).":
        "ปฏิเสธ: โทเคนของฟอร์มไม่ถูกต้อง (โหลดหน้าใหม่)",
    "Refused: the organiser is not logged in here (log in, then send the form again).":
        "ปฏิเสธ: ผู้จัดการแข่งขันยังไม่ได้เข้าสู่ระบบ (เข้าสู่ระบบแล้วส่งฟอร์มอีกครั้ง)",
    # issue 17, the results' views: amendments that count, the crosstable, the projector's pages,
    # round progress (one block, for merging)
    "Amended": "แก้ไขแล้ว",
    "amended": "แก้ไขแล้ว",
    "counts as": "นับเป็น",
    "signed result": "ผลที่นาฬิกาลงนาม",
    "signed": "ตามที่นาฬิกาลงนาม",
    "When": "เมื่อ",
    "Who": "โดย",
    "What changed": "สิ่งที่แก้",
    "Withdraws amendment": "ถอนการแก้ไขครั้งที่",
    "Withdraw this amendment": "ถอนการแก้ไขนี้",
    "Draw given by": "ผู้ต่อเสมอ",
    "Final score": "คะแนนสุดท้าย",
    "Game points": "คะแนนเกม",
    "The amendment changes nothing.": "การแก้ไขนี้ไม่ได้เปลี่ยนอะไร",
    "Page": "หน้า",
    "Each cell: the result (W win, D draw, L loss, B bye) and the opponent's number; the player's score first.":
        "ช่องตาราง: ผล (W ชนะ, D เสมอ, L แพ้, B บาย) และหมายเลขคู่แข่ง คะแนนของผู้เล่นอยู่หน้า",
    "Bars: a game's mean time used (both players); lines: the longest game.":
        "แท่ง: เวลาเฉลี่ยที่ใช้ต่อเกม (รวมสองฝ่าย) เส้น: เกมที่นานที่สุด",
    "Mean": "เฉลี่ย",
    "A result being entered at a table shows as playing: a clock tells the PC about its results only when docked, and only once both players have confirmed them.":
        "โต๊ะที่กำลังบันทึกผลจะแสดงเป็น กำลังแข่ง เพราะนาฬิกาแจ้งผลให้เครื่องนี้ทราบเมื่อเชื่อมต่อเท่านั้น "
        "และเฉพาะผลที่ผู้เล่นทั้งสองฝ่ายยืนยันแล้ว",
    "Longest": "นานที่สุด",
    # issue 17, event set-up and the clocks page with enrollment (desk/setup.py, desk/clocks.py)
    "New event": "สร้างรายการแข่งขันใหม่",
    "Event name (one word)": "ชื่อรายการ (คำเดียว)",
    "Preset": "ชุดกติกา",
    "Language": "ภาษา",
    "Rounds": "จำนวนรอบ",
    "(none)": "(ไม่มี)",
    "(not said)": "(ไม่ระบุ)",
    "each player's": "ตามผู้เล่นแต่ละคน",
    "empty: not said": "เว้นว่าง: ไม่ระบุ",
    "Options of the system (k=v, space between)": "ตัวเลือกของระบบจับคู่ (k=v เว้นวรรคคั่น)",
    "Player list": "รายชื่อผู้เข้าแข่งขัน",
    "CSV: a header row with id,name (and any of latin, campus, level, team, board, rating, group); or a tsh .t file.":
        "CSV: แถวแรกเป็นหัวตาราง id,name (และ latin, campus, level, team, board, rating, group ได้) หรือไฟล์ .t ของ tsh",
    "Its file": "ไฟล์รายชื่อ",
    "or paste it here": "หรือวางรายชื่อที่นี่",
    "Create the event": "สร้างรายการ",
    "Fix the draft": "แก้ไขฉบับร่าง",
    "Swap tables": "สลับโต๊ะ",
    "and": "กับ",
    "Swap": "สลับ",
    "Set the table": "กำหนดโต๊ะ",
    # --- issue 26, players during the event and drafts that cannot surprise (desk/setup.py, admin.py) ---
    "version": "ฉบับที่",
    "Exchange players": "สลับที่นั่งผู้เล่น",
    "Exchange": "สลับ",
    "withdrawn after round {round}": "ถอนตัวหลังรอบที่ {round}",
    "withdrawn before round 1": "ถอนตัวก่อนรอบที่ 1",
    "joined in round {round}": "เข้าแข่งขันตั้งแต่รอบที่ {round}",
    "{joined}, {withdrawn}": "{joined}, {withdrawn}",
    "formerly": "ชื่อเดิม",
    "Add a late entry": "เพิ่มผู้เข้าแข่งขันที่สมัครล่าช้า",
    "Withdraw or edit a player: Edit on their row.": "ถอนตัวหรือแก้ไขข้อมูลผู้เข้าแข่งขัน: กด แก้ไข ในแถวของผู้นั้น",
    "Edit": "แก้ไข",
    "Player changes": "ประวัติการเปลี่ยนแปลงผู้เข้าแข่งขัน",
    "What": "สิ่งที่เปลี่ยน",
    "name": "ชื่อ",
    "latin": "ชื่อภาษาอังกฤษ",
    "campus": "โรงเรียน",
    "level": "ระดับ",
    "rating": "เรตติ้ง",
    "late entry": "สมัครล่าช้า",
    "Pair the draft again?": "จับคู่ฉบับร่างใหม่หรือไม่",
    "Redraw the draft?": "จับสลากฉบับร่างใหม่หรือไม่",
    "The draft of round {round} (version {version}) is waiting.": "ฉบับร่างของรอบที่ {round} (ฉบับที่ {version}) รอการประกาศอยู่",
    "Pairing again draws it anew from the latest results, with its own seed.":
        "การจับคู่ใหม่จะจัดฉบับร่างใหม่จากผลล่าสุด ด้วย seed เดิมของฉบับร่าง",
    "A redraw draws it anew with a new seed.": "การจับสลากใหม่จะจัดฉบับร่างใหม่ด้วย seed ใหม่",
    "These edits of the organiser are lost:": "การแก้ไขของผู้จัดการแข่งขันต่อไปนี้จะหายไป:",
    "Now (the edits)": "ตอนนี้ (ที่แก้ไขแล้ว)",
    "As the system drew it": "ตามที่ระบบจัดไว้",
    "The draft has no edits of the organiser: nothing of theirs is lost.":
        "ฉบับร่างนี้ยังไม่มีการแก้ไขโดยผู้จัดการแข่งขัน จึงไม่มีการแก้ไขใดหายไป",
    "Pair the draft again": "จับคู่ฉบับร่างใหม่",
    "Keep the draft as it is": "คงฉบับร่างไว้ตามเดิม",
    "The draft changed": "ฉบับร่างมีการเปลี่ยนแปลง",
    "Refused: the draft changed since this page showed it. Nothing was done.":
        "ไม่ดำเนินการ: ฉบับร่างเปลี่ยนไปหลังจากที่หน้านี้แสดง จึงยังไม่มีการเปลี่ยนแปลงใด ๆ",
    "the page showed version": "หน้านี้แสดงฉบับที่",
    "the draft now": "ฉบับร่างตอนนี้",
    "published meanwhile": "ประกาศไปแล้วในระหว่างนั้น",
    "drawn by the system": "ระบบจัด",
    "edited": "แก้ไข",
    "As the page showed it » now": "ตามที่หน้านี้แสดง » ตอนนี้",
    "Look at the draft again": "ดูฉบับร่างอีกครั้ง",
    "plays": "ยังแข่งขันอยู่",
    "Edit the player": "แก้ไขข้อมูลผู้เข้าแข่งขัน",
    "A new name keeps the old one as a former name: the clocks recorded it, and its results stay the player's.":
        "เมื่อเปลี่ยนชื่อ ระบบเก็บชื่อเดิมไว้ด้วย เพราะนาฬิกาบันทึกผลด้วยชื่อเดิม ผลเหล่านั้นยังเป็นของผู้เข้าแข่งขันคนนี้",
    "Latin name": "ชื่อภาษาอังกฤษ",
    "Save": "บันทึก",
    "Withdraw": "ถอนตัว",
    "Not paired from the next round on; the games played stay and count.":
        "จะไม่ถูกจับคู่ตั้งแต่รอบถัดไป ผลของเกมที่แข่งไปแล้วยังคงนับ",
    "Withdrawn after round {round}.": "ถอนตัวหลังรอบที่ {round}",
    "Withdraw the player": "ให้ผู้เข้าแข่งขันถอนตัว",
    "Reinstate": "กลับเข้าแข่งขัน",
    "A withdrawal is undone only before the next round is published.":
        "ยกเลิกการถอนตัวได้ก่อนประกาศการจับคู่รอบถัดไปเท่านั้น",
    "Reinstate the player": "ให้กลับเข้าแข่งขัน",
    "Late entry": "สมัครล่าช้า",
    "This event takes no late entry now:": "รายการนี้ไม่รับผู้สมัครล่าช้าแล้ว:",
    "The player joins round {round}.": "ผู้เข้าแข่งขันเริ่มแข่งตั้งแต่รอบที่ {round}",
    "The rounds missed score nothing: no game, no bye, no points (docs/rules.md).":
        "รอบที่ขาดไปไม่ได้คะแนน: ไม่มีเกม ไม่มีบาย ไม่มีแต้ม (docs/rules.md)",
    "Board": "กระดาน",
    "Add the player": "เพิ่มผู้เข้าแข่งขัน",
    "Not saved yet: round {round} is older than the rounds paired after it.":
        "ยังไม่บันทึก: รอบที่ {round} อยู่ก่อนรอบที่จับคู่ไปแล้ว",
    "Their pairings were drawn from the results as they were: they stay as they are (a published round is played "
    "as published; a draft changes only when paired again). The standings change at once.":
        "การจับคู่ของรอบเหล่านั้นจัดจากผลในขณะนั้น และจะคงไว้ตามเดิม (รอบที่ประกาศแล้วแข่งตามที่ประกาศ "
        "ฉบับร่างจะเปลี่ยนก็ต่อเมื่อจับคู่ใหม่) ส่วนตารางคะแนนจะเปลี่ยนทันที",
    "Their pairings follow the lot drawn in round 1, not the results: only the standings change.":
        "การจับคู่ของรอบเหล่านั้นเป็นไปตามผลจับสลากในรอบที่ 1 ไม่ขึ้นกับผลการแข่งขัน จึงเปลี่ยนเฉพาะตารางคะแนน",
    "Save the amendment all the same": "บันทึกการแก้ไขผลต่อไป",
    # --- end of issue 26's block ---
    "Docked now": "นาฬิกาที่เสียบอยู่ตอนนี้",
    "This desk serves no dock port.": "หน้านี้ยังไม่ได้เปิดพอร์ตรับนาฬิกา",
    "To see docked clocks and enroll them here, start the desk with:":
        "หากต้องการเห็นนาฬิกาที่เสียบอยู่และลงทะเบียนจากหน้านี้ ให้เปิดโปรแกรมด้วยคำสั่ง:",
    "(or --dock /dev/ttyACM0 for one port; again for more). Stop gameclock receive first: one program serves a port at a time.":
        "(หรือ --dock /dev/ttyACM0 สำหรับพอร์ตเดียว ใส่ซ้ำได้หลายพอร์ต) ปิด gameclock receive ก่อน: "
        "หนึ่งพอร์ตใช้ได้ทีละโปรแกรม",
    "Port": "พอร์ต",
    "Enrollment": "การลงทะเบียน",
    "yes": "ใช่",
    "no clock": "ไม่มีนาฬิกา",
    "No clock docked.": "ยังไม่มีนาฬิกาเสียบอยู่",
    "Docked clocks are found every 2 s.": "ระบบค้นหานาฬิกาที่เสียบใหม่ทุก 2 วินาที",
    "This PC's code": "รหัสของเครื่องนี้",
    "The clock shows a code too. If it is the same, the arbiter chooses YES on the clock; then type the code the clock shows:":
        "นาฬิกาจะแสดงรหัสด้วย ถ้าตรงกัน ให้กรรมการเลือก YES ที่นาฬิกา แล้วพิมพ์รหัสที่นาฬิกาแสดง:",
    "Confirm the code": "ยืนยันรหัส",
    "Waiting for the clock ...": "กำลังรอนาฬิกา ...",
    "Waiting for the arbiter to choose YES on the clock ...": "กำลังรอกรรมการเลือก YES ที่นาฬิกา ...",
    "Key stored; waiting for the clock to take it ...": "บันทึกกุญแจแล้ว กำลังรอนาฬิการับกุญแจ ...",
    "Enrolled.": "ลงทะเบียนแล้ว",
    "Not enrolled.": "ลงทะเบียนไม่สำเร็จ",
    "Key stored; the clock has not proven it yet.": "บันทึกกุญแจแล้ว แต่นาฬิกายังไม่ได้ยืนยันกุญแจนี้",
    "Enrollments started here": "จำนวนครั้งที่เริ่มลงทะเบียนที่พอร์ตนี้",
    "Use Replace its key.": "ให้ใช้ปุ่ม เปลี่ยนกุญแจ",
    "Enroll": "ลงทะเบียน",
    "Replace its key": "เปลี่ยนกุญแจ",
    "This PC's key for this clock is revoked as soon as the arbiter and you have confirmed the new code: results signed with the old key are refused from then on. Do this only for a clock whose key was lost, reset or stolen.":
        "เมื่อกรรมการและท่านยืนยันรหัสใหม่แล้ว กุญแจเดิมของนาฬิกานี้จะถูกยกเลิกทันที ผลที่ลงนามด้วยกุญแจเดิมจะไม่ถูกรับอีก "
        "ทำเฉพาะเมื่อกุญแจของนาฬิกาหาย ถูกล้าง หรือถูกขโมยเท่านั้น",
    "Cancel": "ยกเลิก",
    "Clocks this PC knows": "นาฬิกาที่เครื่องนี้รู้จัก",
    # issue 26, the table each clock serves (desk/clocks.py assign, assign_order, unassign; admin_clocks.html)
    "Serves": "ประจำโต๊ะ",
    "Pairing sent": "การจับคู่ที่ส่งให้นาฬิกา",
    "its own settings": "ตามที่ตั้งไว้ที่นาฬิกา",
    "Assign": "กำหนด",
    "Unassign": "ยกเลิกโต๊ะ",
    "from table": "เริ่มที่โต๊ะ",
    "Assign tables in docking order": "จัดโต๊ะตามลำดับที่เสียบ",
    "Docking order": "ลำดับที่เสียบ",
    "Each enrolled clock docked now gets the lowest free table of the event, the clock docked first the lowest. A clock serves its table until it is given another: the PC sends it that table's pairing at every docking and as soon as a round is published, whatever the clock's own Event and Table settings say.":
        "นาฬิกาที่ลงทะเบียนแล้วและเสียบอยู่ตอนนี้จะได้โต๊ะว่างที่เลขน้อยที่สุดของรายการ นาฬิกาที่เสียบก่อนได้เลขน้อยกว่า "
        "นาฬิกาจะประจำโต๊ะนั้นจนกว่าจะกำหนดโต๊ะอื่นให้ เครื่องนี้จะส่งการจับคู่ของโต๊ะนั้นให้ทุกครั้งที่เสียบ "
        "และทันทีที่ประกาศการจับคู่รอบใหม่ ไม่ว่ารายการและโต๊ะที่ตั้งไว้ที่นาฬิกาจะเป็นอะไร",
    "sent, waiting for the clock": "ส่งแล้ว กำลังรอนาฬิการับ",
    "taken by the clock": "นาฬิการับแล้ว",
    "not answered": "นาฬิกาไม่ตอบ",
    "nothing sent": "ยังไม่ได้ส่ง",
    "no event {event} on this PC": "ไม่มีรายการ {event} ในเครื่องนี้",
    "table {table}: a whole number 1-{hi}": "โต๊ะ {table}: ต้องเป็นเลขจำนวนเต็ม 1-{hi}",
    "no clock {serial} on this PC": "เครื่องนี้ไม่รู้จักนาฬิกา {serial}",
    "{serial}: {event} table {table}": "{serial}: {event} โต๊ะ {table}",
    "{serial} has no table now": "{serial} ไม่ได้ประจำโต๊ะใดแล้ว",
    "no enrolled clock is docked now": "ไม่มีนาฬิกาที่ลงทะเบียนแล้วเสียบอยู่ตอนนี้",
    "clock {serial} has no table": "นาฬิกา {serial} ไม่ได้ประจำโต๊ะใด",
    "clock {serial}: no table (its own settings pick its pairing)":
        "นาฬิกา {serial}: ไม่ได้ประจำโต๊ะแล้ว (ใช้รายการและโต๊ะที่ตั้งไว้ที่นาฬิกา)",
    # issue 25, the final standings and the prize list (desk/public.py final_page, desk/admin.py admin_prizes)
    "Final standings": "สรุปอันดับการแข่งขัน",
    "Prize list": "รายชื่อผู้ได้รับรางวัล",
    "Placed by": "ตัดสินจาก",
    "Award": "รางวัล",
    "Group": "กลุ่ม",
    "Print": "พิมพ์",
    "semi-final": "รอบรองชนะเลิศ",
    "quarter-final": "รอบก่อนรองชนะเลิศ",
    "qualifying": "รอบคัดเลือก",
    "group": "รอบแบ่งกลุ่ม",
    "standings": "ตารางคะแนน",
    "in play": "ยังแข่งขันอยู่",
    "gold medal": "เหรียญทอง",
    "silver medal": "เหรียญเงิน",
    "bronze medal": "เหรียญทองแดง",
    "the committee decides": "คณะกรรมการพิจารณา",
    "provisional": "ยังไม่เป็นทางการ",
    "primary": "ประถมศึกษา",
    "secondary": "มัธยมศึกษา",
    "Final round": "คะแนนรอบชิง",
    "Final: every place and medal is decided.": "เป็นทางการ: ตัดสินอันดับและรางวัลครบทุกรายการแล้ว",
    "Provisional: places and medals may still change. Still to be played:":
        "ยังไม่เป็นทางการ: อันดับและรางวัลอาจเปลี่ยนได้ ยังรอผลการแข่งขัน:",
    "This PC does not pair this event, so it does not know its rounds: its final standings are not shown here.":
        "เครื่องนี้ไม่ได้จับคู่รายการนี้ จึงไม่ทราบรอบการแข่งขันของรายการ และไม่แสดงสรุปอันดับที่นี่",
    "Medals by the medal score (XW-11): gold 80-100, silver 70-79, bronze 60-69, below 60 a certificate; for the four of the final the committee decides.":
        "รางวัลตามเกณฑ์คะแนน: เหรียญทอง 80-100 เหรียญเงิน 70-79 เหรียญทองแดง 60-69 ต่ำกว่า 60 ได้เกียรติบัตร "
        "ส่วน 4 คนที่เข้ารอบชิงฯ เป็นไปตามดุลยพินิจของคณะกรรมการ",
    "Medals by the percentage of the full marks: gold 80-100, silver 70-79, bronze 60-69, below 60 a certificate.":
        "รางวัลตามร้อยละของคะแนนเต็ม: เหรียญทอง 80-100 เหรียญเงิน 70-79 เหรียญทองแดง 60-69 ต่ำกว่า 60 ได้เกียรติบัตร",
    "Medals by place: gold 1st, silver 2nd, bronze 3rd.": "รางวัลตามอันดับ: ที่ 1 เหรียญทอง ที่ 2 เหรียญเงิน ที่ 3 เหรียญทองแดง",
    "Chief arbiter": "ประธานกรรมการตัดสิน",
    "Date": "วันที่",
    # (the stage and match names: the draft's words below)
    # what the final standings wait for (standings/final.py `said`)
    "round {round}": "รอบ {round}",
    "round {round} table {table}": "รอบ {round} โต๊ะ {table}",
    "round {round} table {table} game {game}": "รอบ {round} โต๊ะ {table} เกม {game}",
    "round {round} (the final and the game for third place)": "รอบ {round} (รอบชิงชนะเลิศและชิงอันดับที่ 3)",
    "round {round} (the final)": "รอบ {round} (รอบชิงชนะเลิศ)",
    "the final (round {round} table {table})": "รอบชิงชนะเลิศ (รอบ {round} โต๊ะ {table})",
    "the game for third place (round {round} table {table})": "เกมชิงอันดับที่ 3 (รอบ {round} โต๊ะ {table})",
    "{match}: {a} v {b}": "{match}: {a} พบ {b}",
    "the match for third place": "การแข่งขันชิงอันดับที่ 3",
    "the results to correct: {what}": "ผลการแข่งขันที่ต้องแก้ไข: {what}",
    "group {group}: {pairs}": "กลุ่ม {group}: {pairs}",
    "the event's number of rounds (it is not set: gameclock event create --rounds)":
        "จำนวนรอบของรายการ (ยังไม่ได้กำหนด: gameclock event create --rounds)",
    # the options of the event's pairing system (issue 25; their own help: organiser/pairing/options.py)
    "Options of the pairing system": "ตัวเลือกของระบบจับคู่",
    "Option": "ตัวเลือก",
    "Value": "ค่า",
    "What it does": "ความหมาย",
    "not given": "ไม่ได้กำหนด",
    "May change": "เปลี่ยนได้",
    "This system declares no options.": "ระบบนี้ไม่มีตัวเลือก",
    "Change the options": "เปลี่ยนตัวเลือก",
    "Option changes": "ประวัติการเปลี่ยนตัวเลือก",
    "Before » after": "ก่อน » หลัง",
    "No changes.": "ยังไม่มีการเปลี่ยนแปลง",
    "Back to the event": "กลับไปหน้ารายการ",
    "Empty: not given (the system's default). Lists: commas, or one a line.":
        "เว้นว่าง: ไม่กำหนด (ใช้ค่าเริ่มต้นของระบบ) รายการ: คั่นด้วยจุลภาค หรือบรรทัดละหนึ่งรายการ",
    "Reason (needed once a round is published)": "เหตุผล (ต้องระบุเมื่อประกาศการจับคู่แล้ว)",
    "Save the options": "บันทึกตัวเลือก",
    "Options of each system": "ตัวเลือกของแต่ละระบบจับคู่",
    # the Pair and Redraw of a draft, and what a draft draws or continues (organiser/pairing/, model.Words:
    # the English template is the key; tests/desk/test_draw_words.py checks every template has its Thai)
    "Pair the draft again (the latest results, the lot kept)": "จับคู่ฉบับร่างใหม่ (ตามผลล่าสุด คงผลจับสลากเดิม)",
    "Redraw (a new seed)": "จับสลากใหม่ (เลขสุ่มใหม่)",
    "Match": "คู่แข่งขัน",
    "game {game} of {games}": "กระดานที่ {game} จาก {games}",
    "{part}, sides swapped": "{part} สลับฝ่ายเดินก่อน",
    "{part} (coin toss: {left} starts)": "{part} (เสี่ยงทาย: {left} เดินก่อน)",
    "{match}: {part}": "{match}: {part}",
    "{match} ({came}): {part}": "{match} ({came}): {part}",
    "{what}, game {game} of {games}": "{what} กระดานที่ {game} จาก {games}",
    "final": "รอบชิงชนะเลิศ",
    "third place": "ชิงอันดับที่ 3",
    "semi-final {n}": "รอบรองชนะเลิศ คู่ที่ {n}",
    "quarter-final {n}": "รอบก่อนรองชนะเลิศ คู่ที่ {n}",
    "round {stage} match {n}": "รอบที่ {stage} คู่ที่ {n}",
    "round {stage}": "รอบที่ {stage}",
    "the final": "รอบชิงชนะเลิศ",
    "the semi-finals": "รอบรองชนะเลิศ",
    "the quarter-finals": "รอบก่อนรองชนะเลิศ",
    "stage {stage} of {stages}: {what}": "ขั้นที่ {stage} จาก {stages}: {what}",
    "the winners of tables {a} and {b}": "ผู้ชนะจากโต๊ะ {a} และโต๊ะ {b}",
    "the losers of tables {a} and {b}": "ผู้แพ้จากโต๊ะ {a} และโต๊ะ {b}",
    "continues the bracket drawn for round 1 (lot seed {seed})":
        "ต่อจากสายการแข่งขันที่จับสลากไว้ในรอบที่ 1 (เลขตั้งต้นการจับสลาก {seed})",
    "the bracket drawn for round 1 by lot (lot seed {seed}): kept for every later round once round 1 is published; "
    "a Redraw draws it again until then":
        "สายการแข่งขันจับสลากในรอบที่ 1 (เลขตั้งต้นการจับสลาก {seed}) ใช้ต่อไปทุกรอบเมื่อประกาศรอบที่ 1 แล้ว "
        "ก่อนประกาศ กด จับสลากใหม่ ได้",
    "the bracket by the seeds given (option 'seeds'), kept for every later round":
        "สายการแข่งขันตามมือวางที่กำหนด (ตัวเลือก seeds) ใช้ต่อไปทุกรอบ",
    "tied {tie}: decided by lot with this draft's seed {seed}; a Redraw draws it again until this round is published":
        "เสมอ {tie}: ตัดสินโดยการจับสลากด้วยเลขสุ่มของฉบับร่างนี้ ({seed}) ก่อนประกาศรอบนี้ กด จับสลากใหม่ ได้",
    "tied {score}: a third game (the final's tie, MR-12)": "เสมอ {score}: รอบชิงชนะเลิศแข่งกระดานที่ 3 (MR-12)",
    "tied {score}: a third game (seed 003)": "เสมอ {score}: แข่งกระดานที่ 3 (seed 003)",
    "tied {score}: game {game} (the final plays on until one leads, at most 6; seed 003)":
        "เสมอ {score}: กระดานที่ {game} (รอบชิงชนะเลิศแข่งต่อจนกว่าจะได้ผู้ชนะ ไม่เกิน 6 กระดาน; seed 003)",
    "tied {score} after {games}: draw-giving game {k} of {of}, {left} starts and gives the draw (a draw is "
    "{left}'s loss, MH-8); {how}":
        "เสมอ {score} หลัง {games} กระดาน: กระดานผลัดกันต่อเสมอเป็นแพ้ กระดานที่ {k} จาก {of} {left} เดินก่อนและเป็นฝ่ายต่อ "
        "(ถ้าเสมอ {left} แพ้, MH-8); {how}",
    "draw-giving game {k} of {of}, {left} starts and gives the draw (MH-8)":
        "กระดานผลัดกันต่อเสมอเป็นแพ้ กระดานที่ {k} จาก {of} {left} เดินก่อนและเป็นฝ่ายต่อ (MH-8)",
    "20:00 draw-giving game {k} of {of}, {left} starts and gives the draw (MH-8: 20:00 per side, preset {preset})":
        "กระดานผลัดกันต่อเสมอเป็นแพ้ ฝ่ายละ 20 นาที กระดานที่ {k} จาก {of} {left} เดินก่อนและเป็นฝ่ายต่อ "
        "(MH-8: ฝ่ายละ 20 นาที, preset {preset})",
    "tied {score} after {games}: {part}": "เสมอ {score} หลัง {games} กระดาน: {part}",
    "{left} gives first (option 'gives_first')": "{left} ต่อก่อน (ตัวเลือก gives_first)",
    "{left} won the coin toss and gives first (else say so in option 'gives_first')":
        "{left} ชนะการเสี่ยงทายและต่อก่อน (ถ้าเลือกให้คู่แข่งต่อก่อน ให้กำหนดในตัวเลือก gives_first)",
    "round 1 of {rounds} of the Berger table: pairing numbers drawn by lot (lot seed {seed}), kept for every later "
    "round once round 1 is published; a Redraw draws them again until then":
        "รอบที่ 1 จาก {rounds} ของตาราง Berger: จับสลากหมายเลขประกบคู่ (เลขตั้งต้นการจับสลาก {seed}) "
        "ใช้ต่อไปทุกรอบเมื่อประกาศรอบที่ 1 แล้ว ก่อนประกาศ กด จับสลากใหม่ ได้",
    "round 1 of {rounds} of the Berger table: pairing numbers as given (option 'order'), kept for every later round":
        "รอบที่ 1 จาก {rounds} ของตาราง Berger: หมายเลขประกบคู่ตามที่กำหนด (ตัวเลือก order) ใช้ต่อไปทุกรอบ",
    "round {round} of {rounds} of the Berger table, from the pairing numbers of round 1 (lot seed {seed})":
        "รอบที่ {round} จาก {rounds} ของตาราง Berger ตามหมายเลขประกบคู่ของรอบที่ 1 (เลขตั้งต้นการจับสลาก {seed})",
    "round 1 of {rounds} of each group's Berger table: the groups and pairing numbers drawn by lot (lot seed "
    "{seed}), kept for every later round once round 1 is published; a Redraw draws them again until then":
        "รอบที่ 1 จาก {rounds} ของตาราง Berger ของแต่ละกลุ่ม: จับสลากแบ่งกลุ่มและหมายเลขประกบคู่ "
        "(เลขตั้งต้นการจับสลาก {seed}) ใช้ต่อไปทุกรอบเมื่อประกาศรอบที่ 1 แล้ว ก่อนประกาศ กด จับสลากใหม่ ได้",
    "round {round} of {rounds} of each group's Berger table, from the groups drawn for round 1 (lot seed {seed})":
        "รอบที่ {round} จาก {rounds} ของตาราง Berger ของแต่ละกลุ่ม ตามกลุ่มที่จับสลากไว้ในรอบที่ 1 "
        "(เลขตั้งต้นการจับสลาก {seed})",
    "group {group}, round {round} of {rounds}": "กลุ่ม {group} รอบที่ {round} จาก {rounds}",
    "tie-break at 20:00 (MH-7 ค.(3), preset {preset})": "ตัดสินผลเสมอ ฝ่ายละ 20 นาที (MH-7 ค.(3), preset {preset})",
    "the tie-break games the committee ordered (option 'tiebreak'), after the {rounds} round(s) of the groups' "
    "Berger tables":
        "การแข่งขันตัดสินผลเสมอที่คณะกรรมการสั่ง (ตัวเลือก tiebreak) หลังการแข่งขันแบบพบกันหมด {rounds} รอบของแต่ละกลุ่ม",
}


def tr(text: str, lang: str) -> str:
    """`text` in `lang` (English is the key itself)."""
    if lang == "th":
        return TH.get(text, text)
    return text


def say_outcome(o: Any, lang: str) -> str:
    """A result in words (views.Outcome): "Anan wins 412-388", "draw 377-377", "412-388"."""
    if o.draw:
        return " ".join(filter(None, (tr("draw", lang), o.score)))
    if o.winner:
        return (f"{o.winner} ชนะ {o.score}" if lang == "th" else f"{o.winner} wins {o.score}").strip()
    return str(o.score)


def when(iso: object) -> str:
    """A stored UTC time ("2026-11-26T19:03:26.247Z") in this PC's time zone, to the second
    ("2026-11-26 02:03:26"); anything that is not such a time as it is."""
    if not isinstance(iso, str) or not iso:
        return "" if iso is None else str(iso)
    try:
        t = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return iso
    if t.tzinfo is None:
        t = t.replace(tzinfo=UTC)
    return t.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def pick(query: str | None, cookie: str | None, event_language: str | None) -> str:
    """The page's language from the query, the cookie, the event; only LANGUAGES are taken."""
    for value in (query, cookie, event_language):
        if value in LANGUAGES:
            return str(value)
    return "en"
