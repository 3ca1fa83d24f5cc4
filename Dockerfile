# runqcheck in a container: Debian 12 with the packages ci/lib.sh lists and
# runqcheck installed in /opt/runqcheck (ci/install.sh, the step ci/test
# runs on a clean copy of the tree). Build: docker build -t runqcheck .
# Use:   docker run --rm -v "$PWD:/work" runqcheck gate --subject ... --presets native
FROM debian:12
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY . /usr/src/runqcheck
RUN /usr/src/runqcheck/ci/install.sh /opt/runqcheck && rm -rf /var/lib/apt/lists/*
ENV PATH=/opt/runqcheck/bin:$PATH
WORKDIR /work
ENTRYPOINT ["runqcheck"]
