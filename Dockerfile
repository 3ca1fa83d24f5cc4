# runqcheck in a container: Debian 12 with the Debian packages of the chosen gate
# presets and runqcheck installed in /opt/runqcheck (ci/install.sh, the step ci/test
# runs on a clean copy of the tree; replay, explain, corpus, pct, stress included).
# Build: docker build -t runqcheck .                (presets native,relacy)
#        docker build --build-arg PRESETS=native,relacy,asan,tsan -t runqcheck .  (all: every one)
# Use:   docker run --rm -v "$PWD:/work" runqcheck gate --subject ... --presets native
FROM debian:12
ARG PRESETS=native,relacy
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY . /usr/src/runqcheck
RUN /usr/src/runqcheck/ci/install.sh --presets "$PRESETS" /opt/runqcheck \
    && rm -rf /usr/src/runqcheck/build /var/lib/apt/lists/*
ENV PATH=/opt/runqcheck/bin:$PATH
WORKDIR /work
ENTRYPOINT ["runqcheck"]
