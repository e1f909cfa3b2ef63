# syntax=docker/dockerfile:1
# Build: docker build -t arbiter .
# Run:   docker run --rm -p 8080:8080 arbiter

FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
# Dependencies first, so that code changes do not rebuild them.
COPY Cargo.toml Cargo.lock ./
RUN mkdir -p src benches && echo 'fn main() {}' > src/main.rs && touch src/lib.rs \
    && echo 'fn main() {}' > benches/perft.rs \
    && cargo build --release --locked --bin arbiter \
    && rm -rf src benches
COPY src ./src
COPY benches ./benches
RUN touch src/main.rs src/lib.rs && cargo build --release --locked --bin arbiter \
    && strip target/release/arbiter

# A small runtime image with libc and nothing else; runs as an unprivileged user.
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /src/target/release/arbiter /usr/local/bin/arbiter
USER nonroot:nonroot
EXPOSE 8080
ENV ARBITER_BIND=0.0.0.0:8080
ENTRYPOINT ["/usr/local/bin/arbiter"]
CMD ["serve"]
