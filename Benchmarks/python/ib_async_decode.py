#!/usr/bin/env python3
"""Decode the benchmark tick mix with ib_async 2.1.0's own decoder, for a ratio against IBTrader's.

What is timed: exactly what ib_async does per received chunk (Client._onSocketHasData): cut frames off a byte
buffer by their 4-byte length, decode the payload to str, split on NUL, then Decoder.interpret(fields), which parses
every field and calls the wrapper. The wrapper is a no-op object, so ib_async's ticker bookkeeping is NOT counted:
this is decoder against decoder.

Usage: python ib_async_decode.py [--frames N] [--repeat R]   (prints frames/s by wall clock and per thread CPU second,
median of R runs; CPU time leaves out waits for a core on a shared machine, as the Swift benchmark's CPU row does)
"""
import argparse, json, pathlib, statistics, struct, time

from ib_async.decoder import Decoder

ROOT = pathlib.Path(__file__).resolve().parents[2]
VECTORS = ROOT / "Tests/Fixtures/protocol/vectors/server_to_client.v178.jsonl"
MIX = ROOT / "Benchmarks/tick-mix.json"


class NoopWrapper:
    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def build_stream(frame_count):
    mix = json.loads(MIX.read_text())
    records = {json.loads(l)["name"]: json.loads(l) for l in VECTORS.read_text().splitlines() if l.strip()}
    cycle = []
    for name, weight in mix["mix"]:
        cycle += [bytes.fromhex(records[name]["hex"])] * weight
    frames = [cycle[i % len(cycle)] for i in range(frame_count)]
    return b"".join(frames), mix["server_version"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    stream, version = build_stream(args.frames)
    decoder = Decoder(NoopWrapper(), version)
    rates = []
    cpu_rates = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        cpu_start = time.thread_time()
        # Feed in 4 KiB chunks as a socket would.
        pending = b""
        decoded = 0
        for offset in range(0, len(stream), 4096):
            pending += stream[offset:offset + 4096]
            # The same steps as ib_async Client._onSocketHasData, minus logging.
            consumed = 0
            while len(pending) - consumed > 4:
                end = consumed + 4 + struct.unpack(">I", pending[consumed:consumed + 4])[0]
                if end > len(pending):
                    break
                msg = pending[consumed + 4:end].decode(errors="backslashreplace")
                fields = msg.split("\0")
                fields.pop()
                decoder.interpret(fields)
                decoded += 1
                consumed = end
            pending = pending[consumed:]
        elapsed = time.perf_counter() - start
        cpu_elapsed = time.thread_time() - cpu_start
        assert decoded == args.frames, (decoded, args.frames)
        rates.append(decoded / elapsed)
        cpu_rates.append(decoded / cpu_elapsed)
    print(f"ib_async 2.1.0 decoder: {statistics.median(rates):,.0f} frames/s (median of {args.repeat}, {args.frames} frames, tick mix v{version})")
    print(f"ib_async 2.1.0 decoder: {statistics.median(cpu_rates):,.0f} frames per CPU second (thread CPU time, median of {args.repeat})")


if __name__ == "__main__":
    main()
