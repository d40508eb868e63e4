# biomirror in a container. Native addons (better-sqlite3) are compiled from the sources the npm
# package ships, so the build stage has a compiler; the run stage has only Node and the app.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Node's headers ship in the image (/usr/local/include/node): node-gyp compiles against them instead
# of downloading them, so the build reaches only the npm registry and Debian.
ENV npm_config_nodedir=/usr/local
# `npm ci` also builds (the package's prepare script), so the sources come first.
COPY package.json package-lock.json .prebuild-installrc tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm ci && npm prune --omit=dev

FROM node:20-bookworm-slim
# The engines biomirror runs as programs, from Debian: MMseqs2 and TM-align (structure search), and
# the script sandbox (bubblewrap; Python with requests, socat for the sandbox's proxy forwarder).
# The sandbox needs unprivileged user namespaces in the container (see docs/operations.md).
RUN apt-get update && apt-get install -y --no-install-recommends \
      mmseqs2 tm-align bubblewrap python3 python3-requests socat ca-certificates \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
WORKDIR /app
# Demo data and worker scripts are read from src/ beside the build.
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/src ./src
COPY skills ./skills
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/_biomirror/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["serve"]
