# The first process inside the sandbox (Python, for its short start; entry.mjs does the same on
# Node where there is no Python). The sandbox has no network but its own loopback: this opens the
# proxy's port there, forwarding each connection to the proxy's Unix socket bound in from outside,
# then runs the script (its arguments as given, no shell) and exits with its status.
# Usage: python3 -I -S entry.py <proxy socket> <port> <program> [args...]
import os
import socket
import sys
import threading


def pipe(src, dst, done):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    try:
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    # The second direction to finish closes both ends.
    with done[0]:
        done[1] += 1
        last = done[1] == 2
    if last:
        src.close()
        dst.close()


def forward(listener, path):
    while True:
        client, _ = listener.accept()
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(path)
        except OSError:
            client.close()
            upstream.close()
            continue
        done = [threading.Lock(), 0]
        threading.Thread(target=pipe, args=(client, upstream, done), daemon=True).start()
        threading.Thread(target=pipe, args=(upstream, client, done), daemon=True).start()


def main():
    path, port, argv = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(("127.0.0.1", port))
        listener.listen(64)
    except OSError as e:
        sys.stderr.write(f"sandbox: cannot open the proxy port: {e}\n")
        sys.exit(126)
    threading.Thread(target=forward, args=(listener, path), daemon=True).start()
    try:
        pid = os.posix_spawn(argv[0], argv, os.environ)
    except OSError as e:
        sys.stderr.write(f"sandbox: cannot start {argv[0]}: {e}\n")
        sys.exit(127)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    sys.exit(code if code >= 0 else 128 - code)


main()
