#!/usr/bin/env bash
# Builds the libFuzzer target for the frame decoders into .build-fuzz/.
# SwiftPM cannot build a libFuzzer binary (libFuzzer brings its own main), so the modules are
# compiled with swiftc directly, instrumented for coverage and AddressSanitizer.
set -euo pipefail
out=.build-fuzz
mkdir -p "$out"
flags=(-parse-as-library -O -sanitize=fuzzer,address -use-ld=lld -I "$out")

swiftc "${flags[@]}" -module-name GATTHeartRate -emit-module -emit-module-path "$out/GATTHeartRate.swiftmodule" \
  -emit-library -static -o "$out/libGATTHeartRate.a" Sources/GATTHeartRate/*.swift
swiftc "${flags[@]}" -module-name GatewayTestSupport -emit-module -emit-module-path "$out/GatewayTestSupport.swiftmodule" \
  -emit-library -static -o "$out/libGatewayTestSupport.a" Tests/GatewayTestSupport/FrameConsistency.swift
swiftc "${flags[@]}" -L "$out" -lGATTHeartRate -lGatewayTestSupport \
  Fuzz/HeartRateFrameFuzzer.swift -o "$out/heart-rate-frame-fuzzer"
echo "built $out/heart-rate-frame-fuzzer"
