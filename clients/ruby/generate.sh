#!/bin/sh
# Regenerates the Ruby stubs of the runsvc API, offline, with Debian's
# grpc_tools_ruby_protoc (ruby-grpc-tools):
#
#   apt-get install -y ruby-grpc-tools libprotobuf-dev
#   clients/ruby/generate.sh            # into clients/ruby/lib
#   clients/ruby/generate.sh /tmp/out   # somewhere else (freshness test)
#
# The output is committed: lib/runsvc/v1/*_pb.rb and *_services_pb.rb, the
# module Runsvc::V1. The google.rpc and google.api messages they require
# come from Debian's ruby-googleapis-common-protos-types (a dependency of
# ruby-grpc), so they are not generated here. Run it again after a .proto
# changes or a service is added: Runsvc::Client finds every service in
# the generated code.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-"$here/lib"}
protoc=${GRPC_TOOLS_RUBY_PROTOC:-grpc_tools_ruby_protoc}

command -v "$protoc" >/dev/null 2>&1 || { echo "generate.sh: grpc_tools_ruby_protoc not found (apt-get install ruby-grpc-tools)" >&2; exit 2; }

# The well-known types (google/protobuf/*.proto) ship with libprotobuf-dev.
wkt=""
for d in /usr/include /usr/local/include; do
	if [ -f "$d/google/protobuf/struct.proto" ]; then wkt="-I$d"; break; fi
done

mkdir -p "$out"
rm -rf "$out/runsvc/v1"

cd "$repo"
# shellcheck disable=SC2086
"$protoc" -Iproto -Ithird_party/googleapis $wkt \
	--ruby_out="$out" --grpc_out="$out" \
	proto/runsvc/v1/*.proto
