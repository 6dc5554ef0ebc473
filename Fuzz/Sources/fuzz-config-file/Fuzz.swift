import ConfigFuzzTarget

/// libFuzzer's entry point: one input, which must not trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    ConfigFuzz.configFile(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
