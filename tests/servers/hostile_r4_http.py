"""A raw HTTP server that breaks the transport on purpose, for `mcplens doctor` (tests/hostile_r4_doctor.rs).

usage: hostile_r4_http.py MODE PORT   (prints "ready" once it listens)
"""
import socket, sys, threading, time
mode = sys.argv[1]; port = int(sys.argv[2])
def handle(c):
    try:
        c.settimeout(30)
        data = b""
        while b"\r\n\r\n" not in data:
            d = c.recv(65536)
            if not d: return
            data += d
        path = data.split(b" ")[1].decode()
        if mode == "endless_headers":
            c.sendall(b"HTTP/1.1 200 OK\r\n")
            for i in range(10**7):
                c.sendall(b"X-H%d: %s\r\n" % (i, b"a"*1000))
        elif mode == "huge_header":
            c.sendall(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a"*(50<<20) + b"\r\n\r\n")
        elif mode == "endless_body":
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b"[" * 65536
            while True:
                c.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        elif mode == "endless_html":
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b"<p>" * 20000
            while True:
                c.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        elif mode == "endless_sse":
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b": keepalive\n\n"
            while True:
                c.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk)); time.sleep(0.01)
        elif mode == "endless_sse_data":
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b"data: " + b"x"*65536
            c.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            chunk = b"x"*65536
            while True:
                c.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        elif mode == "long_event":
            # One event of 12 MiB, then its end: a reply to the request.
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
            pad = b"x" * 65536
            head = b'data: {"jsonrpc":"2.0","id":1,"result":{"pad":"'
            c.sendall(b"%x\r\n%s\r\n" % (len(head), head))
            for _ in range(192):
                c.sendall(b"%x\r\n%s\r\n" % (len(pad), pad))
            tail = b'"}}\n\n'
            c.sendall(b"%x\r\n%s\r\n0\r\n\r\n" % (len(tail), tail))
        elif mode == "slow_body":
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            while True:
                c.sendall(b"1\r\n \r\n"); time.sleep(1)
        elif mode == "redirect_loop":
            c.sendall(b"HTTP/1.1 307 Temporary Redirect\r\nLocation: " + path.encode() + b"x\r\nContent-Length: 0\r\n\r\n")
        elif mode == "slow_headers":
            c.sendall(b"HTTP/1.1 200 OK\r\n")
            while True:
                c.sendall(b"X: y\r\n"); time.sleep(1)
        elif mode == "deep_meta":
            if "well-known" in path:
                body = b"[" * 100000 + b"]" * 100000
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            else:
                c.sendall(b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer resource_metadata=\"http://127.0.0.1:%d/.well-known/oauth-protected-resource\"\r\nContent-Length: 0\r\n\r\n" % port)
        elif mode == "huge_meta":
            if "well-known" in path:
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                first = b'{"resource":"' 
                c.sendall(b"%x\r\n%s\r\n" % (len(first), first))
                chunk = b"a"*65536
                while True:
                    c.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            else:
                c.sendall(b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer resource_metadata=\"http://127.0.0.1:%d/.well-known/oauth-protected-resource\"\r\nContent-Length: 0\r\n\r\n" % port)
        elif mode == "escape_body":
            body = b"\x1b]0;PWNED\x07\x1b[2J\x9b31m\xe2\x80\xaeevil"
            c.sendall(b"HTTP/1.1 500 \x1b[31mOops\r\nContent-Type: text/plain\r\nX-Esc: \x1b[31mred\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
    except Exception as e:
        pass
    finally:
        try: c.close()
        except: pass
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port)); s.listen(50)
print("ready", flush=True)
while True:
    c, _ = s.accept()
    threading.Thread(target=handle, args=(c,), daemon=True).start()
