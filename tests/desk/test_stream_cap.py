"""The live streams' cap per address, against the real desk under uvicorn (issue 24, B8: 26 of 300
streams opened at once were accepted against a cap of 16: the count was checked when the request
came and raised only once the stream began, so requests that came together all passed the check)."""
from __future__ import annotations

import socket
import time

from bench.browser import serve
from gameclock.organiser.desk.app import create_app
from gameclock.organiser.desk.public import MAX_STREAMS_A_CLIENT

OPENINGS = 300


def status_of(sock: socket.socket) -> int:
    """The status of the response on `sock` (its first line: `HTTP/1.1 200 OK`)."""
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(256)
        assert chunk, f"the connection closed before a status line: {head!r}"
        head += chunk
    return int(head.split(b" ", 2)[1])


def test_three_hundred_streams_opened_at_once_from_one_address_get_exactly_the_cap(db):
    app = create_app(db, interval=0.05, stream_seconds=60.0)   # the accepted streams stay open meanwhile
    served = serve(app)
    socks: list[socket.socket] = []
    try:
        for _ in range(OPENINGS):                  # every connection made first ...
            s = socket.create_connection(("127.0.0.1", served.port), timeout=20)
            socks.append(s)
        request = f"GET /e/t/stream HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode()
        for s in socks:                            # ... then the 300 requests sent together
            s.sendall(request)
        codes = [status_of(s) for s in socks]
        # before the fix: 132 accepted
        assert (codes.count(200), codes.count(429), len(codes)) == (MAX_STREAMS_A_CLIENT, OPENINGS - 16, OPENINGS)
        assert app.state.desk.streams == {"127.0.0.1": MAX_STREAMS_A_CLIENT}
        for s in socks:
            s.close()
        # the browsers gone: every stream is counted back (Starlette cancels a stream whose client left)
        end = time.monotonic() + 10
        while app.state.desk.streams and time.monotonic() < end:
            time.sleep(0.05)
        assert app.state.desk.streams == {}
    finally:
        for s in socks:
            s.close()
        served.stop()
