#!/bin/sh
# Regenerates the Java messages and gRPC stubs of the runsvc API, offline,
# with Debian's protoc and grpc_java_plugin:
#
#   apt-get install -y protobuf-compiler libprotobuf-dev protobuf-compiler-grpc-java-plugin
#   clients/java/generate.sh            # into clients/java/gen
#   clients/java/generate.sh /tmp/out   # somewhere else (the freshness test)
#
# The output is committed: gen/dev/runsvc/v1/*.java, one file per message,
# enum and service (<Service>Grpc.java), and com.google.rpc and
# com.google.api from the googleapis protos in third_party/, the ones the
# server and the other clients use. Debian's proto-google-common-protos.jar
# (1.16) predates google.rpc.ErrorInfo, so the jar carries these instead;
# google.protobuf comes from Debian's protobuf.jar.
#
# The protos carry only go_package; the Java options are added to a copy of
# each one here (package dev.runsvc.v1, one file per type, outer class
# <File>Proto), so every proto in proto/runsvc/v1, now or later, gets them
# without changing the protos the other languages generate from.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-"$here/gen"}
protoc=${PROTOC:-protoc}
plugin=${GRPC_JAVA_PLUGIN:-$(command -v grpc_java_plugin || echo /usr/bin/grpc_java_plugin)}

command -v "$protoc" >/dev/null 2>&1 || { echo "generate.sh: protoc not found (apt-get install protobuf-compiler)" >&2; exit 2; }
[ -x "$plugin" ] || { echo "generate.sh: grpc_java_plugin not found (apt-get install protobuf-compiler-grpc-java-plugin)" >&2; exit 2; }

# The well-known types (google/protobuf/*.proto) ship with libprotobuf-dev.
wkt=""
for d in /usr/include /usr/local/include; do
	if [ -f "$d/google/protobuf/struct.proto" ]; then wkt="-I$d"; break; fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/runsvc/v1"
for f in "$repo"/proto/runsvc/v1/*.proto; do
	name=$(basename "$f" .proto)
	outer=$(echo "$name" | awk -F_ '{ for (i = 1; i <= NF; i++) printf "%s%s", toupper(substr($i, 1, 1)), substr($i, 2) }')Proto
	sed "s/^package runsvc\.v1;\$/package runsvc.v1;\n\noption java_multiple_files = true;\noption java_outer_classname = \"$outer\";\noption java_package = \"dev.runsvc.v1\";/" \
		"$f" >"$work/runsvc/v1/$name.proto"
	grep -q '^option java_package' "$work/runsvc/v1/$name.proto" || { echo "generate.sh: $f has no 'package runsvc.v1;' line" >&2; exit 1; }
done

mkdir -p "$out"
rm -rf "$out/dev" "$out/com"
# shellcheck disable=SC2086
"$protoc" -I"$repo/third_party/googleapis" $wkt --java_out="$out" \
	"$repo"/third_party/googleapis/google/rpc/status.proto \
	"$repo"/third_party/googleapis/google/rpc/error_details.proto \
	"$repo"/third_party/googleapis/google/rpc/code.proto \
	"$repo"/third_party/googleapis/google/api/annotations.proto \
	"$repo"/third_party/googleapis/google/api/http.proto
# shellcheck disable=SC2086
"$protoc" -I"$work" -I"$repo/third_party/googleapis" $wkt \
	--java_out="$out" \
	--plugin=protoc-gen-grpc-java="$plugin" --grpc-java_out="$out" \
	"$work"/runsvc/v1/*.proto

# grpc_java_plugin 1.41 always marks a stub @javax.annotation.Generated,
# which JDK 9+ no longer ships and no Debian gRPC package provides; the stub
# keeps its @io.grpc.stub.annotations.GrpcGenerated.
for f in "$out"/dev/runsvc/v1/*Grpc.java; do
	sed -i '/^@javax\.annotation\.Generated($/,/)$/d' "$f"
done
