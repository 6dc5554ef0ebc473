#!/usr/bin/env python3
"""Writes the protobuf seeds of the fuzz corpora (server version 226) from the conformance vectors that IB's official
client makes at test time (Tests/Interop/ibapi_vectors.py): the committed seeds are those bytes only, no IB code.

Run with the venv of scripts/setup-python.sh, when the vectors change:
    .venv/bin/python Fuzz/make-protobuf-seeds.py
"""
import io
import json
import os
import sys
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Interop"))
import ibapi_responses  # noqa: E402
import ibapi_vectors  # noqa: E402

CORPUS = os.path.join(HERE, "Corpus")


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "seed-" + name), "wb") as f:
        f.write(data)


def lines(function):
    out = io.StringIO()
    with redirect_stdout(out):
        function()
    return [json.loads(line) for line in out.getvalue().splitlines()]


# client-inbound: version byte 50 (226 - 176), then one payload (binary id + protobuf body); plus a framed stream.
stream = b""
for record in lines(ibapi_responses.main):
    frame = bytes.fromhex(record["hex"])
    write("client-inbound", f"v226-{record['name']}", bytes([50]) + frame[4:])
    stream += frame
write("client-inbound", "v226-stream", bytes([50]) + stream)

# simulator-requests: the protobuf marker 0xFE, then framed requests at 226 (each alone, and a session of all).
session = b""
for record in lines(ibapi_vectors.requests):
    if record.get("sv") != 226 or not record["hex"]:
        continue
    frame = bytes.fromhex(record["hex"])
    write("simulator-requests", f"v226-{record['name']}", b"\xfe" + frame)
    session += frame
write("simulator-requests", "v226-session", b"\xfe" + session)
