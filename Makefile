# dasch: build, test, demo. GNU make.
#
#   make build    bin/dasch and bin/dasch-bench (the suites `dasch bench` runs)
#   make run      fetch the engine, build, load the demo data and serve it
#   make test     vet, gofmt check and every test (CI runs this)
#   make fuzz     fuzz the JSON-RPC request parser, the Photon and DAS methods' params, Geyser
#                 updates, a node's, a prover's and forwarded answers, off-chain metadata documents and URIs
#   make bench    benchmarks under ./bench
#   make libchdb  fetch the embedded ClickHouse engine (libchdb.so)
#   make proto    regenerate the Yellowstone gRPC Go code (needs protoc; the output is committed)
#   make clean    remove build outputs (never the data directory)

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build

# Go is installed in /usr/local/go/bin, which a bare environment (CI) may
# not have on PATH.
ifeq ($(shell command -v go 2>/dev/null),)
export PATH := /usr/local/go/bin:$(PATH)
endif
GO ?= go

CHDB_VERSION := 26.7.3-stable.1
DASCH_CHDB_DIR ?= $(or $(HOME),$(CURDIR))/.cache/dasch/chdb-$(CHDB_VERSION)
DASCH_CHDB_LIB ?= $(DASCH_CHDB_DIR)/libchdb.so
# Exported so the fetch script, bin/dasch and the tests agree on the library.
export DASCH_CHDB_DIR DASCH_CHDB_LIB

STORE ?= embedded:./data
LISTEN ?= 127.0.0.1:8899
# make run RPC=URL [FROM=SLOT|latest]: serve and follow a Solana node
# instead of the demo data (without FROM, an empty store first lists the
# node's asset accounts: --bootstrap).
RPC ?=
FROM ?=

TEST_TIMEOUT ?= 40m
TESTFLAGS ?=
FUZZTIME ?= 60s
BENCH ?= .
BENCHTIME ?= 1x
BENCH_TIMEOUT ?= 60m

.PHONY: check-go
check-go:
	@command -v $(GO) >/dev/null 2>&1 || { \
		echo "make: Go not found on PATH or in /usr/local/go/bin: install Go 1.26 or set GO=/path/to/go" >&2; \
		exit 1; }

.PHONY: libchdb
libchdb:
	@scripts/fetch-libchdb.sh

.PHONY: build
build: check-go
	$(GO) build -o bin/dasch ./cmd/dasch
	$(GO) build -o bin/dasch-bench ./cmd/dasch-bench

.PHONY: run
run: libchdb build
	@STORE='$(STORE)' LISTEN='$(LISTEN)' RPC='$(RPC)' FROM='$(FROM)' scripts/run-demo.sh

.PHONY: vet
vet: check-go
	$(GO) vet ./...

# gofmt from the same toolchain as go, listing every file that needs it.
.PHONY: fmt-check
fmt-check: check-go
	@files="$$("$$($(GO) env GOROOT)/bin/gofmt" -l .)"; \
	if [[ -n "$$files" ]]; then \
		echo "gofmt would change these files (run gofmt -w on them):" >&2; \
		echo "$$files" >&2; \
		exit 1; \
	fi

.PHONY: test
test: check-go libchdb vet fmt-check
	$(GO) test ./... -count=1 -timeout $(TEST_TIMEOUT) $(TESTFLAGS)

.PHONY: fuzz
fuzz: check-go libchdb
	$(GO) test ./server/jsonrpc -run='^$$' -fuzz=FuzzParseRequest -fuzztime=$(FUZZTIME)
	$(GO) test ./api/photon -run='^$$' -fuzz=FuzzParams -fuzztime=$(FUZZTIME)
	$(GO) test ./api/das -run='^$$' -fuzz=FuzzParams -fuzztime=$(FUZZTIME)
	$(GO) test ./ingest/source/geyser -run='^$$' -fuzz=FuzzTransaction -fuzztime=$(FUZZTIME)
	$(GO) test ./ingest/source/geyser -run='^$$' -fuzz=FuzzAccount -fuzztime=$(FUZZTIME)
	$(GO) test ./ingest/source -run='^$$' -fuzz=FuzzAccountEntry -fuzztime=$(FUZZTIME)
	$(GO) test ./ingest/source -run='^$$' -fuzz=FuzzListing -fuzztime=$(FUZZTIME)
	$(GO) test ./asset -run='^$$' -fuzz=FuzzApplyJSON -fuzztime=$(FUZZTIME)
	$(GO) test ./ingest/offchain -run='^$$' -fuzz=FuzzRewrite -fuzztime=$(FUZZTIME)
	$(GO) test ./server/upstream -run='^$$' -fuzz=FuzzEncode -fuzztime=$(FUZZTIME)
	$(GO) test ./api/photon/prover -run='^$$' -fuzz=FuzzParseProof -fuzztime=$(FUZZTIME)
	$(GO) test ./chain/parsed -run='^$$' -fuzz=FuzzDecoders -fuzztime=$(FUZZTIME)
	$(GO) test ./chain/parsed -run='^$$' -fuzz='^FuzzParse$$' -fuzztime=$(FUZZTIME)
	$(GO) test ./chain/parsed -run='^$$' -fuzz=FuzzSwapDecoders -fuzztime=$(FUZZTIME)
	$(GO) test ./chain/parsed -run='^$$' -fuzz=FuzzSwapEvents -fuzztime=$(FUZZTIME)
	$(GO) test ./chain/parsed -run='^$$' -fuzz=FuzzParseSwaps -fuzzminimizetime=0 -fuzztime=$(FUZZTIME)
	$(GO) test ./internal/b58 -run='^$$' -fuzz=FuzzAppendLong -fuzztime=$(FUZZTIME)

.PHONY: soak
soak: build
	bin/dasch-bench --suite soak --json soak.json

.PHONY: bench
bench: check-go libchdb
	$(GO) test ./bench/... -run='^$$' -bench='$(BENCH)' -benchtime=$(BENCHTIME) -timeout $(BENCH_TIMEOUT)

# The generated code is committed, so a plain build needs no protoc. The
# plugins' versions are pinned to the ones the committed code came from.
PROTOC_GEN_GO := google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
PROTOC_GEN_GO_GRPC := google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2
GEYSERPB := internal/geyserpb

.PHONY: proto
proto: check-go
	@command -v protoc >/dev/null 2>&1 || { echo "make proto: protoc not found (apt-get install -y protobuf-compiler)" >&2; exit 1; }
	GOBIN="$(CURDIR)/bin" $(GO) install $(PROTOC_GEN_GO)
	GOBIN="$(CURDIR)/bin" $(GO) install $(PROTOC_GEN_GO_GRPC)
	PATH="$(CURDIR)/bin:$$PATH" protoc -I $(GEYSERPB)/proto \
		--go_out=. --go_opt=module=github.com/dasch-labs/dasch \
		--go-grpc_out=. --go-grpc_opt=module=github.com/dasch-labs/dasch \
		$(GEYSERPB)/proto/geyser.proto $(GEYSERPB)/proto/solana-storage.proto

.PHONY: clean
clean:
	rm -rf bin/
	rm -f ./*.test ./*.prof ./*.pprof cpu.out mem.out
