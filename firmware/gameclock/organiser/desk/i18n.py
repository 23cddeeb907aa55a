"""The desk's words in English and Thai. A page's language: `?lang=th|en` (kept in a cookie), else the
cookie, else the event's language, else English. A text missing in Thai shows in English."""
from __future__ import annotations

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
    "Refused: the form's token is missing or wrong (reload the page).":
        "ปฏิเสธ: โทเคนของฟอร์มไม่ถูกต้อง (โหลดหน้าใหม่)",
    "Refused: the organiser is not logged in here (log in, then send the form again).":
        "ปฏิเสธ: ผู้จัดการแข่งขันยังไม่ได้เข้าสู่ระบบ (เข้าสู่ระบบแล้วส่งฟอร์มอีกครั้ง)",
}


def tr(text: str, lang: str) -> str:
    """`text` in `lang` (English is the key itself)."""
    if lang == "th":
        return TH.get(text, text)
    return text


def pick(query: str | None, cookie: str | None, event_language: str | None) -> str:
    """The page's language from the query, the cookie, the event; only LANGUAGES are taken."""
    for value in (query, cookie, event_language):
        if value in LANGUAGES:
            return str(value)
    return "en"
