# syntax=docker/dockerfile:1
# dasch for the ClickHouse server engine. The embedded engine's libchdb.so
# is loaded at run time only when a store URL asks for it, so this image
# does not carry it.

# Build and run stages share Debian bookworm so the cgo binary finds the
# glibc it was linked against.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
# cgo: the embedded-engine binding is C that dlopens libchdb.so.
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=1 go build -trimpath -o /out/dasch ./cmd/dasch

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home-dir /var/lib/dasch --create-home dasch
COPY --from=build /out/dasch /usr/local/bin/dasch
USER dasch
WORKDIR /var/lib/dasch
EXPOSE 8899
ENTRYPOINT ["/usr/local/bin/dasch"]
CMD ["help"]
