# runsvc: the two commands a newcomer needs are `make run` and `make test`.
# Everything else is for working on runsvc itself. Tools run through
# `go tool` (pinned in go.mod), so a machine with only Go needs nothing else.

GO      ?= go
BIN     ?= bin/runsvc
PKGS    := ./...

# The commit `runsvc version` prints, stamped from git so that it shows even
# where GOFLAGS holds -buildvcs=false (which leaves the build info without
# it). Recursive (=): git runs only when a build expands them.
COMMIT   = $(shell git rev-parse HEAD 2>/dev/null)
MODIFIED = $(shell test -n "$$(git status --porcelain 2>/dev/null)" && echo true)
LDFLAGS  = -X main.stampedCommit=$(COMMIT) -X main.stampedModified=$(MODIFIED)

.PHONY: run build test test-short generate check-generated check-tidy lint breaking check bench clean catalogue jar

## run: start runsvc on its embedded defaults (SQLite in ./runsvc-data, scripted model, 127.0.0.1:50051);
## RUNFLAGS passes serve flags. The binary replaces the recipe's shell, so Ctrl-C reaches runsvc alone
## beside make, which reports no error when runsvc drains and exits 0.
run: build
	exec $(BIN) serve $(RUNFLAGS)

## build: build the binary into bin/runsvc, stamped with the commit whatever GOFLAGS says
build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/runsvc

## test: every test, with the race detector, through gotestsum (pinned in go.mod) so that the summary lists every skipped test with its reason: suites needing PostgreSQL, Python, Node, nginx or HAProxy say "skipped: <tool> not installed" there, or fail with RUNSVC_REQUIRE_ALL=1
test:
	$(GO) tool gotestsum --format pkgname --format-hide-empty-pkg -- -race -count=1 -timeout 20m $(PKGS)

## test-short: the tests without the race detector, quicker while editing
test-short:
	$(GO) test -count=1 $(PKGS)

## generate: regenerate gen/ and the OpenAPI document (internal/httpapi/openapi/) from proto/ with buf and the pinned local plugins (offline)
generate:
	$(GO) tool buf generate

## check-generated: fail when gen/ is not what proto/ generates
check-generated: generate
	git diff --exit-code -- gen/ internal/httpapi/openapi/
	@test -z "$$(git status --porcelain -- gen/ internal/httpapi/openapi/)" || (git status --porcelain -- gen/ internal/httpapi/openapi/; echo "gen/ or internal/httpapi/openapi/ has files make generate did not expect"; exit 1)

## check-tidy: fail when go mod tidy would change go.mod or go.sum (it prints the diff)
check-tidy:
	@$(GO) mod tidy -diff || (echo "go.mod or go.sum is not tidy: run go mod tidy"; exit 1)

## lint: buf lint, gofmt, go vet and staticcheck
lint:
	$(GO) tool buf lint
	@out="$$(gofmt -l $$(git ls-files '*.go'))"; test -z "$$out" || (echo "gofmt needed on:"; echo "$$out"; exit 1)
	$(GO) vet $(PKGS)
	$(GO) tool staticcheck $(PKGS)

## breaking: compare the API with main's for breaking changes (buf breaking, FILE rules)
breaking:
	$(GO) tool buf breaking --against '.git#branch=main'

## jar: the Java client (clients/java) compiled with javac against Debian's gRPC and protobuf jars into bin/runsvc-client.jar,
## whose manifest names them (apt-get install default-jdk-headless libgrpc-java libprotobuf-java libgoogle-gson-java
## libperfmark-java libnetty-java); JAR=path puts it elsewhere
JAR ?= bin/runsvc-client.jar
jar:
	clients/java/build.sh $(JAR)

## catalogue: regenerate errors.json, docs/errors.md and the clients' reason constants from internal/errdetails/table.go
catalogue:
	$(GO) run ./internal/catalogue/gen

## check: everything CI checks besides the tests
check: check-tidy check-generated lint

## bench: the benchmark suite (see BENCHMARKS.md); never part of make test.
## BENCHFLAGS passes flags, e.g. make bench BENCHFLAGS='-phases runs -compare main'
bench:
	$(GO) run ./bench $(BENCHFLAGS)

clean:
	rm -rf bin runsvc-data

## fuzz: run each fuzz target for a number of executions, one after another.
## The budget is a count, not a duration: a duration-bounded run can fail
## with "context deadline exceeded" and no failing input when the deadline
## fires while the worker is mid-call (a race in Go's fuzz coordinator,
## go.dev/issue/75804). Each count is about 20 s of a loaded 2-core machine.
## FUZZTIME overrides every budget, e.g. make fuzz FUZZTIME=200000x.
FUZZTIME ?=
FUZZ_TARGETS := \
	./internal/service:FuzzDecodeRequest:10000x \
	./internal/service:FuzzSpecFromProto:15000x \
	./internal/cli:FuzzParseSpec:10000x \
	./internal/runlog:FuzzFold:100000x \
	./internal/store/pagetoken:FuzzPageToken:300000x
.PHONY: fuzz
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; rest=$${t#*:}; name=$${rest%%:*}; budget=$${rest#*:}; \
		if [ -n "$(FUZZTIME)" ]; then budget=$(FUZZTIME); fi; \
		echo "fuzz: $$name in $$pkg for $$budget"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $$budget -parallel=1 $$pkg; \
	done
