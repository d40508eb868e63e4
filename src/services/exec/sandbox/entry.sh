# The first process inside the sandbox where socat is installed (it starts in a millisecond;
# entry.py and entry.mjs do the same job on Python or Node). The sandbox has no network but its own
# loopback: socat opens the proxy's port there and forwards each connection to the proxy's Unix
# socket bound in from outside. Once the port listens (read from /proc/net/tcp with shell builtins
# only), the script replaces this shell, with its arguments as given.
# Usage: sh entry.sh <proxy socket> <port> <program> [args...]
sock=$1
port=$2
shift 2
/usr/bin/socat TCP-LISTEN:"$port",bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:"$sock" 2>/dev/null &
want=0100007F:$(printf '%04X' "$port")
n=0
while [ "$n" -lt 400 ]; do
  while read -r _ local _ state _; do
    if [ "$local" = "$want" ] && [ "$state" = 0A ]; then exec "$@"; fi
  done </proc/net/tcp
  n=$((n + 1))
  # Busy for the first few rounds (socat is usually there by then), then in steps of 10 ms.
  [ "$n" -gt 100 ] && /usr/bin/sleep 0.01
done
echo "sandbox: the proxy's port did not open" >&2
exit 126
