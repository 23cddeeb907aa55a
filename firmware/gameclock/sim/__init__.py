"""The simulator's adapters: terminal and PNG display sinks, the keyboard as buttons and knob, and a
simulated I2C bus for the displays (`gameclock run --sim-pins --display oled --sim-bus KHZ`)."""
