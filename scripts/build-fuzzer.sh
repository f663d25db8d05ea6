#!/usr/bin/env bash
# Builds the libFuzzer targets into .build-fuzz/: the frame and queue-record decoders, the
# uplink's readers of server replies (batch reply, token reply), and the configuration's TOML
# reader (each with the output helpers they quote outside text with, `OutputFormats`).
# SwiftPM cannot build a libFuzzer binary (libFuzzer brings its own main), so the modules are
# compiled with swiftc directly, instrumented for coverage and AddressSanitizer. The uplink
# fuzzer takes only the files that read replies, and libcurl for its URL parser (curl_url).
set -euo pipefail
out=.build-fuzz
mkdir -p "$out"
flags=(-parse-as-library -O -sanitize=fuzzer,address -use-ld=lld -I "$out" -package-name edge_gateway)

swiftc "${flags[@]}" -module-name OutputFormats -emit-module -emit-module-path "$out/OutputFormats.swiftmodule" \
  -emit-library -static -o "$out/libOutputFormats.a" Sources/OutputFormats/*.swift

swiftc "${flags[@]}" -module-name GATTHeartRate -emit-module -emit-module-path "$out/GATTHeartRate.swiftmodule" \
  -emit-library -static -o "$out/libGATTHeartRate.a" Sources/GATTHeartRate/*.swift
swiftc "${flags[@]}" -module-name GatewayTestSupport -emit-module -emit-module-path "$out/GatewayTestSupport.swiftmodule" \
  -emit-library -static -o "$out/libGatewayTestSupport.a" Tests/GatewayTestSupport/{FrameConsistency,BatchResponseReference}.swift
swiftc "${flags[@]}" -L "$out" -lGATTHeartRate -lGatewayTestSupport \
  Fuzz/HeartRateFrameFuzzer.swift -o "$out/heart-rate-frame-fuzzer"
echo "built $out/heart-rate-frame-fuzzer"

uplink=Sources/Uplink
swiftc "${flags[@]}" -I Sources/CCurl -enable-testing -module-name Uplink -emit-module -emit-module-path "$out/Uplink.swiftmodule" \
  -emit-library -static -o "$out/libUplink.a" \
  "$uplink"/Delivery/{BatchReply,Outcome,BatchResponseReader,BatchResponseReader+JSON}.swift \
  "$uplink"/Transport/{HTTPTransport,ServerAddress,URLParts}.swift \
  "$uplink"/Tokens/{TokenResponse,TokenEndpoint,FormEncoding}.swift "$uplink"/UplinkError.swift
swiftc "${flags[@]}" -I Sources/CCurl -L "$out" -lUplink -lGatewayTestSupport -lGATTHeartRate -lOutputFormats -lcurl Fuzz/UplinkReplyFuzzer.swift -o "$out/uplink-reply-fuzzer"
echo "built $out/uplink-reply-fuzzer"

swiftc "${flags[@]}" -enable-testing -module-name ConfigurationTOML -emit-module -emit-module-path "$out/ConfigurationTOML.swiftmodule" \
  -emit-library -static -o "$out/libConfigurationTOML.a" Sources/GatewayConfiguration/TOML/*.swift
swiftc "${flags[@]}" -L "$out" -lConfigurationTOML -lOutputFormats Fuzz/TOMLFuzzer.swift -o "$out/toml-fuzzer"
echo "built $out/toml-fuzzer"
