# syntax=docker/dockerfile:1
# Build: docker build -t arbiter .
# Run:   docker run --rm -p 8080:8080 arbiter

FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
# Dependencies first, so that code changes do not rebuild them. The manifest
# names the benchmarks, so their (small) sources come along; src is a stub.
COPY Cargo.toml Cargo.lock build.rs ./
COPY benches ./benches
COPY examples ./examples
RUN mkdir -p src && echo 'fn main() {}' > src/main.rs && touch src/lib.rs \
    && cargo build --release --locked --bin arbiter \
    && rm -rf src
COPY src ./src
RUN touch src/main.rs src/lib.rs && cargo build --release --locked --bin arbiter \
    && strip target/release/arbiter

# A small runtime image with libc and nothing else; runs as an unprivileged user.
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /src/target/release/arbiter /usr/local/bin/arbiter
# nonroot (65532), by number: a runtime that cannot resolve names still runs
# it unprivileged (hadolint DL3066).
USER 65532:65532
EXPOSE 8080
ENV ARBITER_BIND=0.0.0.0:8080
# The image has no shell or curl: the binary checks itself.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/usr/local/bin/arbiter", "healthcheck"]
# Docker stops with SIGTERM: readiness turns false and the server drains.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/arbiter"]
CMD ["serve"]
