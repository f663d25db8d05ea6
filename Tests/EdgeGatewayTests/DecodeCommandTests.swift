import GatewayTestSupport
import Testing

/// Runs the real `edge-gateway decode` binary, as a technician would.
@Suite("edge-gateway decode")
struct DecodeCommandTests {
    @Test("prints the documented JSON for every real strap frame and exits 0")
    func jsonForRealFrames() async throws {
        let result = try await GatewayProcess.run([
            "decode", "--json", "104ed202c802", "10 51 00 03 12 03", "16:34:e4:04", "103b5304", "10 3e b1 03 de",
        ])
        #expect(result.status == 0)
        #expect(
            result.outputLines == [
                #"{"hex":"104ed202c802","bpm":78,"contact":"not-supported","energy_expended_kj":null,"rr_intervals":[722,712],"rr_intervals_ms":[705.078,695.312],"ignored_trailing_bytes":0}"#,
                #"{"hex":"105100031203","bpm":81,"contact":"not-supported","energy_expended_kj":null,"rr_intervals":[768,786],"rr_intervals_ms":[750.0,767.578],"ignored_trailing_bytes":0}"#,
                #"{"hex":"1634e404","bpm":52,"contact":"detected","energy_expended_kj":null,"rr_intervals":[1252],"rr_intervals_ms":[1222.656],"ignored_trailing_bytes":0}"#,
                #"{"hex":"103b5304","bpm":59,"contact":"not-supported","energy_expended_kj":null,"rr_intervals":[1107],"rr_intervals_ms":[1081.055],"ignored_trailing_bytes":0}"#,
                #"{"hex":"103eb103de","bpm":62,"contact":"not-supported","energy_expended_kj":null,"rr_intervals":[945],"rr_intervals_ms":[922.852],"ignored_trailing_bytes":1}"#,
            ])
    }

    @Test("prints energy expended and 16-bit rates in JSON")
    func jsonForEnergyAndUInt16() async throws {
        let result = try await GatewayProcess.run(["decode", "--json", "19 2c 01 10 27 00 04"])
        #expect(
            result.outputLines == [
                #"{"hex":"192c0110270004","bpm":300,"contact":"not-supported","energy_expended_kj":10000,"rr_intervals":[1024],"rr_intervals_ms":[1000.0],"ignored_trailing_bytes":0}"#
            ])
    }

    @Test("prints one human line per frame")
    func humanLines() async throws {
        let result = try await GatewayProcess.run(["decode", "104ed202c802", "0648", "0c3c2c01"])
        #expect(result.status == 0)
        #expect(
            result.outputLines == [
                "78 bpm  contact: not supported  RR: 705.1 ms, 695.3 ms",
                "72 bpm  contact: detected",
                "60 bpm  contact: not detected  energy: 300 kJ",
            ])
    }

    @Test("reports a truncated frame with a precise message and stable code, keeps going, and exits 65")
    func truncatedFrame() async throws {
        let result = try await GatewayProcess.run(["decode", "--json", "10", "104ed202c802", "104ed2"])
        #expect(result.status == 65)
        #expect(result.outputLines.count == 3)
        #expect(
            result.outputLines[0]
                == #"{"hex":"10","error":"Heart Rate Measurement (0x2A37) truncated: 1 byte missing for the heart rate (uint8) at offset 1; the value has 1 byte","code":"frame.truncated-heart-rate"}"#
        )
        #expect(result.outputLines[1].hasPrefix(#"{"hex":"104ed202c802","bpm":78"#))
        #expect(
            result.outputLines[2]
                == #"{"hex":"104ed2","error":"Heart Rate Measurement (0x2A37) truncated: 1 byte missing for the first RR interval (flag bit 4 set) at offset 2; the value has 3 bytes","code":"frame.truncated-rr-interval"}"#
        )
    }

    @Test("reports text that is not hex as malformed input and exits 65")
    func invalidHex() async throws {
        let result = try await GatewayProcess.run(["decode", "--json", "xyz"])
        #expect(result.status == 65)
        #expect(result.outputLines == [#"{"hex":"xyz","error":"'x' in 'xyz' is not a hex digit (0-9, a-f)","code":"frame.invalid-hex"}"#])
    }

    @Test("decodes Body Sensor Location and Battery Level values in the documented JSON")
    func otherCharacteristics() async throws {
        let location = try await GatewayProcess.run(["decode", "--characteristic", "2a38", "--json", "01", "09"])
        #expect(location.status == 0)
        #expect(location.outputLines == [#"{"hex":"01","location":"chest"}"#, #"{"hex":"09","location":"reserved(9)"}"#])

        let battery = try await GatewayProcess.run(["decode", "--characteristic", "0x2A19", "--json", "5a", "65"])
        #expect(battery.status == 65)
        #expect(
            battery.outputLines == [
                #"{"hex":"5a","battery_percent":90}"#,
                #"{"hex":"65","error":"Battery Level (0x2A19) out of range: the battery level at offset 0 is 101 (allowed: 0–100 %)","code":"frame.out-of-range-battery-level"}"#,
            ])
    }

    @Test("reads one frame per line from standard input for -, skipping blank and comment lines")
    func standardInput() async throws {
        let result = try await GatewayProcess.run(
            ["decode", "--json", "0648", "-"], standardInput: "104ed202c802\n\n# from btmon\n 16 34 e4 04\n")
        #expect(result.status == 0)
        let prefixes = [#"{"hex":"0648","bpm":72,"#, #"{"hex":"104ed202c802","bpm":78,"#, #"{"hex":"1634e404","bpm":52,"#]
        #expect(result.outputLines.count == prefixes.count)
        for (line, prefix) in zip(result.outputLines, prefixes) {
            #expect(line.hasPrefix(prefix))
        }
    }

    @Test(
        "exits 64 with a usage message for no frames or an unknown characteristic",
        arguments: [["decode"], ["decode", "--characteristic", "2a40", "01"], ["decode", "--bogus"]])
    func usageErrors(arguments: [String]) async throws {
        let result = try await GatewayProcess.run(arguments)
        #expect(result.status == 64)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("Usage: edge-gateway decode"))
    }

    @Test("explains itself with an example in --help", arguments: [["--help"], ["decode", "--help"]])
    func help(arguments: [String]) async throws {
        let result = try await GatewayProcess.run(arguments)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("edge-gateway decode 10"))
    }
}
