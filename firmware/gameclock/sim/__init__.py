"""The simulator's adapters: terminal and PNG display sinks, the keyboard as buttons and knob."""
