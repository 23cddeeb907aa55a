"""GPIO pin map (BCM numbers) used by the simulator's mock pins.

A later issue moves the wiring into hw/ as data; until then this dict is the one place that names
pins. Buttons short their pin to ground (internal pull-up, active low). GPIO2/3 are left for I2C
(the two SSD1306/SH1106 displays), GPIO18 for the buzzer's hardware PWM.
"""
from __future__ import annotations

PINS: dict[str, int] = {
    "left": 17,       # left player's button
    "right": 27,      # right player's button
    "pause": 22,      # pause / resume (CL-3)
    "knob_a": 5,      # rotary encoder A
    "knob_b": 6,      # rotary encoder B
    "knob_push": 13,  # encoder's push switch
    "back": 26,       # back button beside the knob
    "buzzer": 18,     # piezo (PWM), not built by the simulator yet
}
