"""The desk's words in English and Thai. A page's language: `?lang=th|en` (kept in a cookie), else the
cookie, else the event's language, else English. A text missing in Thai shows in English."""
from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from gameclock.organiser.pairing.model import Words

LANGUAGES = ("en", "th")

TH: dict[str, str] = {
    "Events": "รายการแข่งขัน",
    "Event": "รายการ",
    "Standings": "ตารางคะแนน",
    "Pairings": "การจับคู่",
    "Players": "ผู้เข้าแข่งขัน",
    "Player": "ผู้เล่น",
    "Projector": "จอฉาย",
    # issue 28, the hall's wall (wall.py, part_wall_*.html, admin_part_wall.html) and the static export (site.py)
    "Round time": "เวลาในรอบ",
    "Start round": "เริ่มรอบ",
    "started at": "เริ่มเมื่อ",
    "The projector counts the round's time from this press.": "จอฉายนับเวลาของรอบตั้งแต่กดปุ่มนี้",
    "Announcements": "ประกาศ",
    "Remove": "นำออก",
    "No announcements.": "ไม่มีประกาศ",
    "New announcement (Thai or English, as it should read)": "ประกาศใหม่ (ภาษาไทยหรืออังกฤษ ตามที่จะให้แสดง)",
    "Show on the projector": "แสดงบนจอฉาย",
    "round {round} started": "เริ่มรอบ {round} แล้ว",
    "the announcement is on the projector": "ประกาศขึ้นจอฉายแล้ว",
    "the announcement is off the projector": "นำประกาศออกจากจอฉายแล้ว",
    "that announcement is not on the projector": "ประกาศนั้นไม่ได้อยู่บนจอฉาย",
    "an announcement needs a text": "ประกาศต้องมีข้อความ",
    "an announcement is at most {n} characters ({got} typed)": "ประกาศยาวได้ไม่เกิน {n} ตัวอักษร (พิมพ์มา {got})",
    "the projector shows {n} announcements at most: remove one first":
        "จอฉายแสดงประกาศได้ไม่เกิน {n} รายการ: นำออกหนึ่งรายการก่อน",
    "Public pages (static site)": "หน้าสาธารณะ (เว็บไซต์แบบคงที่)",
    "A copy of the desk's pages, made at": "สำเนาหน้าเว็บของโต๊ะผู้จัด ทำเมื่อ",
    "a folder of the public pages for any web host: relative links, no JavaScript; unzip it and copy it after each round":
        "โฟลเดอร์ของหน้าสาธารณะสำหรับเว็บโฮสต์ใดก็ได้: ลิงก์ภายในโฟลเดอร์ ไม่ใช้ JavaScript; แตกไฟล์แล้วคัดลอกขึ้นเว็บหลังจบแต่ละรอบ",
    "Round": "รอบ",
    "Table": "โต๊ะ",
    # issue 28, the public pages on a phone: the standings' method (its caption: a system's id in English before)
    "crossword": "ครอสเวิร์ด",
    "makruk": "หมากรุกไทย",
    "makruk-team": "หมากรุกไทย ประเภททีม",
    "makhos": "หมากฮอส",
    "sudoku": "ซูโดกุ",
    "Tap a name: the player's card has every figure and game.": "แตะที่ชื่อเพื่อดูคะแนนทั้งหมดและทุกเกมของผู้เล่น",
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
    "score left": "คะแนนฝั่งซ้าย",
    "score right": "คะแนนฝั่งขวา",
    "overtime left": "เวลาเกินฝั่งซ้าย",
    "overtime right": "เวลาเกินฝั่งขวา",
    "time left left": "เวลาคงเหลือฝั่งซ้าย",
    "time left right": "เวลาคงเหลือฝั่งขวา",
    "correct left": "ความถูกต้องฝั่งซ้าย",
    "correct right": "ความถูกต้องฝั่งขวา",
    "material left": "หมากที่เหลือฝั่งซ้าย",
    "material right": "หมากที่เหลือฝั่งขวา",
    "outcome": "ผลการแข่งขัน",
    "round": "รอบ",
    "correct {side}: yes or no": "ความถูกต้องฝั่ง{side}: ตอบ ใช่ หรือ ไม่ใช่",
    "level {level} is not one of this preset's ({levels})": "ระดับ {level} ไม่ใช่ระดับของกติกานี้ ({levels})",
    "missing: {fields}": "ยังขาด: {fields}",
    "no event {event} here": "ไม่มีรายการ {event} ในเครื่องนี้",
    "no event {event} to delete": "ไม่มีรายการ {event} ให้ลบ",
    "no hand entry {id}": "ไม่มีผลที่กรอกด้วยมือ {id}",
    "preset {preset}: {error}": "กติกา {preset}: {error}",
    "result {id}: {why}": "ผล {id}: {why}",
    "round {round} of {event} has no table {table}": "รอบที่ {round} ของ {event} ไม่มีโต๊ะ {table}",
    "round {round} of {event} has no table {table} game {game}": "รอบที่ {round} ของ {event} ไม่มีโต๊ะ {table} เกมที่ {game}",
    "round {round} table {table} ({held})": "รอบที่ {round} โต๊ะ {table} ({held})",
    "round {round} table {table} of {event} has no hand entry now: look at it again":
        "รอบที่ {round} โต๊ะ {table} ของ {event} ไม่มีผลที่กรอกด้วยมือแล้ว: โปรดดูอีกครั้ง",
    "round {round} table {table} of {event} has the clock's result {ids}: amend it (or, a wrong upload, move it "
    "or set it aside) instead":
        "รอบที่ {round} โต๊ะ {table} ของ {event} มีผลจากนาฬิกาแล้ว ({ids}): ให้แก้ไขผลนั้นแทน "
        "(หรือถ้าส่งมาผิด ให้ย้ายหรือพักผลนั้นไว้)",
    "round {round} table {table} of {event} has the hand entry {id} now: look at it again":
        "รอบที่ {round} โต๊ะ {table} ของ {event} มีผลที่กรอกด้วยมือ {id} แล้ว: โปรดดูอีกครั้ง",
    "round {round} table {table}: the hand entry is saved": "รอบที่ {round} โต๊ะ {table}: บันทึกผลที่กรอกด้วยมือแล้ว",
    "the hand entry {id} is not the one in effect for its game": "ผลที่กรอก {id} ไม่ใช่ผลที่ใช้อยู่ของเกมนี้",
    "the hand entry {id} is withdrawn": "ยกเลิกผลที่กรอก {id} แล้ว",
    "the preset {preset} gives no bye spread (XW-9) for level {level}":
        "กติกา {preset} ไม่มีแต้มต่างของการบาย (XW-9) สำหรับระดับ {level}",
    "the preset {preset} gives no bye spread (XW-9) without a level: give the level":
        "กติกา {preset} ไม่มีแต้มต่างของการบาย (XW-9) เมื่อไม่ระบุระดับ: โปรดระบุระดับ",
    "{event} has 1 result ({ids}): move it to its event or set it aside first":
        "{event} มีผลการแข่งขัน 1 ผล ({ids}): ย้ายไปยังรายการที่ถูกต้องหรือพักผลไว้ก่อน",
    "{event} has {n} results ({ids}): move them to their event or set them aside first":
        "{event} มีผลการแข่งขัน {n} ผล ({ids}): ย้ายไปยังรายการที่ถูกต้องหรือพักผลไว้ก่อน",
    "{event} is deleted (kept in the deleted events)": "ลบรายการ {event} แล้ว (เก็บไว้ในรายการที่ลบ)",
    "{result} is set aside: it counts nowhere": "พักผล {result} แล้ว: ไม่นับในที่ใด",
    "{result} now counts at round {round} table {table} of {event}":
        "ผล {result} นับที่รอบที่ {round} โต๊ะ {table} ของ {event} แล้ว",
    "{result}: the clock's result counts": "{result}: ใช้ผลจากนาฬิกา",
    "{result}: the hand entry is kept": "{result}: ใช้ผลที่กรอกด้วยมือ",
    "{what}: a whole number from 1": "{what}: ต้องเป็นจำนวนเต็มตั้งแต่ 1 ขึ้นไป",
    "{what}: {given} is not a time like 3:18 (minutes:seconds)": "{what}: {given} ไม่ใช่เวลาแบบ 3:18 (นาที:วินาที)",
    "{what}: {given} is not a whole number": "{what}: {given} ไม่ใช่จำนวนเต็ม",
    "{where} of {event} has its result already ({results}): set that aside or move it first":
        "{where} ของ {event} มีผลแล้ว ({results}): พักหรือย้ายผลนั้นก่อน",
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
    # issue 26 polish, every page in Thai: the drafts' and the standings' notes (gameclock/words.py Note: the
    # pairing systems', the standings', the organiser's edits of a draft) and the words they are said with
    "paired again (seed {seed})": "จับคู่ใหม่จากผลล่าสุด (เลขสุ่ม {seed})",
    "drawn again (seed {seed})": "จับคู่ใหม่ (เลขสุ่ม {seed})",
    "drawn (seed {seed})": "จับคู่ฉบับร่าง (เลขสุ่ม {seed})",
    "tables {a} and {b} swapped by the organiser": "ผู้จัดการแข่งขันสลับโต๊ะ {a} กับโต๊ะ {b}",
    "{p} and {q} exchanged by the organiser": "ผู้จัดการแข่งขันสลับที่นั่งของ {p} กับ {q}",
    "table {table} set by the organiser: {left} v {right}": "ผู้จัดการแข่งขันกำหนดโต๊ะ {table}: {left} พบ {right}",
    "game 1 drawn at random, seed {seed} (XW-10, seed 000 §1)": "เกมที่ 1 จับคู่โดยการสุ่ม เลขสุ่ม {seed} (XW-10, seed 000 §1)",
    "game {round}: winners meet winners and losers meet losers within table groups of {size} tables of game {before} "
    "(XW-10, seed 000 §1)":
        "เกมที่ {round}: ผู้ชนะพบผู้ชนะ ผู้แพ้พบผู้แพ้ ภายในกลุ่มโต๊ะละ {size} โต๊ะของเกมที่ {before} (XW-10, seed 000 §1)",
    "{player} had no board in game {before} (a late entry): they join the last table group":
        "{player} ไม่ได้แข่งในเกมที่ {before} (สมัครล่าช้า): เข้ากลุ่มโต๊ะสุดท้าย",
    "repeat pairing, none avoidable: {a} v {b}": "พบกันซ้ำโดยเลี่ยงไม่ได้: {a} พบ {b}",
    "King of the Hill: 1 v 2, 3 v 4, ... by rank (XW-10, seed 000 §2)":
        "จับคู่แบบ King of the Hill: อันดับ 1 พบ 2, 3 พบ 4, ... ตามอันดับ (XW-10, seed 000 §2)",
    "rematch (King of the Hill pairs by rank): {a} v {b}": "พบกันซ้ำ (King of the Hill จับคู่ตามอันดับ): {a} พบ {b}",
    "final: {a} v {b}, the qualifying's top two (XW-10, seed 000 §2); no cap (XW-8)":
        "รอบชิงชนะเลิศ: {a} พบ {b} สองอันดับแรกของรอบคัดเลือก (XW-10, seed 000 §2) ไม่จำกัดผลต่าง (XW-8)",
    "final: the top {n} of the qualifying rounds (SU-4, seed 000 §2)":
        "รอบชิงชนะเลิศ: {n} อันดับแรกของรอบคัดเลือก (SU-4, seed 000 §2)",
    "bye: {player}, the last drawn (XW-9)": "บาย: {player} ผู้ที่ถูกสุ่มเป็นคนสุดท้าย (XW-9)",
    "bye: {player}, the lowest-ranked without one (XW-9)": "บาย: {player} อันดับต่ำสุดที่ยังไม่เคยได้บาย (XW-9)",
    "every player has had a bye: a second one to {player}, the lowest-ranked (XW-9)":
        "ทุกคนได้บายแล้ว: บายครั้งที่สองให้ {player} ผู้มีอันดับต่ำสุด (XW-9)",
    "third place: {a} v {b} (XW-10, seed 000 §2)": "ชิงอันดับที่ 3: {a} พบ {b} (XW-10, seed 000 §2)",
    "qualifying round {round}: everyone solves the same puzzles at once, two competitors a clock, not opponents (SU-1, "
    "seed 000 §2)":
        "รอบคัดเลือกที่ {round}: ทุกคนแก้โจทย์ชุดเดียวกันพร้อมกัน ผู้แข่งขันสองคนใช้นาฬิกาเรือนเดียวกัน ไม่ได้เป็นคู่แข่งกัน "
        "(SU-1, seed 000 §2)",
    "{players} share the last place in the final with {score}: all are seated, the organiser must decide (the seed gives "
    "no tie-break)":
        "{players} มีคะแนนเท่ากันที่ {score} ในอันดับสุดท้ายที่เข้ารอบชิง: จัดที่นั่งให้ทุกคน ผู้จัดการแข่งขันต้องตัดสิน "
        "(ระเบียบไม่ได้กำหนดวิธีตัดสินผลเสมอ)",
    "game {round}: Swiss by points and spread (XW-10, seed 000 §1-2)":
        "เกมที่ {round}: จับคู่แบบสวิสตามแต้มและผลต่าง (XW-10, seed 000 §1-2)",
    "matchings by rustworkx {version} (exact, pairing/matching.py)": "คำนวณการจับคู่ด้วย rustworkx {version} (แม่นยำ)",
    "matchings by networkx (slow: {why})": "คำนวณการจับคู่ด้วย networkx (ช้า: {why})",
    "matchings by networkx": "คำนวณการจับคู่ด้วย networkx",
    "drawn by lot, seed {seed}": "จับสลาก เลขสุ่ม {seed}",
    "the event's": "ตามที่รายการกำหนด",
    "from round 1": "ตามรอบที่ 1",
    "FIDE Dutch system (C.04.3) by {engine}, {how}": "ระบบ Dutch ของ FIDE (C.04.3) โดย {engine}, {how}",
    "initial colour {colour} ({source})": "สีเริ่มต้น {colour} ({source})",
    "white": "ขาว",
    "black": "ดำ",
    "boards in FIDE's order (C.04.2): higher score, lower score, rank":
        "เรียงโต๊ะตามลำดับของ FIDE (C.04.2): คะแนนที่สูงกว่า คะแนนที่ต่ำกว่า แล้วอันดับ",
    "tied {score} after {n} games (MR-12)": "เสมอ {score} หลังจาก {n} เกม (MR-12)",
    "{why}; by lot (seed {seed}): {winner}": "{why}; จับสลาก (เลขสุ่ม {seed}): {winner}",
    "{score} after {n} game(s)": "{score} หลังจาก {n} เกม",
    "bracket by seeds (option 'seeds'): {bracket}": "สายการแข่งขันตามมือวาง (ตัวเลือก seeds): {bracket}",
    "bracket by lot (lot seed {seed}): {bracket}": "สายการแข่งขันจากการจับสลาก (เลขตั้งต้นการจับสลาก {seed}): {bracket}",
    "bracket drawn for round 1 (by seeds, lot seed {seed}), kept":
        "ใช้สายการแข่งขันที่จัดไว้ในรอบที่ 1 (ตามมือวาง เลขตั้งต้นการจับสลาก {seed})",
    "bracket drawn for round 1 (by lot, lot seed {seed}), kept":
        "ใช้สายการแข่งขันที่จับสลากไว้ในรอบที่ 1 (เลขตั้งต้นการจับสลาก {seed})",
    "{why}; the lot drawn at the venue: {winner}": "{why}; จับสลากที่สนามแข่ง: {winner}",
    "{why}; by lot, as the rounds published say: {winner}": "{why}; จับสลากตามที่รอบที่ประกาศแล้วแสดงไว้: {winner}",
    "{why}; by lot (kept): {winner}": "{why}; จับสลากไว้แล้ว: {winner}",
    "{gone} withdrew: {winner} goes through": "{gone} ถอนตัว: {winner} ผ่านเข้ารอบ",
    "{match}: {winner} goes through ({reason}): {detail}": "{match}: {winner} ผ่านเข้ารอบ: {detail}",
    "{match}: {why}: lots decide (the next Pair draws them, or option 'lots')":
        "{match}: {why}: ตัดสินด้วยการจับสลาก (การจับคู่ครั้งถัดไปจะจับสลาก หรือกำหนดในตัวเลือก lots)",
    "{player}: a bye": "{player}: ได้บาย",
    "tied {score} after {n} games; total time used {a} {ta}, {b} {tb}":
        "เสมอ {score} หลังจาก {n} เกม; เวลาที่ใช้รวม {a} {ta}, {b} {tb}",
    "{why} (MH-8: less total time used)": "{why} (MH-8: ผู้ใช้เวลารวมน้อยกว่าชนะ)",
    "{why}: equal (the seed is silent)": "{why}: เท่ากัน (ระเบียบไม่ได้กำหนดไว้)",
    "tied {score} after {n} games (seed 003 Makhos note)": "เสมอ {score} หลังจาก {n} เกม (หมายเหตุหมากฮอส seed 003)",
    "group {group}: {numbers}": "กลุ่ม {group}: {numbers}",
    "groups as given; pairing numbers by lot (lot seed {seed})":
        "กลุ่มตามที่กำหนด หมายเลขประกบคู่จากการจับสลาก (เลขตั้งต้นการจับสลาก {seed})",
    "{n} group(s) by lot (lot seed {seed}), dealt in turn":
        "จับสลากแบ่ง {n} กลุ่ม (เลขตั้งต้นการจับสลาก {seed}) แจกเข้ากลุ่มทีละคน",
    "groups of the lot drawn for round 1 (lot seed {seed}), kept":
        "ใช้กลุ่มที่จับสลากไว้ในรอบที่ 1 (เลขตั้งต้นการจับสลาก {seed})",
    "group {group}: its round robin is over ({rounds} rounds)": "กลุ่ม {group}: แข่งแบบพบกันหมดครบแล้ว ({rounds} รอบ)",
    "a match is 4 games on one table; a coin toss for who starts game 1, then the starter alternates (MH-7, seed 004 "
    "§3.4.1, §3.9.1)":
        "หนึ่งแมตช์แข่ง 4 เกมที่โต๊ะเดียวกัน เสี่ยงทายว่าใครเดินก่อนในเกมที่ 1 แล้วสลับกันเดินก่อน "
        "(MH-7, seed 004 §3.4.1, §3.9.1)",
    "tie-break games: 4 at 20:00 per side, ordered by the committee; if still tied, less time used in them wins (MH-7 "
    "ค.(3))":
        "เกมตัดสินผลเสมอ: 4 เกม ฝ่ายละ 20:00 ตามที่คณะกรรมการสั่ง หากยังเสมอ ผู้ใช้เวลาน้อยกว่าในเกมเหล่านี้ชนะ "
        "(MH-7 ค.(3))",
    "who starts each game: a coin toss (seed 001 §5(3))": "ผู้เดินก่อนในแต่ละเกม: เสี่ยงทาย (seed 001 §5(3))",
    "who starts each game: White of the Berger table (option colours=berger)":
        "ผู้เดินก่อนในแต่ละเกม: ฝ่ายขาวตามตาราง Berger (ตัวเลือก colours=berger)",
    "each team match: a coin toss; its winner starts on board 1, the other team on board 2 (seed 001 §5(3); our "
    "decision for the boards)":
        "แต่ละแมตช์ของทีม: เสี่ยงทาย ทีมที่ชนะเดินก่อนที่กระดาน 1 อีกทีมเดินก่อนที่กระดาน 2 "
        "(seed 001 §5(3); การแบ่งกระดานเป็นการตัดสินใจของเรา)",
    "pairing numbers as given (option 'order'; an id not among the players: its opponents have a bye)":
        "หมายเลขประกบคู่ตามที่กำหนด (ตัวเลือก order; รหัสที่ไม่มีในรายชื่อผู้เล่น: คู่แข่งของรหัสนั้นได้บาย)",
    "pairing numbers by lot (lot seed {seed}): {numbers}":
        "หมายเลขประกบคู่จากการจับสลาก (เลขตั้งต้นการจับสลาก {seed}): {numbers}",
    "pairing numbers of the lot drawn for round 1 (lot seed {seed}), kept: {numbers}":
        "ใช้หมายเลขประกบคู่ที่จับสลากไว้ในรอบที่ 1 (เลขตั้งต้นการจับสลาก {seed}): {numbers}",
    "MR-10: round one cannot keep every campus apart ({campus} has {n} of {players} players): {least} board(s) of one "
    "campus, the fewest possible":
        "MR-10: รอบแรกไม่สามารถแยกผู้เล่นโรงเรียนเดียวกันได้ทั้งหมด ({campus} มี {n} จาก {players} คน): "
        "มี {least} กระดานที่ผู้เล่นโรงเรียนเดียวกันพบกัน ซึ่งน้อยที่สุดแล้ว",
    "MR-10: round one has no two players of the same campus (seed 001 §5(2))":
        "MR-10: รอบแรกไม่มีผู้เล่นโรงเรียนเดียวกันพบกัน (seed 001 §5(2))",
    "MR-11: {player} is in no team: not paired": "MR-11: {player} ไม่อยู่ในทีมใด: ไม่ได้จับคู่",
    "MR-11: team {team} has {n} of {boards} boards: not a team (seed 001 §6(1))":
        "MR-11: ทีม {team} มี {n} จาก {boards} กระดาน: ไม่ครบทีม (seed 001 §6(1))",
    "not counted, a player has no name (load the pairings before the round): {games}":
        "ไม่นับ เพราะผู้เล่นไม่มีชื่อ (โหลดการจับคู่ก่อนเริ่มรอบ): {games}",
    "round {round} table {table} ({id})": "รอบที่ {round} โต๊ะ {table} ({id})",
    "{where} {left} v {right}": "{where} {left} พบ {right}",
    "{where} {side} scored {score}": "{where} ฝั่ง{side}ได้ {score}",
    "not counted, a player has no name: {games}": "ไม่นับ เพราะผู้เล่นไม่มีชื่อ: {games}",
    "not counted, a competitor has no name: {games}": "ไม่นับ เพราะผู้แข่งขันไม่มีชื่อ: {games}",
    "no result yet, not counted: {games}": "ยังไม่มีผล จึงไม่นับ: {games}",
    "{n} game(s) without both players' names left out: {ids}": "ไม่นับ {n} เกมที่ไม่มีชื่อผู้เล่นครบสองฝ่าย: {ids}",
    "{n} game(s) without a result left out: {ids}": "ไม่นับ {n} เกมที่ยังไม่มีผล: {ids}",
    "XW-9: {player} has a bye and a game in round {round}: the bye is not counted":
        "XW-9: {player} มีทั้งบายและเกมในรอบที่ {round}: ไม่นับบาย",
    "XW-9: preset {preset} has no bye spread for level {level}: {player}'s bye in round {round} counts +0":
        "XW-9: กติกา {preset} ไม่มีแต้มต่างของการบายสำหรับระดับ {level}: บายของ {player} ในรอบที่ {round} นับเป็น +0",
    "XW-11 gives no medal score for 0 wins: {players} (left to the organiser)":
        "XW-11 ไม่ได้ให้คะแนนเหรียญสำหรับผู้ที่ไม่ชนะเลย: {players} (ให้ผู้จัดการแข่งขันพิจารณา)",
    "XW-11 gives medal scores for 1 to 6 wins only: {players} wins (left to the organiser)":
        "XW-11 ให้คะแนนเหรียญเฉพาะผู้ชนะ 1 ถึง 6 เกม: {players} เกม (ให้ผู้จัดการแข่งขันพิจารณา)",
    "XW-11: a medal is provisional until the player's {games} qualifying games are played (XW-10)":
        "XW-11: เหรียญยังไม่เป็นทางการจนกว่าผู้เล่นจะแข่งครบ {games} เกมของรอบคัดเลือก (XW-10)",
    "XW-11: the medal level of the four who go on to the final and the game for third (qualifying places 1-4: "
    "{players}) is the committee's decision":
        "XW-11: เหรียญของสี่คนที่เข้ารอบชิงชนะเลิศและชิงอันดับที่ 3 (อันดับ 1-4 ของรอบคัดเลือก: {players}) "
        "คณะกรรมการเป็นผู้พิจารณา",
    "no result yet": "ยังไม่มีผล",
    "drawn": "เสมอ",
    "{player} won": "{player} ชนะ",
    "XW-10 final stage, not counted here: {where} {left} v {right}{board}, {outcome}":
        "รอบชิง XW-10 ไม่นับในตารางนี้: {where} {left} พบ {right}{board}, {outcome}",
    "final stage, not counted here: {where} {scores}": "รอบชิง ไม่นับในตารางนี้: {where} {scores}",
    "{player} has two results in round {round}: both are counted": "{player} มีสองผลในรอบที่ {round}: นับทั้งสองผล",
    "SU-4: a shared place puts {n} players in the top five ({players}): the organiser decides who plays the final":
        "SU-4: อันดับร่วมทำให้มีผู้แข่งขัน {n} คนในห้าอันดับแรก ({players}): ผู้จัดการแข่งขันตัดสินว่าใครได้แข่งรอบชิง",
    "XW-10: an event of {rounds} rounds plays {rounds} qualifying games and no final: the places are the qualifying "
    "standings (XW-7)":
        "XW-10: รายการที่มี {rounds} รอบ แข่งรอบคัดเลือก {rounds} เกมและไม่มีรอบชิง: อันดับคือตารางคะแนนรอบคัดเลือก (XW-7)",
    "XW-11: the medal of the four who play the final stage is the committee's decision ({players})":
        "XW-11: เหรียญของสี่คนที่แข่งรอบชิงชนะเลิศ คณะกรรมการเป็นผู้พิจารณา ({players})",
    "seed 000 §2's medal bands are percentages (gold 80-100, silver 70-79, bronze 60-69): give the event's full marks "
    "(option full_marks) for the Sudoku medals":
        "เกณฑ์เหรียญของ seed 000 §2 เป็นร้อยละ (ทอง 80-100 เงิน 70-79 ทองแดง 60-69): "
        "กำหนดคะแนนเต็มของรายการ (ตัวเลือก full_marks) เพื่อให้เหรียญซูโดกุ",
    "no match for third place (seeds 003, 004): the semi-finals' losers share third place":
        "ไม่มีการชิงอันดับที่ 3 (seed 003, 004): ผู้แพ้รอบรองชนะเลิศได้อันดับที่ 3 ร่วมกัน",
    "group {group}: {note}": "กลุ่ม {group}: {note}",
    "group {group}: a place level on every MH-7 method is the committee's to decide (seed 004 §3.9.1 ค.(4)): "
    "provisional until then":
        "กลุ่ม {group}: อันดับที่เท่ากันทุกวิธีของ MH-7 คณะกรรมการเป็นผู้ตัดสิน (seed 004 §3.9.1 ค.(4)): "
        "ยังไม่เป็นทางการจนกว่าจะตัดสิน",
    "several groups: the places are each group's (they qualify for the knockout); no medals here":
        "มีหลายกลุ่ม: อันดับเป็นของแต่ละกลุ่ม (ใช้คัดเข้ารอบแพ้คัดออก) จึงไม่มีเหรียญในตารางนี้",
    "XW-10: the {stage} was drawn: the higher qualifier, {player}, takes place {place} (the seed is silent)":
        "XW-10: {stage}เสมอ: {player} ผู้มีอันดับรอบคัดเลือกสูงกว่าได้อันดับที่ {place} (ระเบียบไม่ได้กำหนดไว้)",
    "{match}: {winner} through by lot ({detail})": "{match}: {winner} ผ่านเข้ารอบด้วยการจับสลาก ({detail})",
    "{match}: {winner} through on time used ({detail})": "{match}: {winner} ผ่านเข้ารอบด้วยเวลาที่ใช้ ({detail})",
    "{match}: {winner} through by {reason} ({detail})": "{match}: {winner} ผ่านเข้ารอบ ({detail})",
    "2 games, then lots; the final a third game first (MR-12)":
        "แข่ง 2 เกม แล้วจับสลาก รอบชิงชนะเลิศแข่งเกมที่ 3 ก่อน (MR-12)",
    "unless it is the final: a third game first": "ยกเว้นรอบชิงชนะเลิศ: แข่งเกมที่ 3 ก่อน",
    "6 games; tied: 4 games taking turns giving the draw, 4 more at 20:00, then less total time used (MH-8, seed 004 "
    "§3.9.2; seed 003: 2 games, a third, then lots)":
        "แข่ง 6 เกม หากเสมอ: แข่ง 4 เกมผลัดกันเป็นฝ่ายที่เสมอถือว่าแพ้ อีก 4 เกมฝ่ายละ 20:00 แล้วตัดสินด้วยเวลารวมที่ใช้น้อยกว่า "
        "(MH-8, seed 004 §3.9.2; seed 003: 2 เกม เกมที่ 3 แล้วจับสลาก)",
    "{where}: {a} {points_a}-{points_b} {b} ({n} game(s))": "{where}: {a} {points_a}-{points_b} {b} ({n} เกม)",
    "knockout round {round}": "รอบแพ้คัดออก รอบที่ {round}",
    "knockout rounds {first}-{last}": "รอบแพ้คัดออก รอบที่ {first}-{last}",
    "{rule}: knockout games (stage final) are not ranked; each match:": "{rule}: เกมแพ้คัดออกไม่นำมาจัดอันดับ แต่ละแมตช์:",
    "{rule}: without the event's draw (the PC does not pair it) each pair's games are one match, read as {format}":
        "{rule}: ไม่มีสายการแข่งขันของรายการ (เครื่องนี้ไม่ได้จับคู่) เกมของแต่ละคู่นับเป็นหนึ่งแมตช์ ตามกติกา: {format}",
    "{head}: {winner} goes through": "{head}: {winner} ผ่านเข้ารอบ",
    "{head}: {winner} goes through ({reason}: {detail})": "{head}: {winner} ผ่านเข้ารอบ ({detail})",
    "{head}: {why}: lots decide": "{head}: {why}: ตัดสินด้วยการจับสลาก",
    "{head}: {why}: lots decide ({after})": "{head}: {why}: ตัดสินด้วยการจับสลาก ({after})",
    "the next Pair draws them, or option 'lots'": "การจับคู่ครั้งถัดไปจะจับสลาก หรือกำหนดในตัวเลือก lots",
    "{head}: not decided yet; next, game {game}: {part}": "{head}: ยังไม่ตัดสิน ถัดไปเกมที่ {game}: {part}",
    "{head}: not decided yet; game {game} next ({format})": "{head}: ยังไม่ตัดสิน ถัดไปเกมที่ {game} ({format})",
    "byes score nothing (MH-7)": "บายไม่ได้คะแนน (MH-7)",
    "teams are not used: Makhos events are individual (seed 004 §2)": "ไม่ใช้ทีม: หมากฮอสแข่งประเภทบุคคล (seed 004 §2)",
    "MH-7: round {round}: {a} v {b}: {n} of {games} games recorded": "MH-7: รอบที่ {round}: {a} พบ {b}: บันทึกผล {n} จาก {games} เกม",
    "MH-7: round {round}: {a} v {b}: {n} games of the match recorded (matches of {games}): all are counted":
        "MH-7: รอบที่ {round}: {a} พบ {b}: บันทึกผลของแมตช์ {n} เกม (แมตช์ละ {games} เกม): นับทั้งหมด",
    "MH-7: {players} are level before {method}, which cannot separate them: {missing} played no tie-break games":
        "MH-7: {players} เท่ากันก่อนใช้วิธี {method} ซึ่งแยกไม่ได้: {missing} ไม่ได้แข่งเกมตัดสินผลเสมอ",
    "MH-7: place {place}: {upper} above {lower} on {method} ({a} v {b})":
        "MH-7: อันดับ {place}: {upper} อยู่เหนือ {lower} ด้วย{method} ({a} ต่อ {b})",
    "MH-7: place ={rank} shared by {players}: not separated by {methods}; the committee decides (seed 004 §3.9.1 ค.)":
        "MH-7: อันดับร่วม ={rank} ของ {players}: แยกด้วย {methods} ไม่ได้ คณะกรรมการเป็นผู้ตัดสิน (seed 004 §3.9.1 ค.)",
    "match points": "คะแนนแมตช์",
    "game points": "แต้มรวม",
    "game difference": "ผลต่างเกม",
    "the tie-break games' points": "แต้มของเกมตัดสินผลเสมอ",
    "less time used in the tie-break games": "เวลาที่ใช้ในเกมตัดสินผลเสมอที่น้อยกว่า",
    "MR-10: {n} game(s) without the pieces left recorded (counted as 0): {ids}":
        "MR-10: {n} เกมไม่ได้บันทึกหมากที่เหลือ (นับเป็น 0): {ids}",
    "byes score nothing (MR-10: a round robin; a player sitting a round out earns no MP)":
        "บายไม่ได้คะแนน (MR-10: แข่งแบบพบกันหมด ผู้ที่ว่างในรอบใดไม่ได้คะแนนแมตช์)",
    "MR-10: head-to-head not used for {players} ({mp} MP): not all of them have met ({unmet} not yet)":
        "MR-10: ไม่ใช้ผลที่พบกันเองกับ {players} ({mp} คะแนนแมตช์): ยังพบกันไม่ครบทุกคู่ ({unmet} ยังไม่ได้พบกัน)",
    "MR-11: team {team} has {n} of {boards} boards listed: not ranked (seed 001 §6(1))":
        "MR-11: ทีม {team} มีรายชื่อ {n} จาก {boards} กระดาน: ไม่จัดอันดับ (seed 001 §6(1))",
    "MR-11: team {team}, round {round}: {n} of {boards} boards played; scored by board points against the opponents' "
    "(our extension)":
        "MR-11: ทีม {team} รอบที่ {round}: แข่ง {n} จาก {boards} กระดาน คิดคะแนนจากแต้มกระดานเทียบกับฝ่ายตรงข้าม "
        "(ส่วนที่เราเพิ่มเติม)",
    "MR-11: {n} game(s) between players of the same team are not team games: {ids}":
        "MR-11: {n} เกมระหว่างผู้เล่นทีมเดียวกันไม่นับเป็นเกมของทีม: {ids}",
    "not in the teams file (their games count for no team): {players}": "ไม่อยู่ในไฟล์ทีม (เกมของผู้เล่นเหล่านี้ไม่นับให้ทีมใด): {players}",
    "MR-11 defines teams of 2 boards; with {boards} boards team MP compares the boards' points with the opponents' (2 "
    "more, 1 equal, 0 fewer) and GP is the boards' points (our extension)":
        "MR-11 กำหนดทีมละ 2 กระดาน เมื่อมี {boards} กระดาน คะแนนแมตช์ของทีมเทียบแต้มกระดานกับฝ่ายตรงข้าม "
        "(มากกว่า 2 เท่ากัน 1 น้อยกว่า 0) และแต้มคือแต้มรวมของกระดาน (ส่วนที่เราเพิ่มเติม)",
    "results of presets {presets}: scored by {preset}'s rules": "ผลจากหลายชุดกติกา ({presets}): คิดคะแนนตามกติกาของ {preset}",
    "{player}: {mark}": "{player}: {mark}",
    "{id} {name}, joins round {round}": "{id} {name} เข้าแข่งขันตั้งแต่รอบที่ {round}",
    "{left} v {right}": "{left} พบ {right}",
    "Choose the file": "เลือกไฟล์",
    # an arbiter's correction at the board (result-record.md `corrections`: its kind)
    "time set": "ตั้งเวลาใหม่",
    "moves made set": "ตั้งจำนวนตาใหม่",
    "the last press taken back": "ยกเลิกการกดครั้งล่าสุด",
    "extra time given": "ให้เวลาเพิ่ม",
    "extra time taken back": "ยกเลิกเวลาที่ให้เพิ่ม",
    "No file chosen": "ยังไม่ได้เลือกไฟล์",
    "Id": "รหัส",
    "the knockout's draw cannot be read: {why}": "อ่านสายการแข่งขันแบบแพ้คัดออกไม่ได้: {why}",
    # what a refusal kept by the receiver means (desk/views.py REFUSALS)
    "the signature does not match the result: not signed by this clock, or changed on the way":
        "ลายเซ็นไม่ตรงกับผล: ไม่ได้ลงนามโดยนาฬิกาเรือนนี้ หรือถูกแก้ไขระหว่างทาง",
    "the clock is not enrolled on this PC (no key for it): enroll it on the clocks page":
        "นาฬิกายังไม่ได้ลงทะเบียนกับเครื่องนี้ (ไม่มีกุญแจ): ลงทะเบียนที่หน้านาฬิกา",
    "signed with a key of the clock revoked here (it was enrolled again since)":
        "ลงนามด้วยกุญแจของนาฬิกาที่ถูกยกเลิกในเครื่องนี้แล้ว (นาฬิกาลงทะเบียนใหม่หลังจากนั้น)",
    "a result of another clock than the one that sent it": "ผลของนาฬิกาเรือนอื่น ไม่ใช่เรือนที่ส่งมา",
    "not a result record the PC can read": "ไม่ใช่ข้อมูลผลที่เครื่องนี้อ่านได้",
    "the result's id is not the record's": "รหัสของผลไม่ตรงกับข้อมูลผล",
    "an imported line that is not a JSON object": "บรรทัดที่นำเข้าไม่ใช่ออบเจ็กต์ JSON",
    "an imported line missing what a result needs": "บรรทัดที่นำเข้าขาดข้อมูลที่ผลต้องมี",
    "an imported hand entry the PC cannot read": "ผลที่กรอกด้วยมือที่นำเข้า เครื่องนี้อ่านไม่ได้",
    "an imported hand entry that conflicts with one on this PC": "ผลที่กรอกด้วยมือที่นำเข้าขัดกับผลในเครื่องนี้",
    "the PC could not store it (its database)": "เครื่องนี้บันทึกไม่ได้ (ฐานข้อมูล)",
    # the clocks page: a dock port's problems and an enrollment's outcome (dock/link.py, dock/pcside.py,
    # organiser/commands_receive.py, desk/docking.py: Notes)
    "cannot open {path}: {why}": "เปิดพอร์ต {path} ไม่ได้: {why}",
    "no such port (the clock is unplugged, or another path)": "ไม่มีพอร์ตนี้ (นาฬิกาถูกถอดออก หรือเป็นพอร์ตอื่น)",
    "no permission to open it (add this user to the dialout group)":
        "ไม่มีสิทธิ์เปิดพอร์ต (เพิ่มผู้ใช้นี้เข้ากลุ่ม dialout)",
    "another program has it open (one program serves a port: stop gameclock receive)":
        "มีโปรแกรมอื่นเปิดพอร์ตนี้อยู่ (หนึ่งพอร์ตใช้ได้ทีละโปรแกรม: ปิด gameclock receive ก่อน)",
    "failed {n}x, again in {wait} s: {error}": "ผิดพลาด {n} ครั้ง จะลองใหม่ใน {wait} วินาที: {error}",
    "R{round} T{table} {left} v {right}": "รอบ {round} โต๊ะ {table} {left} พบ {right}",
    "listing the serial ports failed: {error}": "ค้นหาพอร์ตอนุกรมไม่สำเร็จ: {error}",
    "clock {serial} left the port before it was enrolled": "นาฬิกา {serial} ถูกถอดออกก่อนลงทะเบียนเสร็จ",
    "clock {serial} enrolled (key {kid})": "ลงทะเบียนนาฬิกา {serial} แล้ว (กุญแจ {kid})",
    "clock {serial} did not answer the enrollment": "นาฬิกา {serial} ไม่ตอบการลงทะเบียน",
    "clock {serial}: {text}": "นาฬิกา {serial}: {text}",
    "clock {serial} cancelled the enrollment: {why}": "นาฬิกา {serial} ยกเลิกการลงทะเบียน: {why}",
    "clock {serial} refused the enrollment: {why}": "นาฬิกา {serial} ปฏิเสธการลงทะเบียน: {why}",
    "clock {serial} refused: {reason}": "นาฬิกา {serial} ปฏิเสธ: {reason}",
    "refused: {reason}": "นาฬิกาปฏิเสธ: {reason}",
    "the clock speaks dock protocol {theirs}, this PC {ours}: update gameclock on the PC":
        "นาฬิกาใช้โปรโตคอลการเชื่อมต่อรุ่น {theirs} เครื่องนี้รุ่น {ours}: ปรับรุ่น gameclock ในเครื่องนี้",
    "the clock speaks dock protocol {theirs}, this PC {ours}: update the clock's firmware":
        "นาฬิกาใช้โปรโตคอลการเชื่อมต่อรุ่น {theirs} เครื่องนี้รุ่น {ours}: ปรับรุ่นเฟิร์มแวร์ของนาฬิกา",
    "no clock has said hello on this port": "ยังไม่มีนาฬิกาติดต่อมาที่พอร์ตนี้",
    "clock {serial}: an enrollment is under way already": "นาฬิกา {serial}: กำลังลงทะเบียนอยู่แล้ว",
    "clock {serial} has not answered the PC's last message yet: try again":
        "นาฬิกา {serial} ยังไม่ตอบข้อความล่าสุดของเครื่องนี้: โปรดลองอีกครั้ง",
    "{n} enrollments were started on this port in the last hour: wait before the next (each one is a chance for a "
    "device on the cable to guess a code)":
        "เริ่มลงทะเบียนที่พอร์ตนี้ไปแล้ว {n} ครั้งในชั่วโมงที่ผ่านมา: โปรดรอก่อนครั้งถัดไป "
        "(แต่ละครั้งเป็นโอกาสให้อุปกรณ์ที่แฝงอยู่บนสายเดารหัสได้)",
    "clock {serial}: its new key is stored here and its other keys are revoked, but the clock has not said hello under "
    "the new key: it does at its next docking (if it shows NOT ENROLLED then, enroll it again with --replace)":
        "นาฬิกา {serial}: บันทึกกุญแจใหม่ในเครื่องนี้และยกเลิกกุญแจอื่นแล้ว แต่นาฬิกายังไม่ได้ติดต่อด้วยกุญแจใหม่ "
        "จะติดต่อเมื่อเสียบครั้งถัดไป (ถ้านาฬิกาแสดง NOT ENROLLED ให้ลงทะเบียนใหม่แบบเปลี่ยนกุญแจ --replace)",
    "internal error on a {type} message: {error}": "เกิดข้อผิดพลาดภายในขณะรับข้อความ {type}: {error}",
    "cannot read the keys of clock {serial}: {error}": "อ่านกุญแจของนาฬิกา {serial} ไม่ได้: {error}",
    "clock {serial} is enrolled on this PC, but it does not hold that key (its key {kid} was revoked at {at}): enroll "
    "it with --replace to revoke the old key (results signed with it are refused from then on)":
        "นาฬิกา {serial} ลงทะเบียนกับเครื่องนี้แล้ว แต่ไม่มีกุญแจนั้น (กุญแจ {kid} ถูกยกเลิกเมื่อ {at}): "
        "ลงทะเบียนใหม่แบบเปลี่ยนกุญแจ (--replace) เพื่อยกเลิกกุญแจเดิม (ผลที่ลงนามด้วยกุญแจเดิมจะไม่ถูกรับอีก)",
    "clock {serial} is enrolled on this PC, but it does not hold that key: enroll it with --replace to revoke the old "
    "key (results signed with it are refused from then on)":
        "นาฬิกา {serial} ลงทะเบียนกับเครื่องนี้แล้ว แต่ไม่มีกุญแจนั้น: ลงทะเบียนใหม่แบบเปลี่ยนกุญแจ (--replace) "
        "เพื่อยกเลิกกุญแจเดิม (ผลที่ลงนามด้วยกุญแจเดิมจะไม่ถูกรับอีก)",
    "it committed to a nonce but never revealed it ({how}): a clock reveals at once, so another device may be between "
    "the clock and this PC (nothing stored; each enrollment is one code, one guess for such a device)":
        "นาฬิกาผูกค่าสุ่มไว้แต่ไม่เปิดเผย ({how}): นาฬิกาจริงเปิดเผยทันที จึงอาจมีอุปกรณ์อื่นแฝงอยู่ระหว่างนาฬิกากับเครื่องนี้ "
        "(ไม่ได้บันทึกอะไร การลงทะเบียนแต่ละครั้งมีรหัสเดียว อุปกรณ์เช่นนั้นเดาได้ครั้งเดียว)",
    "within {s} s": "ภายใน {s} วินาที",
    "it cancelled instead: {reason}": "นาฬิกายกเลิกแทน: {reason}",
    "it refused instead: {reason}": "นาฬิกาปฏิเสธแทน: {reason}",
    "it did not answer the enrollment within {s} s (nothing stored)":
        "นาฬิกาไม่ตอบการลงทะเบียนภายใน {s} วินาที (ไม่ได้บันทึกอะไร)",
    "the code was not confirmed on both sides within {s} s ({who}; nothing stored)":
        "ไม่ได้ยืนยันรหัสทั้งสองฝั่งภายใน {s} วินาที ({who}; ไม่ได้บันทึกอะไร)",
    "the organiser typed it; the arbiter did not confirm on the clock": "ผู้จัดการแข่งขันพิมพ์รหัสแล้ว แต่กรรมการไม่ได้ยืนยันที่นาฬิกา",
    "the arbiter confirmed on the clock; nobody typed it here": "กรรมการยืนยันที่นาฬิกาแล้ว แต่ไม่มีใครพิมพ์รหัสที่เครื่องนี้",
    "neither the arbiter nor the organiser answered": "ทั้งกรรมการและผู้จัดการแข่งขันไม่ได้ตอบ",
    "the clock's nonce does not match its commitment": "ค่าสุ่มของนาฬิกาไม่ตรงกับที่ผูกไว้",
    "the clock sent a public key X25519 refuses": "นาฬิกาส่งกุญแจสาธารณะที่ X25519 ไม่รับ",
    "the code typed ({typed}) is not this PC's {code}: not enrolled (is another device between the clock and this PC?)":
        "รหัสที่พิมพ์ ({typed}) ไม่ตรงกับรหัสของเครื่องนี้ {code}: ไม่ได้ลงทะเบียน "
        "(มีอุปกรณ์อื่นแฝงอยู่ระหว่างนาฬิกากับเครื่องนี้หรือไม่?)",
    "the clock's confirmation does not verify": "การยืนยันของนาฬิกาตรวจสอบไม่ผ่าน",
    "clock {serial} did not prove the key this PC knows: enroll it with --replace to revoke that key":
        "นาฬิกา {serial} ไม่ได้พิสูจน์กุญแจที่เครื่องนี้รู้จัก: ลงทะเบียนใหม่แบบเปลี่ยนกุญแจ (--replace) เพื่อยกเลิกกุญแจนั้น",
    "the key clock {serial} proved was revoked during the enrollment (the clock was enrolled elsewhere meanwhile): enroll "
    "it with --replace if this is the clock":
        "กุญแจที่นาฬิกา {serial} พิสูจน์ถูกยกเลิกระหว่างการลงทะเบียน (นาฬิกาลงทะเบียนที่อื่นในระหว่างนั้น): "
        "ถ้าเป็นนาฬิกาเรือนนี้จริง ให้ลงทะเบียนใหม่แบบเปลี่ยนกุญแจ (--replace)",
    "the key could not be stored: {error}": "บันทึกกุญแจไม่ได้: {error}",
    "the arbiter declined on the clock": "กรรมการปฏิเสธที่นาฬิกา",
    "the clock waited too long": "นาฬิการอนานเกินไป",
    "a game is running on it": "นาฬิกากำลังใช้แข่งขันอยู่",
    "a game is running on it: enroll it between games": "นาฬิกากำลังใช้แข่งขันอยู่: ลงทะเบียนระหว่างเกม",
    "it is busy with another enrollment (a code on its screen, one its arbiter confirmed that no PC finished, or one "
    "nobody answered in the last 3 minutes): answer it on the clock or wait 3 minutes, then enroll again":
        "นาฬิกากำลังลงทะเบียนกับเครื่องอื่นอยู่ (มีรหัสบนจอ กรรมการยืนยันแล้วแต่ยังไม่มีเครื่องใดทำต่อจนเสร็จ "
        "หรือไม่มีใครตอบในช่วง 3 นาทีที่ผ่านมา): ตอบที่นาฬิกาหรือรอ 3 นาที แล้วลงทะเบียนใหม่",
    # the presets' names (rules/*.toml [preset] name), shown with their ids
    "A-Math no clock 50:00 (cut)": "เอแม็ท ไม่ใช้นาฬิกา 50:00 (ตัดเวลา)",
    "A-Math 22:00": "เอแม็ท 22:00",
    "Bronstein 5:00, 3s delay": "บรอนสไตน์ 5:00 หน่วง 3 วินาที",
    "Byo-yomi 10:00 + 5x30s": "เบียวโยมิ 10:00 + 5x30 วินาที",
    "Crossword no clock 50:00 (cut)": "ครอสเวิร์ด ไม่ใช้นาฬิกา 50:00 (ตัดเวลา)",
    "Crossword 22:00": "ครอสเวิร์ด 22:00",
    "Simple delay 5:00, 3s": "หน่วงเวลาแบบง่าย 5:00 หน่วง 3 วินาที",
    "FIDE 90/40 + 30, +30s": "FIDE 90/40 + 30, +30 วินาที",
    "Rapid 15:00 + 10s": "เร็ว 15:00 + 10 วินาที",
    "Fischer 3:00 + 2s": "ฟิชเชอร์ 3:00 + 2 วินาที",
    "Fischer 5:00 + 3s": "ฟิชเชอร์ 5:00 + 3 วินาที",
    "Handicap 5:00 v 3:00": "ต่อเวลา 5:00 ต่อ 3:00",
    "Hourglass 5:00": "นาฬิกาทราย 5:00",
    "Kham Kom no clock 50:00 (cut)": "คำคม ไม่ใช้นาฬิกา 50:00 (ตัดเวลา)",
    "Kham Kom 25:00": "คำคม 25:00",
    "Makhos 30:00 (then 25-20-15-10)": "หมากฮอส 30:00 (แล้ว 25-20-15-10)",
    "Makhos 2:00/move, 2x5:00": "หมากฮอส 2:00 ต่อตา, 2x5:00",
    "Makhos 2:00 per move": "หมากฮอส 2:00 ต่อตา",
    "Makhos stopwatch": "หมากฮอส จับเวลา",
    "Makhos tie-break 20:00": "หมากฮอส ตัดสินผลเสมอ 20:00",
    "Makruk 30:00": "หมากรุก 30:00",
    "Makruk 45:00": "หมากรุก 45:00",
    "Sudoku round 60:00": "ซูโดกุ 60:00",
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
    "Pending": "ค้างส่ง",
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
    # issue 28, the players' view: find my table, the players' list, the QR codes, the event's header
    # (desk/find.py, qr.py, eventpage.py; find.html, players.html, qr_sheet.html, table.html, part_event_header.html)
    "Find": "ค้นหา",
    "Find your table": "ค้นหาโต๊ะของคุณ",
    "Find your table: a name or a school": "ค้นหาโต๊ะ: ชื่อหรือโรงเรียน",
    "Type a part of your name (Thai or Latin letters) or your school.":
        "พิมพ์ส่วนหนึ่งของชื่อ (อักษรไทยหรืออังกฤษ) หรือชื่อโรงเรียน",
    "No player found.": "ไม่พบผู้เข้าแข่งขัน",
    "left (moves first)": "ฝั่งซ้าย (เริ่มก่อน)",
    "right (moves second)": "ฝั่งขวา (เริ่มทีหลัง)",
    "against": "พบกับ",
    "not paired": "ไม่มีคู่แข่งขันในรอบนี้",
    "No pairings yet.": "ยังไม่มีการจับคู่",
    "Only the first 50 players found: type more of the name.": "แสดงเพียง 50 คนแรกที่พบ กรุณาพิมพ์ชื่อให้ยาวขึ้น",
    "Tables of round": "โต๊ะของรอบที่",
    "QR codes of the players' cards": "คิวอาร์โค้ดหน้าผู้เข้าแข่งขัน",
    "QR codes of the tables": "คิวอาร์โค้ดของโต๊ะ",
    "No players yet.": "ยังไม่มีผู้เข้าแข่งขัน",
    "No result yet.": "ยังไม่มีผล",
    "No public address is set at the desk: these QR codes carry the address this page was opened with":
        "ยังไม่ได้ตั้งที่อยู่สาธารณะที่โต๊ะผู้จัด คิวอาร์โค้ดเหล่านี้ใช้ที่อยู่ที่เปิดหน้านี้",
    "No public address is set at the desk, and this page was opened at this PC's own address (127.0.0.1), which a "
    "phone cannot reach: no QR code is made.":
        "ยังไม่ได้ตั้งที่อยู่สาธารณะที่โต๊ะผู้จัด และหน้านี้เปิดจากที่อยู่ของเครื่องนี้เอง (127.0.0.1) "
        "ซึ่งโทรศัพท์เข้าไม่ถึง จึงไม่ได้สร้างคิวอาร์โค้ด",
    "The organiser sets it on the event's page at the desk.": "ผู้จัดการแข่งขันตั้งได้ที่หน้ารายการในโต๊ะผู้จัด",
    "No public address is set: the QR codes of the players' cards and the tables cannot be made for phones (this "
    "PC's own address, 127.0.0.1, is useless to them). Set it on an event's page.":
        "ยังไม่ได้ตั้งที่อยู่สาธารณะ จึงสร้างคิวอาร์โค้ดหน้าผู้เข้าแข่งขันและโต๊ะสำหรับโทรศัพท์ไม่ได้ "
        "(ที่อยู่ของเครื่องนี้เอง 127.0.0.1 ใช้กับโทรศัพท์ไม่ได้) ตั้งได้ที่หน้ารายการ",
    "No public address is set: the QR codes of the players' cards and the tables cannot be made for phones (this "
    "PC's own address, 127.0.0.1, is useless to them). Set it below.":
        "ยังไม่ได้ตั้งที่อยู่สาธารณะ จึงสร้างคิวอาร์โค้ดหน้าผู้เข้าแข่งขันและโต๊ะสำหรับโทรศัพท์ไม่ได้ "
        "(ที่อยู่ของเครื่องนี้เอง 127.0.0.1 ใช้กับโทรศัพท์ไม่ได้) ตั้งได้ด้านล่าง",
    "Public pages": "หน้าสาธารณะ",
    "The QR codes carry": "คิวอาร์โค้ดชี้ไปที่",
    "The printed pairing sheets and score slips with these codes:": "ใบจับคู่และใบบันทึกผลสำหรับพิมพ์ที่มีคิวอาร์โค้ดเหล่านี้:",
    "To print": "สำหรับพิมพ์",
    "Public address (this PC on the hall's network, for every event)":
        "ที่อยู่สาธารณะ (เครื่องนี้บนเครือข่ายของสนามแข่ง ใช้กับทุกรายการ)",
    "Title": "ชื่อการแข่งขัน",
    "Venue": "สถานที่",
    "Dates": "วันที่",
    "Arbiters": "กรรมการ",
    "Round times": "เวลาแข่งแต่ละรอบ",
    "Save the header": "บันทึกหัวเรื่อง",
    "the public pages' header is saved": "บันทึกหัวเรื่องของหน้าสาธารณะแล้ว",
    "{url} is not an address a phone can open (http://HOST:PORT)":
        "{url} ไม่ใช่ที่อยู่ที่โทรศัพท์เปิดได้ (http://HOST:PORT)",
    "{url} is this PC's own address: a phone cannot reach it; give the address of this PC on the hall's network "
    "(http://192.168.1.10:8017)":
        "{url} เป็นที่อยู่ของเครื่องนี้เอง โทรศัพท์เข้าไม่ถึง กรุณาใส่ที่อยู่ของเครื่องนี้บนเครือข่ายของสนามแข่ง "
        "(http://192.168.1.10:8017)",
    "the QR codes carry {url}": "คิวอาร์โค้ดชี้ไปที่ {url}",
    "the public address set at the desk is cleared": "ล้างที่อยู่สาธารณะที่ตั้งไว้ที่โต๊ะผู้จัดแล้ว",
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
    "Refused: this browser is not logged in (log in, then send the form again).":
        "ปฏิเสธ: ยังไม่มีผู้ใดเข้าสู่ระบบในเบราว์เซอร์นี้ (เข้าสู่ระบบแล้วส่งฟอร์มอีกครั้ง)",
    # issue 26, i26-accounts: named accounts, the exports' choices, and what the desk's notices say (the
    # English template is the key; tests/desk/test_said_words.py checks every template has its Thai)
    "Done": "เรียบร้อย",
    "Note": "โปรดทราบ",
    "Not done": "ไม่สำเร็จ",
    "Accounts": "บัญชีผู้ใช้",
    "Account": "บัญชี",
    "Role": "บทบาท",
    "Made": "สร้างเมื่อ",
    "Changes": "ประวัติการเปลี่ยนแปลง",
    "organiser": "ผู้จัดการแข่งขัน",
    "you": "ตัวท่านเอง",
    "enabled": "ใช้งานได้",
    "disabled": "ระงับการใช้งาน",
    "Enable": "เปิดใช้งาน",
    "Disable": "ระงับการใช้งาน",
    "New password": "ตั้งรหัสผ่านใหม่",
    "Set the new password": "บันทึกรหัสผ่านใหม่",
    "A new account": "สร้างบัญชีใหม่",
    "Make the account": "สร้างบัญชี",
    "made": "สร้างบัญชี",
    "a new password": "ตั้งรหัสผ่านใหม่",
    "the desk's one password became this account": "รหัสผ่านเดิมของระบบย้ายมาเป็นบัญชีนี้",
    "Your name": "ชื่อของท่าน",
    "The organiser's account": "บัญชีของผู้จัดการแข่งขัน",
    "Make the organiser's account": "สร้างบัญชีผู้จัดการแข่งขัน",
    "First start: the organiser's account, with your name and a password. You make the arbiters' accounts "
    "afterwards, on the Accounts page.":
        "เริ่มใช้งานครั้งแรก: สร้างบัญชีของผู้จัดการแข่งขันด้วยชื่อของท่านและรหัสผ่าน "
        "บัญชีของกรรมการสร้างได้ภายหลังที่หน้า บัญชีผู้ใช้",
    "Each person at the desk logs in with their own account; every amendment and every result entered by hand "
    "names it. An organiser runs the event: its set-up, pairing and publishing, exports, the clocks, the accounts. "
    "An arbiter sees the events and their rounds and corrects results: amendments and results entered by hand.":
        "ทุกคนที่ใช้ระบบเข้าสู่ระบบด้วยบัญชีของตนเอง การแก้ไขผลและผลที่บันทึกด้วยมือทุกครั้งจะระบุชื่อบัญชีไว้ "
        "ผู้จัดการแข่งขันดูแลรายการแข่งขันทั้งหมด: การตั้งค่า การจับคู่และประกาศ การส่งออกข้อมูล นาฬิกา และบัญชีผู้ใช้ "
        "กรรมการดูรายการแข่งขันและรอบการแข่งขัน และแก้ไขผล: การแก้ไขผลและการบันทึกผลด้วยมือ",
    "Wrong name or password.": "ชื่อหรือรหัสผ่านไม่ถูกต้อง",
    "This account is disabled: ask an organiser to enable it.": "บัญชีนี้ถูกระงับการใช้งาน: โปรดติดต่อผู้จัดการแข่งขันเพื่อเปิดใช้งาน",
    "Too many wrong passwords for this account from browsers this desk does not know: wait a minute, or log in "
    "from a browser you logged in from before.":
        "มีการใส่รหัสผ่านของบัญชีนี้ผิดจากเบราว์เซอร์ที่ระบบไม่รู้จักหลายครั้งเกินไป กรุณารอหนึ่งนาที "
        "หรือเข้าสู่ระบบจากเบราว์เซอร์ที่ท่านเคยใช้เข้าสู่ระบบ",
    "Only an organiser's account may do this ({name} is an arbiter's).":
        "เฉพาะบัญชีของผู้จัดการแข่งขันเท่านั้นที่ทำสิ่งนี้ได้ ({name} เป็นบัญชีของกรรมการ)",
    "give the account a name": "กรุณาตั้งชื่อบัญชี",
    "a name is at most {n} characters": "ชื่อยาวได้ไม่เกิน {n} ตัวอักษร",
    "a name holds letters, digits, spaces and signs, not control characters":
        "ชื่อประกอบด้วยตัวอักษร ตัวเลข ช่องว่าง และเครื่องหมาย ห้ามมีอักขระควบคุม",
    "the password needs at least {n} characters": "รหัสผ่านต้องมีอย่างน้อย {n} ตัวอักษร",
    "the password is longer than {n} characters": "รหัสผ่านยาวเกิน {n} ตัวอักษร",
    "the role is organiser or arbiter": "บทบาทต้องเป็นผู้จัดการแข่งขันหรือกรรมการ",
    "the name {name} is taken: an account has it already": "ชื่อ {name} มีบัญชีใช้อยู่แล้ว",
    "no account {name}": "ไม่มีบัญชีชื่อ {name}",
    "{name} is the last organiser's account: make another organiser's account before disabling it":
        "{name} เป็นบัญชีผู้จัดการแข่งขันบัญชีสุดท้าย: สร้างบัญชีผู้จัดการแข่งขันอีกบัญชีก่อนระงับบัญชีนี้",
    "account {name} made ({role}): it logs in with its own password":
        "สร้างบัญชี {name} ({role}) แล้ว: เข้าสู่ระบบด้วยรหัสผ่านของบัญชีนั้นเอง",
    "account {name} disabled: its sessions have ended": "ระงับบัญชี {name} แล้ว: การเข้าสู่ระบบของบัญชีนี้สิ้นสุดทั้งหมด",
    "account {name} enabled: it logs in again with its password": "เปิดใช้งานบัญชี {name} แล้ว: เข้าสู่ระบบด้วยรหัสผ่านเดิมได้",
    "a new password for {name}: its sessions have ended":
        "ตั้งรหัสผ่านใหม่ให้ {name} แล้ว: การเข้าสู่ระบบของบัญชีนี้สิ้นสุดทั้งหมด",
    # the pages' refusals that are not the accounts'
    "Not Found": "ไม่พบหน้าที่ต้องการ",
    "Content Too Large": "ข้อมูลที่ส่งมาใหญ่เกินไป",
    "Request Entity Too Large": "ข้อมูลที่ส่งมาใหญ่เกินไป",
    "Internal Server Error": "เกิดข้อผิดพลาดภายในระบบ",
    "a form is sent url-encoded": "ฟอร์มต้องส่งแบบ url-encoded",
    "not a form": "ข้อมูลที่ส่งมาไม่ใช่ฟอร์ม",
    "no clock named": "ไม่ได้ระบุนาฬิกา",
    "too many fields": "ฟอร์มมีช่องข้อมูลมากเกินไป",
    "clock {serial} is not docked on {port} now": "นาฬิกา {serial} ไม่ได้เสียบอยู่ที่ {port} ในขณะนี้",
    "{port}: too many requests waiting: wait a moment": "{port}: มีคำขอรออยู่มากเกินไป กรุณารอสักครู่",
    "{done}; {lost}": "{done}; {lost}",
    "clock {serial}: no code is waiting to be typed": "นาฬิกา {serial}: ไม่มีรหัสที่รอให้พิมพ์",
    # the event's set-up (desk/setup.py, event.py)
    "the pasted list": "รายชื่อที่วาง",
    "event {name} created: {n} players, system {system}": "สร้างรายการ {name} แล้ว: ผู้เข้าแข่งขัน {n} คน ระบบจับคู่ {system}",
    "{list}: read as {encoding} (Thai), not UTF-8": "{list}: อ่านเป็น {encoding} (ภาษาไทย) ไม่ใช่ UTF-8",
    "{list}: {note}": "{list}: {note}",
    "ignored column {columns}": "ไม่ได้ใช้คอลัมน์ {columns}",
    "ignored columns {columns}": "ไม่ได้ใช้คอลัมน์ {columns}",
    "ignored tsh field {fields}": "ไม่ได้ใช้ข้อมูล tsh {fields}",
    "ignored tsh fields {fields}": "ไม่ได้ใช้ข้อมูล tsh {fields}",
    "no player list: choose its file or paste it": "ไม่มีรายชื่อผู้เข้าแข่งขัน: เลือกไฟล์หรือวางรายชื่อ",
    "rounds {value}: a whole number 0 (not said) to {max}": "จำนวนรอบ {value}: ต้องเป็นจำนวนเต็ม 0 (ไม่ระบุ) ถึง {max}",
    "{field}: at most {n} characters": "{field}: ไม่เกิน {n} ตัวอักษร",
    "the list's format is one of {formats}": "รูปแบบรายชื่อต้องเป็น {formats}",
    "{list}: more than {n} bytes: not a player list": "{list}: ใหญ่เกิน {n} ไบต์ ไม่ใช่รายชื่อผู้เข้าแข่งขัน",
    "{list}: no header row (id, name, ...) and no players": "{list}: ไม่มีแถวหัวตาราง (id, name, ...) และไม่มีผู้เข้าแข่งขัน",
    "{list}: {n} player: an event needs two or more": "{list}: มีผู้เข้าแข่งขัน {n} คน รายการต้องมีอย่างน้อยสองคน",
    "{list}: {n} players: an event needs two or more": "{list}: มีผู้เข้าแข่งขัน {n} คน รายการต้องมีอย่างน้อยสองคน",
    "{where}{what} {value} holds '#'": "{where}{what} {value} มีเครื่องหมาย '#'",
    "{where}{what} {value} holds a control character ({char})": "{where}{what} {value} มีอักขระควบคุม ({char})",
    "{where}{what} {value}... is longer than {n} characters": "{where}{what} {value}... ยาวเกิน {n} ตัวอักษร",
    "{where}{what} {value} is not a whole number 0-{top}": "{where}{what} {value} ไม่ใช่จำนวนเต็ม 0-{top}",
    "{where}id {id} given twice (line {line} has it)": "{where}รหัส {id} ซ้ำ (มีอยู่แล้วที่บรรทัด {line})",
    "{where}{name} is listed twice (line {line}): the clocks and the standings know players by name; tell them apart "
    "(e.g. add a school)":
        "{where}{name} มีชื่อซ้ำ (บรรทัด {line}): นาฬิกาและตารางคะแนนแยกผู้เล่นด้วยชื่อ โปรดทำให้ชื่อต่างกัน "
        "(เช่น เพิ่มชื่อโรงเรียน)",
    "{where}more than {n} players": "{where}ผู้เข้าแข่งขันเกิน {n} คน",
    "{where}column {name} given twice": "{where}คอลัมน์ {name} ซ้ำ",
    "{where}no {columns} column: the header needs id,name (and any of {others})":
        "{where}ไม่มีคอลัมน์ {columns}: หัวตารางต้องมี id,name (และ {others} ได้)",
    "{where}{n} values but the header has {columns} columns; a value holding the separator needs quotes: "
    "\"Srisuk, Somchai\"":
        "{where}มี {n} ค่า แต่หัวตารางมี {columns} คอลัมน์ ค่าที่มีเครื่องหมายคั่นต้องอยู่ในเครื่องหมายคำพูด: "
        "\"Srisuk, Somchai\"",
    "{where}{n} values but the header has {columns} columns": "{where}มี {n} ค่า แต่หัวตารางมี {columns} คอลัมน์",
    "{where}id {id} is not 1-16 letters, digits, _ . - (the first a letter or digit)":
        "{where}รหัส {id} ต้องเป็นตัวอักษร ตัวเลข _ . - 1-16 ตัว (ตัวแรกเป็นตัวอักษรหรือตัวเลข)",
    "{where}no id": "{where}ไม่มีรหัส",
    "team": "ทีม",
    "board": "กระดาน",
    "{where}not a tsh player line ({usage}): {line}": "{where}ไม่ใช่บรรทัดผู้เล่นของ tsh ({usage}): {line}",
    "{where}no name for player {id}": "{where}ผู้เข้าแข่งขันรหัส {id} ไม่มีชื่อ",
    "{where}level {value} is not one of {levels}": "{where}ระดับ {value} ต้องเป็น {levels}",
    "{where}{name} has opponents or scores: this is an event under way; a new event's list has none":
        "{where}{name} มีคู่แข่งหรือคะแนนแล้ว: นี่คือรายการที่กำลังแข่งขัน รายชื่อของรายการใหม่ต้องไม่มี",
    "{where}rating {value} is more than {top}": "{where}เรตติ้ง {value} เกิน {top}",
    "event: give it a name (one word)": "รายการ: กรุณาตั้งชื่อ (คำเดียว)",
    "event: event {name} has spaces: give it as one word (e.g. {example}); the clock's log keeps it as `event ID`":
        "รายการ: ชื่อรายการ {name} มีช่องว่าง: ตั้งเป็นคำเดียว (เช่น {example})",
    "pairing system {system} is not one of {systems}": "ระบบจับคู่ {system} ต้องเป็นหนึ่งใน {systems}",
    "--rounds {rounds}: 0 (not said) to {max}": "จำนวนรอบ {rounds}: ต้องเป็น 0 (ไม่ระบุ) ถึง {max}",
    "{db}: event {event} exists already (gameclock event show {event})": "มีรายการ {event} อยู่แล้ว",
    "option {item}: give it as key=value (key: a-z, 0-9, _)": "ตัวเลือก {item}: ใส่ในรูป key=value (key: a-z, 0-9, _)",
    "option {key} given twice": "ตัวเลือก {key} ซ้ำ",
    "option {item}: a key is a-z, 0-9, _": "ตัวเลือก {item}: key ต้องเป็น a-z, 0-9, _",
    "option {key}: {why}": "ตัวเลือก {key}: {why}",
    "option {name}: {why}": "ตัวเลือก {name}: {why}",
    "option {name}: at most {n} characters": "ตัวเลือก {name}: ไม่เกิน {n} ตัวอักษร",
    "option {name} is not an option of {system}: did you mean {meant}?":
        "{name} ไม่ใช่ตัวเลือกของระบบ {system}: หมายถึง {meant} หรือไม่",
    "option {name} is not an option of {system} (its options: {known})":
        "{name} ไม่ใช่ตัวเลือกของระบบ {system} (ตัวเลือกของระบบนี้: {known})",
    "option {name} is not an option of {system} (it has none)": "{name} ไม่ใช่ตัวเลือกของระบบ {system} (ระบบนี้ไม่มีตัวเลือก)",
    "{token} is not a player of the event": "{token} ไม่ใช่ผู้เข้าแข่งขันของรายการ",
    "{value} is not a whole number from {low} to {top}": "{value} ไม่ใช่จำนวนเต็มตั้งแต่ {low} ถึง {top}",
    "{value} is not true or false": "{value} ต้องเป็น true หรือ false",
    "{value} is not one of {choices}": "{value} ต้องเป็นหนึ่งใน {choices}",
    "{id} is listed twice": "{id} ซ้ำ",
    "{id} has withdrawn": "{id} ถอนตัวแล้ว",
    "{event}: its system declares no options to set here": "{event}: ระบบจับคู่ของรายการนี้ไม่มีตัวเลือกให้ตั้งที่นี่",
    "{event}: give the options to set: --option KEY=VALUE": "{event}: กรุณาระบุตัวเลือกที่จะตั้ง",
    "{event}: the options change nothing": "{event}: ตัวเลือกไม่ได้เปลี่ยนแปลง",
    "{event}: round {round} is published: say why the options change":
        "{event}: ประกาศการจับคู่รอบ {round} แล้ว: กรุณาระบุเหตุผลที่เปลี่ยนตัวเลือก",
    "the reason is at most {n} characters of text": "เหตุผลยาวได้ไม่เกิน {n} ตัวอักษร",
    "{db}: the options of {event} changed meanwhile: look at them again":
        "ตัวเลือกของ {event} ถูกเปลี่ยนไปในระหว่างนี้: โปรดตรวจสอบอีกครั้ง",
    "{db}: a round of {event} was published meanwhile: look at the options again":
        "มีการประกาศการจับคู่ของ {event} ในระหว่างนี้: โปรดตรวจสอบตัวเลือกอีกครั้ง",
    "{option}: {before} » {after}": "{option}: {before} » {after}",
    "(not given)": "(ไม่ได้กำหนด)",
    "the draft of round {round} was drawn before: pair it again":
        "ฉบับร่างรอบ {round} จับคู่ไว้ก่อนเปลี่ยนตัวเลือก: กด จับคู่ใหม่ อีกครั้ง",
    # pairing, fixing and publishing a round (desk/admin.py, desk/setup.py, event.py)
    "round {round}: draft drawn (seed {seed})": "รอบ {round}: จับคู่ฉบับร่างแล้ว (เลขสุ่ม {seed})",
    "round {round}: drawn again (seed {seed})": "รอบ {round}: จับสลากใหม่แล้ว (เลขสุ่ม {seed})",
    "round {round} published": "ประกาศการจับคู่รอบ {round} แล้ว",
    "round {round}: draft changed": "รอบ {round}: แก้ไขฉบับร่างแล้ว",
    "{event}: no result yet for {tables} (dock their clocks first)":
        "{event}: ยังไม่มีผลของ {tables} (เสียบนาฬิกาของโต๊ะเหล่านั้นก่อน)",
    "{items} and {more} more": "{items} และอีก {more} รายการ",
    "{event}: all {rounds} rounds are published": "{event}: ประกาศการจับคู่ครบทั้ง {rounds} รอบแล้ว",
    "{event}: {why}": "{event}: {why}",
    "{event}: {results}": "{event}: {results}",
    "result {id} (round {round} table {table}) has {left} v {right}, published {a} v {b}":
        "ผล {id} (รอบ {round} โต๊ะ {table}) เป็นของ {left} พบ {right} แต่ประกาศการจับคู่ไว้เป็น {a} พบ {b}",
    "result {id} (round {round} table {table}) has {left} v {right}, published {published} alone":
        "ผล {id} (รอบ {round} โต๊ะ {table}) เป็นของ {left} พบ {right} แต่ประกาศไว้ให้ {published} แข่งคนเดียว",
    "{event}: round {round} ({system}, seed {seed}): {why}": "{event}: รอบ {round} ({system} เลขสุ่ม {seed}): {why}",
    "the {what} is over: all {rounds} rounds of the Berger table are published":
        "{what}จบแล้ว: ประกาศการจับคู่ครบทั้ง {rounds} รอบของตาราง Berger แล้ว",
    "round robin": "การแข่งขันแบบพบกันหมด",
    "team round robin": "การแข่งขันประเภททีมแบบพบกันหมด",
    "the knockout is over: {champion}": "การแข่งขันแบบแพ้คัดออกจบแล้ว: {champion}",
    "the knockout is over: {champion} (by lot: {lots}, kept)":
        "การแข่งขันแบบแพ้คัดออกจบแล้ว: {champion} (ตัดสินโดยการจับสลาก: {lots})",
    "{player} won the final": "{player} ชนะรอบชิงชนะเลิศ",
    "the final is decided": "ตัดสินรอบชิงชนะเลิศแล้ว",
    "the groups' round robins are over ({rounds} round(s)); tie-break games are played only when the committee "
    "orders them (option 'tiebreak': the tied players' lists)":
        "การแข่งขันแบบพบกันหมดของทุกกลุ่มจบแล้ว ({rounds} รอบ) การแข่งขันตัดสินผลเสมอมีเฉพาะเมื่อคณะกรรมการสั่ง "
        "(ตัวเลือก tiebreak: รายชื่อผู้เล่นที่เสมอกัน)",
    "the groups' round robins ({rounds} round(s)) and the tie-break games ordered are over":
        "การแข่งขันแบบพบกันหมดของทุกกลุ่ม ({rounds} รอบ) และการแข่งขันตัดสินผลเสมอที่สั่งไว้จบแล้ว",
    "{event}: round {round} is more than the clocks take ({max})": "{event}: รอบ {round} เกินจำนวนที่นาฬิการับได้ ({max})",
    "{event}: no draft to redraw (gameclock pair {event} draws the next round)":
        "{event}: ไม่มีฉบับร่างให้จับสลากใหม่ (กด จับคู่รอบถัดไป ก่อน)",
    "{event}: no draft to change (gameclock pair {event} draws the next round)":
        "{event}: ไม่มีฉบับร่างให้แก้ไข (กด จับคู่รอบถัดไป ก่อน)",
    "{event}: no draft to publish (gameclock pair {event} draws the next round)":
        "{event}: ไม่มีฉบับร่างให้ประกาศ (กด จับคู่รอบถัดไป ก่อน)",
    "{db}: round {round} of {event} is published already": "รอบ {round} ของ {event} ประกาศแล้ว",
    "{db}: round {round} of {event} has no draft to publish": "รอบ {round} ของ {event} ไม่มีฉบับร่างให้ประกาศ",
    "{event}: round {round} draws nothing a new seed could change ({said}): a Redraw is for round 1's draft and for "
    "a knockout stage whose ties lots decide":
        "{event}: รอบ {round} ไม่มีสิ่งที่เลขสุ่มใหม่จะเปลี่ยนได้ ({said}): การจับสลากใหม่ใช้ได้กับฉบับร่างรอบที่ 1 "
        "และรอบแพ้คัดออกที่ตัดสินผลเสมอด้วยการจับสลาก",
    "the lot kept since round 1": "ผลจับสลากที่ใช้ตั้งแต่รอบที่ 1",
    "paired from the results so far": "จับคู่ตามผลการแข่งขันที่ผ่านมา",
    "table": "โต๊ะ",
    "{what} {value} is not a table 1-{max}": "{what} {value} ไม่ใช่หมายเลขโต๊ะ 1-{max}",
    "give the left player (an id or a name) and the right one (or bye)":
        "ระบุผู้เล่นฝั่งซ้าย (รหัสหรือชื่อ) และฝั่งขวา (หรือ bye)",
    "no player {ref} in the event (give the id)": "ไม่มีผู้เข้าแข่งขัน {ref} ในรายการ (ระบุรหัส)",
    "round {round}: no table {table} in the draft (tables {tables})": "รอบ {round}: ฉบับร่างไม่มีโต๊ะ {table} (มีโต๊ะ {tables})",
    "round {round}: --swap {a} {b}: two different tables": "รอบ {round}: สลับโต๊ะ {a} กับ {b}: ต้องเป็นโต๊ะที่ต่างกัน",
    "round {round}: table {table} is not 1-{max}": "รอบ {round}: โต๊ะ {table} ต้องอยู่ระหว่าง 1-{max}",
    "round {round} table {table}: the left player cannot be a bye (give LEFT bye)":
        "รอบ {round} โต๊ะ {table}: ผู้เล่นฝั่งซ้ายเป็นบายไม่ได้ (ใส่บายที่ฝั่งขวา)",
    "round {round} table {table}: {player} cannot play themself": "รอบ {round} โต๊ะ {table}: {player} แข่งกับตัวเองไม่ได้",
    "round {round} table {table}: {id} {name} has withdrawn": "รอบ {round} โต๊ะ {table}: {id} {name} ถอนตัวแล้ว",
    "round {round}: {id} {name} is at table {a} and table {b}": "รอบ {round}: {id} {name} อยู่ทั้งโต๊ะ {a} และโต๊ะ {b}",
    "round {round}: {players} is at no table (every player of the draft once)":
        "รอบ {round}: {players} ไม่ได้อยู่โต๊ะใด (ผู้เล่นทุกคนในฉบับร่างต้องอยู่หนึ่งโต๊ะ)",
    "round {round}: {players} are at no table (every player of the draft once)":
        "รอบ {round}: {players} ไม่ได้อยู่โต๊ะใด (ผู้เล่นทุกคนในฉบับร่างต้องอยู่หนึ่งโต๊ะ)",
    "round {round}: {players} is not in the draft": "รอบ {round}: {players} ไม่ได้อยู่ในฉบับร่าง",
    "round {round}: {players} are not in the draft": "รอบ {round}: {players} ไม่ได้อยู่ในฉบับร่าง",
    "round {round} continues the lot kept since round 1 (the event's draw): who meets whom is the lot's; swap tables, "
    "or set a table to the same two players the other way round":
        "รอบ {round} ต่อจากผลจับสลากตั้งแต่รอบที่ 1: คู่แข่งขันเป็นไปตามผลจับสลาก สลับโต๊ะได้ "
        "หรือกำหนดโต๊ะให้ผู้เล่นคู่เดิมสลับฝั่งกัน",
    # a result and its amendments (desk/admin.py, store.py)
    "a score is a whole number": "คะแนนต้องเป็นจำนวนเต็ม",
    "the outcome is left, right or draw": "ผลการแข่งต้องเป็น ซ้าย ขวา หรือ เสมอ",
    "The winner does not follow the final scores {left}-{right} (XW-6: the higher final score wins): choose "
    "{by_score}, or change the scores.":
        "ผู้ชนะไม่ตรงกับคะแนนสุดท้าย {left}-{right} (XW-6: คะแนนสุดท้ายสูงกว่าเป็นฝ่ายชนะ): เลือก {by_score} "
        "หรือแก้ไขคะแนน",
    "no amendment to withdraw": "ไม่มีการแก้ไขให้ถอน",
    "amendment {n} is not the one in effect for {result}": "การแก้ไขครั้งที่ {n} ไม่ใช่การแก้ไขที่มีผลอยู่ของ {result}",
    "amendment {n} kept beside the signed result: it counts from now on":
        "บันทึกการแก้ไขครั้งที่ {n} ไว้ข้างผลที่นาฬิกาลงนามแล้ว: มีผลตั้งแต่นี้",
    "amendment {n} withdrawn (entry {done} of the trail): what counted before it counts again":
        "ถอนการแก้ไขครั้งที่ {n} แล้ว (บันทึกครั้งที่ {done}): ผลก่อนหน้ากลับมามีผลอีกครั้ง",
    # the exports (desk/admin.py, exports/)
    "Encoding": "การเข้ารหัส",
    "Thai": "ภาษาไทย",
    "Rounds 1 to": "รอบที่ 1 ถึง",
    "all": "ทุกรอบ",
    "a round without a result or a bye is an absence (Z)": "รอบที่ไม่มีผลและไม่มีบายนับเป็นขาด (Z)",
    "a .t file a division, for tsh": "ไฟล์ .t หนึ่งไฟล์ต่อกลุ่ม สำหรับ tsh",
    "FIDE TRF16, a file a division, for Swiss programs": "FIDE TRF16 หนึ่งไฟล์ต่อกลุ่ม สำหรับโปรแกรมจับคู่แบบสวิส",
    "a line a game, for spreadsheets": "หนึ่งบรรทัดต่อเกม สำหรับโปรแกรมตารางคำนวณ",
    "every result as signed, for gameclock import": "ผลทั้งหมดตามที่นาฬิกาลงนาม สำหรับ gameclock import",
    "the encoding is utf-8 or windows-874": "การเข้ารหัสต้องเป็น utf-8 หรือ windows-874",
    "rounds 1 to {round}: a round 1-{max}, or empty for all": "รอบที่ 1 ถึง {round}: ใส่รอบ 1-{max} หรือเว้นว่างเพื่อส่งออกทุกรอบ",
    "export {fmt}: {why}": "ส่งออก {fmt} ไม่ได้: {why}",
    "no results stored": "ยังไม่มีผลการแข่งขัน",
    "no results stored for event {event}": "รายการ {event} ยังไม่มีผลการแข่งขัน",
    "no results stored in rounds 1-{round}": "รอบที่ 1-{round} ยังไม่มีผลการแข่งขัน",
    "no results stored for event {event} in rounds 1-{round}": "รายการ {event} ยังไม่มีผลการแข่งขันในรอบที่ 1-{round}",
    "jsonl is always UTF-8 (what gameclock import reads)": "jsonl เป็น UTF-8 เสมอ (ตามที่ gameclock import อ่าน)",
    "result {id} ({where})": "ผล {id} ({where})",
    "no round": "ไม่มีรอบ",
    "no table": "ไม่มีโต๊ะ",
    "table {table}": "โต๊ะ {table}",
    "game {game}": "เกม {game}",
    "{player} in round {round}": "{player} ในรอบ {round}",
    "{player} in round {round} game {game}": "{player} ในรอบ {round} เกม {game}",
    "{division}: no result and no bye for {gaps} (a result not received yet? dock the clock, or load the bye with the "
    "round's pairings; --round N exports the rounds before)":
        "{division}: ไม่มีผลและไม่มีบายของ {gaps} (ยังไม่ได้รับผล? เสียบนาฬิกา หรือใส่บายพร้อมการจับคู่ของรอบนั้น "
        "หรือเลือกส่งออกเฉพาะรอบก่อนหน้า)",
    "{division}: {results}: no round recorded, so no column for it": "{division}: {results}: ไม่มีรอบ จึงไม่มีคอลัมน์ให้",
    "{division}: {format} needs the players' names; the clock recorded none in {results} (push the pairings to the "
    "clocks, or fix the records)":
        "{division}: {format} ต้องมีชื่อผู้เล่น แต่นาฬิกาไม่ได้บันทึกชื่อใน {results} "
        "(ส่งการจับคู่ให้นาฬิกา หรือแก้ไขผล)",
    "{division}: tsh is for the crossword family; these results are {kinds} (export trf or csv)":
        "{division}: tsh ใช้กับเกมตระกูลครอสเวิร์ดเท่านั้น ผลเหล่านี้เป็น {kinds} (ส่งออกเป็น trf หรือ csv)",
    "{result} ({kind})": "{result} ({kind})",
    "{division}: tsh needs both players' scores, and {results} has none: export trf or csv instead":
        "{division}: tsh ต้องมีคะแนนของทั้งสองฝ่าย แต่ {results} ไม่มี: ส่งออกเป็น trf หรือ csv แทน",
    "{division}: Sudoku competitors share a clock, they are not opponents: no TRF (export csv)":
        "{division}: ผู้แข่งขันซูโดกุใช้นาฬิการ่วมกันแต่ไม่ได้เป็นคู่แข่งกัน: ไม่มี TRF (ส่งออกเป็น csv)",
    "unknown encoding {encoding} (utf-8 or windows-874)": "ไม่รู้จักการเข้ารหัส {encoding} (utf-8 หรือ windows-874)",
    "player {id} {name}": "ผู้เล่น {id} {name}",
    "the event name": "ชื่อรายการ",
    "{division}: {who} cannot be written in {encoding} (character {char}): use --encoding utf-8":
        "{division}: เขียน {who} เป็น {encoding} ไม่ได้ (อักขระ {char}): เลือกการเข้ารหัส utf-8",
    "{division}: player {id} {name} cannot be written in {encoding} (character {char}): use --encoding utf-8":
        "{division}: เขียนผู้เล่น {id} {name} เป็น {encoding} ไม่ได้ (อักขระ {char}): เลือกการเข้ารหัส utf-8",
    # (i26-accounts) the players' forms and the drafts' refusals, as the desk says them (event.py's Words)
    "give the two players to exchange (ids or names)": "ระบุผู้เล่นสองคนที่จะสลับกัน (รหัสหรือชื่อ)",
    "{event}: round {round} is published: say why the player changes":
        "{event}: ประกาศการจับคู่รอบ {round} แล้ว: กรุณาระบุเหตุผลที่เปลี่ยนข้อมูลผู้เล่น",
    "{event}: give a player, not a bye": "{event}: ระบุผู้เล่น ไม่ใช่บาย",
    "{event}: {id} {name} has withdrawn already ({when})": "{event}: {id} {name} ถอนตัวไปแล้ว ({when})",
    "{id} {name} {when}": "{id} {name} {when}",
    "{event}: {id} {name} has not withdrawn": "{event}: {id} {name} ไม่ได้ถอนตัว",
    "{event}: {id} {name} withdrew after round {after} and round {published} is published since: a withdrawal is "
    "undone only before the next round is published":
        "{event}: {id} {name} ถอนตัวหลังรอบที่ {after} และประกาศการจับคู่รอบที่ {published} ไปแล้ว: "
        "ยกเลิกการถอนตัวได้เฉพาะก่อนประกาศการจับคู่รอบถัดไป",
    "{id} {name} plays on": "{id} {name} กลับมาแข่งขันต่อ",
    "{event}: no late entry: {why}": "{event}: รับสมัครล่าช้าไม่ได้: {why}",
    "{where}id {id} is taken ({name})": "{where}รหัส {id} มีผู้ใช้แล้ว ({name})",
    "{where}{n} players already": "{where}มีผู้เข้าแข่งขันครบ {n} คนแล้ว",
    "{where}no name": "{where}ไม่มีชื่อ",
    "{id} {name} joins round {round}": "{id} {name} เข้าแข่งขันตั้งแต่รอบที่ {round}",
    "{id} {name} joins round {round} (round 1 missed: no points)":
        "{id} {name} เข้าแข่งขันตั้งแต่รอบที่ {round} (ขาดรอบที่ 1: ไม่ได้คะแนน)",
    "{id} {name} joins round {round} (rounds 1-{last} missed: no points)":
        "{id} {name} เข้าแข่งขันตั้งแต่รอบที่ {round} (ขาดรอบที่ 1-{last}: ไม่ได้คะแนน)",
    "{event}: {field} cannot be edited here ({fields})": "{event}: แก้ไข {field} ที่นี่ไม่ได้ ({fields})",
    "{event}: the edit of {id} {name} changes nothing": "{event}: การแก้ไข {id} {name} ไม่ได้เปลี่ยนแปลงอะไร",
    "{id} {name}: {field} {before} » {after}": "{id} {name}: {field} {before} » {after}",
    "{event}: the name {new} is taken: {name} is a player of the event ({id}); the clocks and the standings know "
    "players by name":
        "{event}: ชื่อ {new} มีผู้ใช้แล้ว: {name} เป็นผู้เข้าแข่งขันของรายการ ({id}) นาฬิกาและตารางคะแนนแยกผู้เล่นด้วยชื่อ",
    "{event}: the name {new} is taken: {old} is a former name of {id} {name} (the clocks recorded it)":
        "{event}: ชื่อ {new} มีผู้ใช้แล้ว: {old} เป็นชื่อเดิมของ {id} {name} (นาฬิกาบันทึกไว้)",
    "round {round}: exchange two players (a bye is a seat: exchange its player)":
        "รอบ {round}: สลับผู้เล่นสองคน (บายไม่ใช่ผู้เล่น ให้สลับผู้เล่นที่ได้บาย)",
    "round {round}: {p} and {q}: two different players": "รอบ {round}: {p} และ {q}: ต้องเป็นผู้เล่นสองคนที่ต่างกัน",
    "round {round}: {id} {name} is at no table of the draft (pair it again to seat a late entry)":
        "รอบ {round}: {id} {name} ไม่ได้อยู่โต๊ะใดในฉบับร่าง (จับคู่ใหม่เพื่อจัดที่ให้ผู้สมัครล่าช้า)",
    "a round robin's pairing numbers were drawn in round 1 (MR-10): a late entry has no number in the Berger table":
        "หมายเลขประกบคู่ของการแข่งขันแบบพบกันหมดจับสลากไว้ในรอบที่ 1 (MR-10): ผู้สมัครล่าช้าไม่มีหมายเลขในตาราง Berger",
    "a round robin's team numbers were drawn in round 1 (MR-11): a late entry has no place in the Berger table":
        "หมายเลขทีมของการแข่งขันแบบพบกันหมดจับสลากไว้ในรอบที่ 1 (MR-11): ผู้สมัครล่าช้าไม่มีที่ในตาราง Berger",
    "the groups were drawn in round 1 (MH-7): their round robins have no place for a late entry":
        "การแบ่งกลุ่มจับสลากไว้ในรอบที่ 1 (MH-7): การแข่งขันแบบพบกันหมดของแต่ละกลุ่มไม่มีที่สำหรับผู้สมัครล่าช้า",
    "a knockout's bracket was drawn in round 1: a late entry has no place in it":
        "สายการแข่งขันแบบแพ้คัดออกจับสลากไว้ในรอบที่ 1: ผู้สมัครล่าช้าไม่มีที่ในสาย",
    "the draft of round {round} changed since the page showed it ({shown}): {what}":
        "ฉบับร่างรอบ {round} เปลี่ยนไปหลังจากที่หน้านี้แสดง ({shown}): {what}",
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
        "ช่องตาราง: ผล (ช ชนะ, ส เสมอ, พ แพ้, บ บาย) และหมายเลขคู่แข่ง คะแนนของผู้เล่นอยู่หน้า",
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


def words_of(said: object) -> Words | None:
    """The Words a notice or an error says: itself, a SaidError's `words` (organiser/said.py), or an
    error raised with Words (`ValueError(words(...))`); None for a plain text. (Words of another class
    that says itself the same way, standings/final.py's Said, `say` takes as they are.)"""
    if isinstance(said, Words):
        return said
    found = getattr(said, "words", None)
    if isinstance(found, Words):
        return found
    if isinstance(said, BaseException) and len(said.args) == 1 and isinstance(said.args[0], Words):
        return said.args[0]
    return None


def say(said: object, lang: str) -> str:
    """What a notice, an error or a draft says, in `lang`: Words through the Thai of their template
    (values that are Words said the same way; words_of); any other text or error looked up as a
    whole sentence, else shown as it is."""
    found: Any = words_of(said)
    if found is None and not isinstance(said, str) and callable(getattr(said, "say", None)):
        found = said        # the Words protocol: `say(tr)`
    if found is not None:
        return str(found.say(lambda text: tr(text, lang)))
    return tr(str(said), lang)


# a result's internal id in a note's template ("round 3 table 2 ({id})", "...left out: {ids}"): the public
# pages say the note without it (issue 28: `vm-000118` means nothing to a player; the organiser's pages keep it)
_ID_FIELD = re.compile(r"\s*\(\{ids?\}\)|:\s*\{ids\}")


def say_public(said: object, lang: str) -> str:
    """`say` for a public page: the same words without the results' internal ids (_ID_FIELD)."""
    found: Any = words_of(said)
    if found is None and not isinstance(said, str) and callable(getattr(said, "say", None)):
        found = said
    if found is not None:
        return str(found.say(lambda text: _ID_FIELD.sub("", tr(text, lang))))
    return tr(str(said), lang)


# a result's entry lines (core/result.py: `score left 412`, `confirm right`) read in Thai word by word: the verb
# here, the other words (a side, a level, a stage, a reason) through TH; numbers and pieces as they are
ENTRY_VERBS_TH = {"score": "คะแนน", "outcome": "ผล", "material": "หมากที่เหลือ", "correct": "ถูกทั้งหมด",
                  "drawloss": "เสมอนับเป็นแพ้ของฝั่ง", "level": "ระดับ", "stage": "ช่วงการแข่งขัน",
                  "confirm": "ยืนยัน", "edit": "กรรมการเปิดแก้ไข"}


def say_entry(line: object, lang: str) -> str:
    """An entry line of a result's record as its reader reads it: as recorded in English; in Thai word by
    word (ENTRY_VERBS_TH, then TH): `score left 412` is `คะแนน ซ้าย 412`."""
    text = str(line)
    if lang != "th":
        return text
    verb, *rest = text.split(" ")
    return " ".join([ENTRY_VERBS_TH.get(verb, verb), *(TH.get(w, w) for w in rest)])


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
