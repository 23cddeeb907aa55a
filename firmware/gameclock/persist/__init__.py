"""Power safety (CL-5, CL-6): the game journal, the outbox of confirmed results, recovery at start.

    fsio.py     the file operations (injectable: tests fail them on purpose), atomic_write
    writer.py   the journal writer thread: every durable write, in order, retried on disk errors
    journal.py  the journal line format (`line*crc32`), one file per game, reading it back
    outbox.py   confirmed result records until the PC acknowledges them; the sequence counter
    restore.py  folding a journal back into the loop (paused), the checkpoint timer, `attach`

README.md beside this file documents the formats and the state folder.
"""
