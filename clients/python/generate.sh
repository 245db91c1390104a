#!/bin/sh
# Regenerates the Python stubs of the runsvc API and of the google.rpc
# protos it uses, offline, with Debian's protoc and grpc_python_plugin:
#
#   apt-get install -y protobuf-compiler protobuf-compiler-grpc
#   clients/python/generate.sh            # into clients/python/gen
#   clients/python/generate.sh /tmp/out   # somewhere else (freshness test)
#
# The output is committed. It holds runsvc/v1/*_pb2{,_grpc}.py(i),
# google/rpc/*_pb2.py(i) and google/api/*_pb2.py(i). Never add google/__init__.py: `google` must stay a
# namespace package so the system's google.protobuf keeps importing.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-"$here/gen"}
protoc=${PROTOC:-protoc}
plugin=${GRPC_PYTHON_PLUGIN:-$(command -v grpc_python_plugin || echo /usr/bin/grpc_python_plugin)}

command -v "$protoc" >/dev/null 2>&1 || { echo "generate.sh: protoc not found (apt-get install protobuf-compiler)" >&2; exit 2; }
[ -x "$plugin" ] || { echo "generate.sh: grpc_python_plugin not found (apt-get install protobuf-compiler-grpc)" >&2; exit 2; }

# The well-known types (google/protobuf/*.proto) ship with protoc.
wkt=""
for d in /usr/include /usr/local/include; do
	if [ -f "$d/google/protobuf/struct.proto" ]; then wkt="-I$d"; break; fi
done

mkdir -p "$out"
rm -rf "$out/runsvc" "$out/google"

cd "$repo"
# shellcheck disable=SC2086
"$protoc" -Iproto -Ithird_party/googleapis $wkt \
	--python_out="$out" --pyi_out="$out" \
	third_party/googleapis/google/rpc/status.proto \
	third_party/googleapis/google/rpc/error_details.proto \
	third_party/googleapis/google/rpc/code.proto \
	third_party/googleapis/google/api/annotations.proto \
	third_party/googleapis/google/api/http.proto
# shellcheck disable=SC2086
"$protoc" -Iproto -Ithird_party/googleapis $wkt \
	--python_out="$out" --pyi_out="$out" \
	--plugin=protoc-gen-grpc_python="$plugin" --grpc_python_out="$out" \
	proto/runsvc/v1/*.proto

# Regular packages for runsvc.v1, google.rpc and google.api (the HTTP
# annotations the runsvc protos import); `google` itself stays a namespace
# package (no google/__init__.py, ever).
for p in runsvc runsvc/v1 google/rpc google/api; do
	: >"$out/$p/__init__.py"
done
