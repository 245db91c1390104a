#!/bin/sh
# Builds the Java client into a jar with javac and jar, offline, against
# Debian's gRPC and protobuf jars in /usr/share/java (`make jar` runs it):
#
#   apt-get install -y default-jdk-headless libgrpc-java libprotobuf-java \
#     libgoogle-gson-java libperfmark-java libnetty-java
#   clients/java/build.sh                       # bin/runsvc-client.jar
#   clients/java/build.sh /tmp/runsvc-client.jar
#
# The jar holds the generated dev.runsvc.v1 messages and stubs, com.google.rpc
# and com.google.api (gen/, see generate.sh), and the client,
# dev.runsvc.client (src/). Its manifest's Class-Path names the
# Debian jars it needs at run time by absolute path, so a program needs only
# the jar on its class path: javac -cp runsvc-client.jar Main.java;
# java -cp runsvc-client.jar:. Main.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
jar=${1:-"$here/../../bin/runsvc-client.jar"}
lib=${JAVA_LIB:-/usr/share/java}
javac=${JAVAC:-javac}
jartool=${JAR_TOOL:-jar}

# What the client and the stubs use, at compile and at run time.
jars="grpc-api grpc-context grpc-core grpc-netty grpc-protobuf grpc-protobuf-lite grpc-stub
protobuf protobuf-util guava gson perfmark-api
netty-buffer netty-codec netty-codec-http netty-codec-http2 netty-codec-socks netty-common
netty-handler netty-handler-proxy netty-resolver netty-transport"
# TLS needs netty-tcnative: Debian's netty-handler has no JDK ALPN, so
# grpc-netty negotiates h2 through OpenSSL. The manifest names it whether
# or not it is installed (a missing Class-Path entry is skipped); only TLS
# channels need it.
optional="netty-tcnative"
packages="default-jdk-headless libgrpc-java libprotobuf-java libgoogle-gson-java libperfmark-java libnetty-java"

command -v "$javac" >/dev/null 2>&1 || { echo "build.sh: javac not found (apt-get install $packages)" >&2; exit 2; }
cp=""
manifest_cp=""
for j in $jars; do
	f="$lib/$j.jar"
	[ -f "$f" ] || { echo "build.sh: $f not found (apt-get install $packages)" >&2; exit 2; }
	cp="$cp${cp:+:}$f"
	manifest_cp="$manifest_cp${manifest_cp:+
 } $f"
done

for j in $optional; do
	manifest_cp="$manifest_cp
  $lib/$j.jar"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
find "$here/gen" "$here/src" -name '*.java' | LC_ALL=C sort >"$work/sources"
mkdir -p "$work/classes"
# javac's notes about deprecated APIs the generated code uses are left out.
rc=0
"$javac" --release 11 -nowarn -encoding UTF-8 -d "$work/classes" -cp "$cp" "@$work/sources" >"$work/javac.log" 2>&1 || rc=$?
grep -v '^Note: ' "$work/javac.log" >&2 || true
[ "$rc" -eq 0 ] || { echo "build.sh: javac failed (exit $rc)" >&2; exit 1; }

version=$(sed -n 's/.*CATALOGUE_VERSION = "\([^"]*\)".*/\1/p' "$here/src/dev/runsvc/client/Reasons.java")
# A manifest line continues on the next one when that starts with a space,
# so each jar's line starts with two: the marker and the separator.
printf 'Implementation-Title: runsvc-client\nImplementation-Version: %s\nClass-Path:%s\n' \
	"$version" "$manifest_cp" >"$work/MANIFEST.MF"
mkdir -p "$(dirname "$jar")"
rm -f "$jar"
"$jartool" --create --file "$jar" --manifest "$work/MANIFEST.MF" -C "$work/classes" .
echo "built $jar"
